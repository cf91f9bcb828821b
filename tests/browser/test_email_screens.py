"""Turn emails as a mail client shows them: the HTML the outbox sent, in Chromium at a phone's and a
desktop's width. The subject names the decision, every move is a link, and a phone reads the email
without scrolling sideways. Saved to var/screenshots/email-<turn>-<width>.png for a person to look at."""

import random
import re

import pytest
from django.core import mail

from games import services
from games.selectors import view_for
from tests.factories import committed, make_user, start_two_player_game

from .test_table_screens import SIZES, screenshots

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def turn_email_to(address):
    [message] = [m for m in mail.outbox if m.to == [address] and "it is your turn to" in m.body]
    mail.outbox.clear()
    return message


def the_turn_emails():
    """Alice's discard email, then the play email of the seat to lay after the first card."""
    alice = make_user("alice@example.com", "Alice", allow_forced_moves=False, password=None)
    bob = make_user("bob@example.com", "Bob", allow_forced_moves=False, password=None)
    with committed():
        game = start_two_player_game(players=[alice, bob], rng=random.Random(7))
    discard = turn_email_to(alice.email)
    mail.outbox.clear()
    with committed():
        for seat in (0, 1):
            services.submit_move(game, seat, view_for(game, seat).legal_moves[0])
    game.refresh_from_db()
    leader = view_for(game, 0).turn
    with committed():
        services.submit_move(game, leader, view_for(game, leader).legal_moves[0])
    game.refresh_from_db()
    player = game.seats.get(number=view_for(game, 0).turn).player
    return game, {"discard": discard, "play": turn_email_to(player.email)}


def test_a_turn_email_names_the_decision_links_every_move_and_fits_a_phone(browser):
    game, emails = the_turn_emails()
    subject = {
        "discard": rf"Your discard — Alice v Bob, hand 1 \(game {game.pk}\)",
        "play": rf"(Alice|Bob) laid \S+( for [^:]+)?: your play at \d+ — Alice v Bob, hand 1 \(game {game.pk}\)",
    }
    folder = screenshots()
    for turn, message in emails.items():
        assert re.fullmatch(subject[turn], message.subject), message.subject
        moves = re.findall(r"^(?:crib|play) .*?   (https?://\S+/m/move/\S+/)$", message.body, re.M)
        assert moves, message.body
        html, _ = message.alternatives[0]
        for name, (width, height) in SIZES.items():
            page = browser.new_context(
                viewport={"width": width, "height": height}, is_mobile=name == "phone"
            ).new_page()
            page.set_content(html)
            links = page.eval_on_selector_all('a[href*="/m/move/"]', "links => links.map(a => a.href)")
            assert links == moves, "each move the text lists is a link, in the same order"
            assert page.evaluate("document.documentElement.scrollWidth") <= width, f"{turn} at {width}"
            page.screenshot(path=str(folder / f"email-{turn}-{width}.png"), full_page=True)
            page.context.close()
