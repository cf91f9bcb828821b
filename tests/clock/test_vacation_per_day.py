"""Vacation per calendar day: one automatic vacation day covers every game of the player that runs out
that day (their local date), and is charged once; the profile shows what each day covered."""

import random
from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse

from accounts.models import VacationDay
from clock import timeouts, vacation
from tests.factories import at, make_user, play_random_move, start_two_player_game

pytestmark = pytest.mark.django_db
MONDAY = datetime(2024, 3, 4, tzinfo=UTC)


def games_waiting_for(bob, alice, hours):
    """A one-day game for each start hour on Monday, Alice having discarded: Bob's turn."""
    games = []
    for hour in hours:
        with at(MONDAY + timedelta(hours=hour)):
            game = start_two_player_game(players=[alice, bob], days_per_move=1)
            play_random_move(game, 0, rng=random.Random(3))
        games.append(game)
    return games


def deadline_of(game):
    return game.seats.get(number=1).deadline


def test_one_day_covers_every_game_that_runs_out_that_day_and_is_charged_once(client):
    alice = make_user(password=None, display_name="Alice", allow_forced_moves=False, vacation_days=0)
    bob = make_user(
        password=None, display_name="Bob", allow_forced_moves=False, vacation_days=2, vacation_days_at=MONDAY
    )
    a, b, c = games_waiting_for(bob, alice, (9, 15, 23.5))
    assert [deadline_of(g) for g in (a, b, c)] == [MONDAY + timedelta(days=1, hours=h) for h in (9, 15, 23.5)]

    # Tuesday 23:45: all three ran out on Tuesday: one day charged, three games covered.
    with at(MONDAY + timedelta(days=1, hours=23, minutes=45)):
        assert timeouts.sweep() == {"vacation_day": 3}
        assert timeouts.sweep() == {}
    assert [deadline_of(g) for g in (a, b, c)] == [MONDAY + timedelta(days=2, hours=h) for h in (9, 15, 23.5)]
    assert list(VacationDay.objects.filter(user=bob).values_list("day", flat=True)) == [datetime(2024, 3, 5).date()]
    bob.refresh_from_db()
    # 2 days, less the one charged, plus 47.75 hours / 12 earned since Monday 00:00.
    assert bob.vacation_seconds == 86400 + (47 * 3600 + 45 * 60) // 12
    assert [e.data["days"] for g in (a, b, c) for e in g.events.filter(kind="vacation_day")] == [1, 0, 0]

    # Wednesday 09:05: game A runs out again, a new day (the second and last whole one).
    with at(MONDAY + timedelta(days=2, hours=9, minutes=5)):
        assert timeouts.sweep() == {"vacation_day": 1}
        bob.refresh_from_db()
        assert vacation.whole_days_left(bob) == 0
    assert deadline_of(a) == MONDAY + timedelta(days=3, hours=9)
    # Wednesday 15:05: game B is covered by Wednesday's day, though no whole day is left.
    with at(MONDAY + timedelta(days=2, hours=15, minutes=5)):
        assert timeouts.sweep() == {"vacation_day": 1}
    assert deadline_of(b) == MONDAY + timedelta(days=3, hours=15)
    assert VacationDay.objects.filter(user=bob).count() == 2
    # Thursday 09:05: game C ran out at 23:30 on Wednesday, a day already charged: covered.
    # Game A ran out on Thursday: no day left, none charged for Thursday: lost on time.
    with at(MONDAY + timedelta(days=3, hours=9, minutes=5)):
        assert timeouts.sweep() == {"vacation_day": 1, "forfeit": 1}
    assert deadline_of(c) == MONDAY + timedelta(days=3, hours=23.5)
    assert VacationDay.objects.filter(user=bob).count() == 2
    a.refresh_from_db()
    assert a.is_finished and a.winner_side == 0

    client.force_login(bob)
    with at(MONDAY + timedelta(days=3, hours=10)):
        page = client.get(reverse("accounts:profile")).content.decode()
    assert "Vacation days used for you" in page
    tuesday = page.index("Tue 5 Mar 2024")
    wednesday = page.index("Wed 6 Mar 2024")
    assert wednesday < tuesday  # latest first
    assert all(f"game {g.pk}</a>" in page[tuesday:] for g in (a, b, c))
    assert [f"game {g.pk}</a>" in page[wednesday:tuesday] for g in (a, b, c)] == [True, True, True]
    assert page[wednesday:tuesday].count("game ") == 3


def test_the_players_own_calendar_day_counts():
    # Bob lives in Tokyo (UTC+9): 14:00 and 16:00 UTC on Tuesday are Tuesday 23:00 and Wednesday 01:00 there.
    alice = make_user(password=None, allow_forced_moves=False, vacation_days=0)
    bob = make_user(password=None, allow_forced_moves=False, vacation_days=5, time_zone="Asia/Tokyo")
    early, late = games_waiting_for(bob, alice, (14, 16))
    with at(MONDAY + timedelta(days=1, hours=16, minutes=30)):
        assert timeouts.sweep() == {"vacation_day": 2}
    days = sorted(VacationDay.objects.filter(user=bob).values_list("day", flat=True))
    assert days == [datetime(2024, 3, 5).date(), datetime(2024, 3, 6).date()]
