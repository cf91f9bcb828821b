"""The board, the show and a finished game as a player sees them, on a phone (390 px) and a desktop (1366 px).

Each page is opened in real Chromium at both widths: it must not scroll sideways, the board's
holes must be big enough to see and tap on a desktop, and a screenshot of each goes to
test-artifacts/ (board-1366.png, board-390.png, show-*.png, finished-*.png) for a person to look at.
"""

import gzip
import random
from urllib.parse import urlsplit

import pytest

from games import cribbage, lifecycle, selectors, services
from mail import links
from tests.factories import finish_game, make_user, play_random_move, start_two_player_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-Long-secret-42"
WIDTHS = (390, 1366)


def players():
    alice = make_user("alice@example.com", "Alice", password=PASSWORD, allow_forced_moves=False)
    bob = make_user("bob@example.com", "Bob", allow_forced_moves=False)
    return alice, bob


def play_until(game, wanted, seed=3):
    """Random moves until `wanted(state)` holds for the game's engine state."""
    rng = random.Random(seed)
    for _ in range(800):
        state = services.engine_state(game)
        if wanted(state):
            return game
        assert not game.is_finished, "the game ended before the moment wanted"
        game = play_random_move(game, cribbage.to_act(state)[0], rng=rng).game
    raise AssertionError("never reached the moment wanted")


def a_game_in_play(alice, bob):
    """Hand three or later, both players well on the board, Alice to play a card."""
    game = lifecycle.start_game(players=[alice, bob], rng=random.Random(3))
    return play_until(
        game,
        lambda s: s.phase == "play" and 0 in cribbage.to_act(s) and min(s.scores) >= 20 and s.hand_number >= 3,
    )


def a_show_moment(alice, bob):
    """The last card of a hand was just played: the show is counted and Alice has not thrown to the next crib."""
    game = lifecycle.start_game(players=[alice, bob], rng=random.Random(4))
    return play_until(
        game, lambda s: s.phase == "discard" and s.hand_number >= 2 and 0 in cribbage.to_act(s) and min(s.scores) > 0
    )


def a_finished_game(alice, bob):
    return finish_game(start_two_player_game(players=[alice, bob]), winner=0, skunk="skunk")


def logged_in(browser, base, width):
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", "alice@example.com")
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_load_state()
    return page


def no_sideways_scrolling(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def smallest_visible_hole(page):
    """The smallest rendered diameter (px) of the holes of the board that is shown."""
    return page.evaluate(
        """() => {
          let least = Infinity;
          document.querySelectorAll('svg.cribbage-board').forEach(svg => {
            if (!svg.getClientRects().length) return;  // the other layout, hidden at this width
            svg.querySelectorAll('circle[data-hole]').forEach(c => {
              const r = c.getBoundingClientRect();
              least = Math.min(least, r.width, r.height);
            });
          });
          return least;
        }"""
    )


def page_weight(client, game):
    html = client.get(f"/games/{game.pk}/").content
    return len(html), len(gzip.compress(html))


@pytest.mark.parametrize(
    "moment, name", [(a_game_in_play, "board"), (a_show_moment, "show"), (a_finished_game, "finished")]
)
def test_the_board_the_show_and_a_finished_game_at_both_widths(moment, name, live_server, browser, artifacts, client):
    alice, bob = players()
    game = moment(alice, bob)
    client.force_login(alice)
    size, zipped = page_weight(client, game)
    (artifacts / f"{name}-weight.txt").write_text(f"{size} bytes, {zipped} gzipped\n")
    for width in WIDTHS:
        page = logged_in(browser, live_server.url, width)
        page.goto(f"{live_server.url}/games/{game.pk}/")
        if name == "show":
            # The count steps: the first combination said, its cards lit, the rest still to come.
            moment = page.locator(".show-moment")
            assert moment.locator(".show-step.now").count() == 1
            assert moment.locator(".show-card.lit").count() >= 2
            assert moment.locator(".show-step:visible").count() < moment.locator(".show-step").count()
            page.wait_for_timeout(1500)
            moment.screenshot(path=str(artifacts / f"show-stepping-{width}.png"))
            moment.get_by_role("button", name="Show it all").click()
            assert moment.locator(".show-step:visible").count() == moment.locator(".show-step").count()
        page.screenshot(path=str(artifacts / f"{name}-{width}.png"), full_page=True)
        assert no_sideways_scrolling(page), f"{name} at {width} px scrolls sideways"
        if width >= 1366:
            assert smallest_visible_hole(page) >= 10
        page.context.close()


def test_the_home_page_shows_the_game_at_both_widths(live_server, browser, artifacts):
    for width in WIDTHS:
        page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
        page.goto(f"{live_server.url}/")
        page.screenshot(path=str(artifacts / f"home-{width}.png"), full_page=True)
        assert no_sideways_scrolling(page), f"the home page at {width} px scrolls sideways"
        assert page.locator(".sample-game svg.cribbage-board >> visible=true").count() == 1
        assert page.locator(".sample-email").is_visible()
        page.context.close()


def test_the_move_link_page_shows_the_board_at_full_width(live_server, browser, artifacts):
    alice, bob = players()
    game = a_game_in_play(alice, bob)
    view = selectors.view_for(game, 0)
    move = {k: v for k, v in view.legal_moves[0].items() if k != "seat"}
    url = urlsplit(links.move_url(game.pk, 0, view.seq, move))
    for width in WIDTHS:
        page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
        page.goto(f"{live_server.url}{url.path}")
        page.screenshot(path=str(artifacts / f"move-confirm-{width}.png"), full_page=True)
        assert no_sideways_scrolling(page), f"the move page at {width} px scrolls sideways"
        page.locator("details.confirm-state summary").click()  # the board waits below the button
        (board,) = [b for b in page.locator("svg.cribbage-board").all() if b.is_visible()]
        content = page.locator("main").evaluate("m => m.clientWidth")
        assert board.bounding_box()["width"] >= min(content - 40, 34 * 16 - 1)  # not squeezed
        page.context.close()
