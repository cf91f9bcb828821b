"""Screenshots of the game table in every phase, at a phone's and a desktop's size, for a person to look at.

A two-player game in the discard, the play, the show (muggins, where each counts their own), the game
over and its review, the confirm page behind an email's move link and the calculator's discard analyser, each saved at 390 x 844 and
1366 x 768: the first screen (`<page>-<width>.png`) and the whole page (`<page>-<width>-full.png`) in
var/screenshots/ (or the folder in SCREENSHOTS_DIR).
"""

import os
import random
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.urls import reverse

from games import cribbage
from games.selectors import view_for
from mail import links
from tests.factories import finish_game, make_user, moved_until, start_two_player_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": (390, 844), "desktop": (1366, 768)}


def screenshots():
    path = Path(os.environ.get("SCREENSHOTS_DIR") or Path(__file__).resolve().parents[2] / "var" / "screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


def the_games():
    """Alice (seat 0) and Bob in a game at each phase: {"<phase>": (path, anchor)}."""
    alice = make_user("alice@example.com", "Alice", allow_forced_moves=False, notify="none")
    bob = make_user("bob@example.com", "Bob", allow_forced_moves=False, notify="none")
    players = [alice, bob]
    rng = random.Random(7)
    discard = start_two_player_game(players=players, rng=rng)
    play = moved_until(
        start_two_player_game(players=players, rng=rng),
        lambda s: s.phase == "play" and len(s.plays) >= 3 and s.turn == 0 and s.scores[0] > 20,
        rng,
    )
    show = moved_until(
        start_two_player_game(players=players, rng=rng, muggins=True),
        lambda s: s.phase == "show" and 0 in cribbage.to_act(s),
        rng,
    )
    over = finish_game(start_two_player_game(players=players, rng=rng), winner=0)
    move = view_for(discard, 0).legal_moves[0]
    confirm = urlsplit(links.move_url(discard.pk, 0, discard.seq, move)).path
    page = lambda g: reverse("games:game", args=[g.pk])  # noqa: E731
    pages = {
        "game-discard": page(discard),
        "game-play": page(play),
        "game-show": page(show),
        "game-over": page(over),
        "game-review": page(over) + "#review",
        "confirm": confirm,
        "calculator-throws": reverse("games:calculator") + "?deal=5H+5C+JD+6S+9C+KH",
    }
    return alice, pages


def tab_of(browser, base, user, size, **options):
    width, height = SIZES[size]
    phone = size == "phone"
    context = browser.new_context(
        viewport={"width": width, "height": height}, has_touch=phone, is_mobile=phone, **options
    )
    client = Client()
    client.force_login(user)
    cookie = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": django_settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])
    # The page's poll is held off: a still picture.
    context.route("**/state.json", lambda r: r.fulfill(status=200, content_type="application/json", body="null"))
    return context.new_page()


def test_the_table_in_every_phase_at_phone_and_desktop_size(live_server, browser):
    alice, pages = the_games()
    folder = screenshots()
    for size in SIZES:
        tab = tab_of(browser, live_server.url, alice, size)
        for name, path in pages.items():
            path, _, anchor = path.partition("#")
            response = tab.goto(live_server.url + path)
            assert response.status == 200, (name, response.status)
            width = SIZES[size][0]
            if anchor:
                tab.locator(f"#{anchor}").scroll_into_view_if_needed()
            tab.screenshot(path=str(folder / f"{name}-{width}.png"))
            tab.screenshot(path=str(folder / f"{name}-{width}-full.png"), full_page=True)
