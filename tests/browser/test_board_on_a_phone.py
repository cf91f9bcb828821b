"""On a phone the board is folded into rows of fifteen: all of it in view, nothing scrolls sideways."""

import random

import pytest

from games import cribbage, lifecycle, services
from tests.factories import make_user, play_random_move

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def a_game_with_both_pegs_far_out():
    """A game to 121 whose front pegs are both well along the first row (holes 32 to 58)."""
    alice = make_user("alice@example.com", "Alice", password="a-Long-secret-42", allow_forced_moves=False)
    bob = make_user("bob@example.com", "Bob", allow_forced_moves=False)
    for seed in range(50):
        rng = random.Random(seed)
        game = lifecycle.start_game(players=[alice, bob], rng=rng)
        while not game.is_finished:
            scores = services.engine_state(game).scores
            if min(scores) >= 32 and max(scores) <= 58:
                return game
            if max(scores) > 58:
                break
            game = play_random_move(game, cribbage.to_act(services.engine_state(game))[0], rng=rng).game
    raise AssertionError("no seed gave a game with both pegs far out")


def test_on_a_phone_the_folded_board_shows_every_peg_without_scrolling(live_server, browser, artifacts):
    game = a_game_with_both_pegs_far_out()
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "alice@example.com")
    page.fill("input[name=password]", "a-Long-secret-42")
    page.click("main button[type=submit]")
    page.goto(f"{live_server.url}/games/{game.pk}/")

    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    (board,) = [b for b in page.locator("svg.cribbage-board").all() if b.is_visible()]
    assert board.get_attribute("data-shape") == "folded"
    seen = board.bounding_box()
    assert seen["x"] >= 0 and seen["x"] + seen["width"] <= 390
    for peg in board.locator("[data-peg]").all():
        box = peg.bounding_box()
        assert seen["x"] <= box["x"] and box["x"] + box["width"] <= seen["x"] + seen["width"], peg.get_attribute(
            "data-hole"
        )
    # The names stay beside their rows: every row of the folded board starts with its side's name.
    assert board.locator("g.name[data-track='0'] text").all_text_contents() == ["Alice"] * 8
    page.screenshot(path=str(artifacts / "board-phone.png"))
