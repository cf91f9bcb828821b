"""A finished game's page in real Chromium while the worker prepares its review: it says so, fits a
phone and a desktop, and once the review is stored the page reloads itself and shows it (its
script asks review.json; the page's clock is Playwright's, moved on by hand)."""

import random

import pytest

from games import cribbage, reviews, services
from games.models import GameReview
from tests.browser.fit import WIDTHS, logged_in, misfits
from tests.factories import make_user, play_random_move, start_two_player_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_page_says_the_review_is_being_prepared_then_shows_it_by_itself(live_server, browser, artifacts):
    alice, bob = make_user(display_name="Alice"), make_user(display_name="Bob")
    rng = random.Random(5)
    game = start_two_player_game(players=[alice, bob], rng=rng)
    while services.engine_state(game).hand_number <= 2:
        play_random_move(game, cribbage.to_act(services.engine_state(game))[0], rng=rng)
        game.refresh_from_db()
    services.submit_move(game, 1, {"kind": "resign"})
    GameReview.objects.filter(game=game).delete()  # as before the worker has stored it (tasks are eager here)
    tab = logged_in(browser, live_server.url, alice)
    tab.clock.install()
    tab.goto(f"{live_server.url}/games/{game.pk}/#review")
    assert "The review is being prepared" in tab.inner_text("#review")
    for width in WIDTHS:
        assert misfits(tab, "review-pending", width) == []
        tab.screenshot(path=str(artifacts / f"review-pending-{width}.png"), full_page=False)
    reviews.prepare(game.pk)  # the worker stores it
    with tab.expect_navigation():
        tab.clock.run_for(4000)
    assert "Luck and skill" in tab.inner_text("#review")
    for width in WIDTHS:
        assert misfits(tab, "review-ready", width) == []
        tab.goto(f"{live_server.url}/games/{game.pk}/#review")
        tab.screenshot(path=str(artifacts / f"review-ready-{width}.png"), full_page=False)
