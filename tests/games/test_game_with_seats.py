"""The pages' game and seats written out (selectors.game_with_seats): the same instances the ORM
makes with `with_seats`, in two statements (one trip on PostgreSQL), its prefetch as the ORM leaves it."""

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import selectors
from games.computer_games import start_practice
from games.models import Game, Seat
from tests.factories import make_user, start_two_player_game

pytestmark = pytest.mark.django_db


def fields_of(obj):
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


@pytest.mark.parametrize("start", ["two", "practice"])
def test_the_same_game_seats_and_players_as_the_orms(start):
    if start == "two":
        game = start_two_player_game(rng=random.Random(5))
    else:
        game = start_practice(make_user(display_name="Pat"))
    orm = selectors.with_seats(Game.objects.all()).get(pk=game.pk)
    with CaptureQueriesContext(connection) as queries:
        found = selectors.game_with_seats(game.pk)
        seats = list(found.seats.all())
        players = [seat.player for seat in seats]
        games = [seat.game for seat in seats]
    assert len(queries) == (1 if connection.vendor == "postgresql" else 2)  # the trips to the database
    assert fields_of(found) == fields_of(orm)
    assert [fields_of(s) for s in seats] == [fields_of(s) for s in orm.seats.all()]
    assert [s.number for s in seats] == sorted(s.number for s in seats)
    assert [p and fields_of(p) for p in players] == [s.player and fields_of(s.player) for s in orm.seats.all()]
    assert all(g is found for g in games)
    assert selectors.seats_with_players(found) == seats
    if start == "practice":
        assert None in players  # the computer's seat has no player


def test_its_seats_are_this_games_alone_when_asked_anew():
    game = start_two_player_game(rng=random.Random(5))
    start_two_player_game(rng=random.Random(6))  # another game's seats in the table
    found = selectors.game_with_seats(game.pk)
    assert found.seats.count() == 2
    assert set(found.seats.filter(number__gte=0)) == set(Seat.objects.filter(game=game))


def test_a_game_that_is_not_there():
    with pytest.raises(Game.DoesNotExist):
        selectors.game_with_seats(10**9)
