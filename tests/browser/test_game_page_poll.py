"""The game page's poll in real Chromium: when the other player moves, the open page reloads
itself (it polls state.json every 15 s), unless its player is in the middle of choosing; then
it says the game has moved on and keeps the choice. The page's clock is Playwright's, moved on
by hand, so no test waits for the 15 s."""

import random

import pytest
from django.conf import settings as django_settings
from django.test import Client

from games import services
from games.models import Game
from tests.factories import make_user, start_two_player_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

POLL_MS = 15_000


def game_page(browser, base, user, game):
    """The game page open in ``user``'s browser, the page's timers on a clock the test moves."""
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    name = django_settings.SESSION_COOKIE_NAME
    context.add_cookies([{"name": name, "value": client.cookies[name].value, "url": base}])
    page = context.new_page()
    page.clock.install()
    page.goto(f"{base}/games/{game.pk}/")
    ids = page.evaluate("[...document.querySelectorAll('[id]')].map(e => e.id)")
    assert len(ids) == len(set(ids)), "an id is used twice: the script finds the first"
    return page


def discard(game, seat):
    state = services.engine_state(game)
    cards = sorted(state.hands[seat])[:2]
    services.submit_move(game, seat, {"kind": "discard", "cards": [c.code for c in cards]}, rng=random.Random(2))


def seq_on(page):
    return page.locator("#table").get_attribute("data-seq")


def test_the_page_reloads_itself_when_the_other_player_moves(live_server, browser):
    alice, bob = make_user(display_name="Alice"), make_user(display_name="Bob")
    game = start_two_player_game(players=[alice, bob])
    discard(game, 0)
    page = game_page(browser, live_server.url, alice, game)
    assert page.locator("form.discard-form").count() == 0  # Alice has laid away: she waits
    assert "not turned yet" in page.content()
    before = seq_on(page)
    page.evaluate("window.notReloaded = true")  # a reload would forget it
    with page.expect_response("**/state.json"):  # nothing has moved: the poll leaves the page alone
        page.clock.run_for(POLL_MS)
    page.wait_for_timeout(300)
    assert page.evaluate("window.notReloaded === true")
    assert seq_on(page) == before and page.locator(".moved-on").count() == 0

    discard(Game.objects.get(pk=game.pk), 1)
    with page.expect_navigation():
        page.clock.run_for(POLL_MS)
    assert seq_on(page) != before
    assert "not turned yet" not in page.content()  # the starter is turned: the play has begun


def test_a_player_choosing_is_told_the_game_moved_on_and_keeps_the_choice(live_server, browser):
    alice, bob = make_user(display_name="Alice"), make_user(display_name="Bob")
    game = start_two_player_game(players=[alice, bob])
    page = game_page(browser, live_server.url, alice, game)
    box = page.locator("form.discard-form input[name=cards]").first
    box.check()
    before = seq_on(page)
    page.evaluate("window.notReloaded = true")

    discard(Game.objects.get(pk=game.pk), 1)  # Bob lays away while Alice is choosing
    page.clock.run_for(POLL_MS)
    notice = page.locator("#table .moved-on")
    notice.wait_for()
    assert "The game has moved on" in notice.inner_text()
    assert page.evaluate("window.notReloaded === true")  # no reload: her choice is still there
    assert seq_on(page) == before and box.is_checked()
