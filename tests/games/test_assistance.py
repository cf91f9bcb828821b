"""The assistance setting: decided once when a game starts, and the one predicate every
channel asks (Game.help_allowed_for / advice_allowed_for)."""

import importlib
import random

import pytest
from django.apps import apps
from django.urls import reverse

from games import cribbage, lifecycle, services
from games.coaching import advice_before, coach_notes, full_review
from games.models import Game
from tests.factories import make_user, play_random_move, reviewed, start_two_player_game

pytestmark = pytest.mark.django_db


def test_the_help_a_game_starts_with():
    a, b = make_user(), make_user()
    assert lifecycle.start_game(players=[a, b]).assistance == Game.Assistance.OFF
    assert lifecycle.start_game(players=[a, b], help_on=True).assistance == Game.Assistance.COACH
    assert lifecycle.start_game(players=[a, None], practice=True).assistance == Game.Assistance.ADVICE
    assert lifecycle.start_game(players=[a, None]).assistance == Game.Assistance.COACH
    # A rated game never has help, whatever was asked.
    for asked in (None, False, True):
        assert lifecycle.start_game(players=[a, b], help_on=asked, rated=True).assistance == Game.Assistance.OFF_BY_RULE


@pytest.mark.parametrize(
    "assistance, during, advice",
    [("advice", True, True), ("coach", True, False), ("off", False, False), ("off_by_rule", False, False)],
)
def test_one_predicate_for_every_seat_until_the_end_and_the_review_after(assistance, during, advice):
    game = start_two_player_game(rng=random.Random(3))
    Game.objects.filter(pk=game.pk).update(assistance=assistance)
    game.refresh_from_db()
    assert [game.help_allowed_for(s) for s in (0, 1)] == [during, during]
    assert game.help_allowed_for(None) is False
    assert bool(advice_before(game, 0)) == advice
    for seat in (0, 1):
        services.submit_move(game, seat, cribbage.legal_moves(services.engine_state(game), seat)[0])
    game.refresh_from_db()
    assert (coach_notes(game, 0)["discard"] is not None) == during
    assert full_review(game, 0) is None
    services.submit_move(game, 1, {"kind": "resign"})
    reviewed(game).refresh_from_db()
    assert game.help_allowed_for(0) and game.help_allowed_for(1) and not game.advice_allowed_for(0)
    assert coach_notes(game, 0)["review"]["discards"] == 1
    review = full_review(game, 1)
    assert review["hands"][0]["discard"]["best_ev"] >= review["hands"][0]["discard"]["ev"]
    # A resignation ends the game before the target: the points say who was ahead then, not who won.
    assert review["luck"]["summary"].startswith("When the game ended you were ")
    assert full_review(game, 0)["luck"]["summary"].startswith("When the game ended you were ")


def test_old_games_keep_the_help_they_had():
    migration = importlib.import_module("games.migrations.0011_assistance")
    practice = lifecycle.start_game(players=[make_user(), None], practice=True)
    people = start_two_player_game()
    Game.objects.update(assistance=Game.Assistance.OFF)
    migration.help_they_had(apps, None)
    assert Game.objects.get(pk=practice.pk).assistance == Game.Assistance.ADVICE
    assert Game.objects.get(pk=people.pk).assistance == Game.Assistance.COACH


def test_the_page_says_whether_help_is_on_and_why_not(client):
    me = make_user()
    client.force_login(me)
    practice = lifecycle.start_game(players=[me, None], practice=True, rng=random.Random(2))
    page = client.get(reverse("games:game", args=[practice.pk])).content.decode()
    assert "Help is on: a practice game" in page and "Advice (practice game)" in page
    helped = start_two_player_game(players=[me, make_user()], help_on=True)
    assert "Help is on for every player" in client.get(reverse("games:game", args=[helped.pk])).content.decode()
    off = start_two_player_game(players=[me, make_user()])
    page = client.get(reverse("games:game", args=[off.pk])).content.decode()
    assert "the players chose to play without it" in page and "Advice" not in page
    rated = lifecycle.start_game(players=[me, make_user()], help_on=True, rated=True)
    assert (
        "rated games (a ladder&#x27;s) never have it"
        in client.get(reverse("games:game", args=[rated.pk])).content.decode()
    )


def test_a_spectator_of_a_finished_game_gets_no_review(client):
    rng = random.Random(9)
    game = start_two_player_game(rng=rng, target=61)
    while not game.is_finished:
        play_random_move(game, cribbage.to_act(services.engine_state(game))[0], rng=rng)
        game.refresh_from_db()
    reviewed(game)
    client.force_login(make_user())
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert 'id="review"' not in page and full_review(game, None) is None
    client.force_login(game.seats.get(number=1).player)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert 'id="review"' in page and "Luck and skill" in page
