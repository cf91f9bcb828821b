"""Finished games that count move ratings, once each; the rest never do; a rebuild agrees."""

from datetime import timedelta

import pytest
import time_machine
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from games import follow_ups, lifecycle, services, signals, table_results
from ratings.arithmetic import NEW, OVERALL
from ratings.models import Rating, RatingChange
from ratings.services import rate_game
from tests.factories import committed, finish_game

pytestmark = pytest.mark.django_db


def _rating(user, family=OVERALL):
    return Rating.objects.filter(player=user, family=family).first()


def test_a_rated_game_played_to_the_end_moves_both_ratings(people):
    a, b = people[:2]
    with committed():
        game = lifecycle.start_game(players=[a, b], rated=True)
    with committed():
        finish_game(game, winner=0)
    for family in (OVERALL, "two"):
        assert _rating(a, family).mu > NEW.mu > _rating(b, family).mu
        assert _rating(a, family).games == 1
    change = RatingChange.objects.get(game=game, player=a, family="two")
    assert (change.mu_before, change.sigma_before) == (NEW.mu, NEW.sigma)
    assert change.mu_after == _rating(a, "two").mu
    assert not Rating.objects.filter(family__in=["three", "partnerships"]).exists()


def test_a_game_is_counted_once_however_often_it_is_announced(people):
    a, b = people[:2]
    with committed():
        game = table_results.record_table_result([a, b], [121, 100], entered_by=None)
    after_once = _rating(a).mu
    assert rate_game(game.pk) is False
    for announce in signals.game_finished.listeners().values():  # every listener hears it again
        announce(game.pk)
    assert _rating(a).mu == after_once and _rating(a).games == 1
    assert RatingChange.objects.filter(game=game).count() == 4  # two players, overall and two-player


def test_unrated_practice_and_computer_games_never_count(people):
    a, b = people[:2]
    with committed():
        casual = lifecycle.start_game(players=[a, b])
        finish_game(casual, winner=0)
        practice = lifecycle.start_game(players=[a, None], practice=True, rated=True)
        services.submit_move(practice, 0, {"kind": "resign"})
        with_computer = lifecycle.start_game(players=[a, None], rated=True)
        services.submit_move(with_computer, 0, {"kind": "resign"})
        unrated_table = table_results.record_table_result([a, b], [121, 50], entered_by=None, rated=False)
    for game in (casual, practice, with_computer, unrated_table):
        assert rate_game(game.pk) is False
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_partners_move_together_and_three_players_by_their_places(people):
    a, b, c, d, e, f = people
    with committed():
        table_results.record_table_result([a, b, c, d], [121, 100], entered_by=None, variant="four")
        table_results.record_table_result([d, e, f], [90, 121, 110], entered_by=None, variant="three")
    assert _rating(a, "partnerships").mu == _rating(c, "partnerships").mu > NEW.mu
    assert _rating(b, "partnerships").mu == _rating(d, "partnerships").mu < NEW.mu
    assert _rating(e, "three").mu > _rating(f, "three").mu > _rating(d, "three").mu
    assert _rating(d).games == 2 and _rating(d, "three").games == 1


def _everything():
    ratings = sorted(Rating.objects.values_list("player", "family", "mu", "sigma", "games"))
    changes = sorted(
        RatingChange.objects.values_list(
            "game", "player", "family", "mu_before", "sigma_before", "mu_after", "sigma_after"
        )
    )
    return ratings, changes


def test_recompute_gives_exactly_the_numbers_of_the_games_one_by_one(people):
    a, b, c, d, e, f = people
    with committed():
        played = lifecycle.start_game(players=[a, b], rated=True)
        finish_game(played, winner=1, skunk="skunk")
        table_results.record_table_result([a, c], [121, 60], entered_by=None)
        table_results.record_table_result([a, b, c, d], [99, 121], entered_by=None, variant="four")
        table_results.record_table_result([b, d, e], [121, 120, 3], entered_by=None, variant="three")
        resigned = lifecycle.start_game(players=[e, f, a], variant="three", rated=True)
        services.submit_move(resigned, 2, {"kind": "resign"})
        table_results.record_table_result([f, e], [61, 40], entered_by=None, variant="five_card")
        table_results.record_table_result([c, d, e, f], [121, 80], entered_by=None, variant="four")
    incremental = _everything()
    assert len(incremental[1]) == 2 * (2 + 2 + 4 + 3 + 3 + 2 + 4)
    Rating.objects.update(mu=0, sigma=1)  # a rebuild does not start from what is there
    call_command("recompute_ratings")
    assert _everything() == incremental


def test_a_game_whose_news_was_lost_is_rated_and_tallied_by_the_sweep(people):
    a, b = people[:2]
    game = table_results.record_table_result([a, b], [121, 100], entered_by=None)  # on_commit never runs here
    assert not RatingChange.objects.exists()
    with time_machine.travel(timezone.now() + follow_ups.REQUEUE_AFTER + timedelta(seconds=1)):
        assert follow_ups.sweep() == len(signals.game_finished.listeners())  # ratings' two among them
        assert RatingChange.objects.filter(game=game).count() == 4 and game.player_games.count() == 2
        assert follow_ups.sweep() == 0


def test_the_own_data_download_has_my_ratings_and_tallies(client, people):
    a, b = people[:2]
    with committed():
        game = table_results.record_table_result([a, b], [121, 100], entered_by=None)
    client.force_login(a)
    data = client.get(reverse("accounts:own_data")).json()
    assert {r["family"] for r in data["ratings"]} == {"overall", "two"}
    assert [c["game"] for c in data["rating_changes"]] == [game.pk, game.pk]
    assert data["profile_tallies"][0]["won"] is True
