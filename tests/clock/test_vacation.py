"""Vacation: the allowance grows; starting pauses every clock and tells the opponents; it ends by
itself or by hand; turns that start while away begin paused; a game may cap or forbid it."""

import random
import re
from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import User, Vacation
from clock import timeouts, vacation
from games.models import Game
from games.presentation import clock_text
from tests.factories import at, make_user, play_random_move, start_two_player_game

pytestmark = pytest.mark.django_db
START = datetime(2024, 3, 4, 9, tzinfo=UTC)


def game_waiting_for_bob(days=2, **game_fields):
    alice = make_user(password=None, display_name="Alice", allow_forced_moves=False, vacation_days_at=START)
    bob = make_user(password=None, display_name="Bob", allow_forced_moves=False, vacation_days_at=START)
    with at(START):
        game = start_two_player_game(players=[alice, bob], days_per_move=days)
        Game.objects.filter(pk=game.pk).update(**game_fields)
        game.refresh_from_db()
        play_random_move(game, 0, rng=random.Random(3))
    return game, alice, bob


def bob_seat(game):
    return game.seats.select_related("player").get(number=1)


def test_the_allowance_grows_a_day_every_12_days_up_to_the_cap():
    user = make_user(password=None, vacation_days=7, vacation_days_at=START)
    assert vacation.days_left(user, START) == 7
    assert vacation.days_left(user, START + timedelta(days=24)) == pytest.approx(9)
    assert vacation.days_left(user, START + timedelta(days=3650)) == vacation.CAP_DAYS


def test_starting_a_vacation_pauses_the_clock_and_tells_the_opponent():
    game, alice, bob = game_waiting_for_bob()
    deadline = bob_seat(game).deadline  # START + 2 days
    with at(START + timedelta(hours=12)):
        vacation.start_vacation(bob, 3)
    seat = bob_seat(game)
    assert seat.paused_until == START + timedelta(days=3, hours=12)
    assert seat.deadline == deadline + timedelta(days=3)
    assert seat.player.vacation_days == pytest.approx(7 + 0.5 / 12 - 3)  # half a day earned meanwhile
    assert game.events.filter(kind="vacation_start", seat=1).count() == 1
    notices = [m for m in mail.outbox if m.tags == ["vacation_notice"] and "gone on vacation" in m.body]
    assert [m.to for m in notices] == [[alice.email]]
    with at(deadline + timedelta(hours=1)):  # the old deadline has passed: no timeout
        assert timeouts.sweep() == {}
    with pytest.raises(vacation.VacationError, match="already on vacation"):
        with at(START + timedelta(days=1)):
            vacation.start_vacation(bob, 1)


def test_coming_back_early_restarts_the_clock_with_the_time_that_was_left_and_refunds_days():
    game, alice, bob = game_waiting_for_bob()
    with at(START + timedelta(hours=12)):
        vacation.start_vacation(bob, 5)
    with at(START + timedelta(days=2, hours=12)):
        vacation.end_vacation(bob)
    seat = bob_seat(game)
    # 36 hours were left when he went away; he came back 2 days later.
    assert seat.paused_until is None
    assert seat.deadline == START + timedelta(days=2, hours=12) + timedelta(hours=36)
    bob.refresh_from_db()
    assert bob.away_until is None
    assert bob.vacation_days == pytest.approx(7 + 2.5 / 12 - 2)
    assert Vacation.objects.get(user=bob).days == pytest.approx(2)
    assert any(m.tags == ["vacation_notice"] and "is back" in m.body for m in mail.outbox)


def test_a_vacation_ends_by_itself():
    game, alice, bob = game_waiting_for_bob()
    with at(START):
        vacation.start_vacation(bob, 2)
    with at(START + timedelta(days=2, minutes=1)):
        assert vacation.end_due_vacations() == 1
        assert vacation.end_due_vacations() == 0
    bob.refresh_from_db()
    assert bob.away_until is None and bob.vacation_days == pytest.approx(7 + 2 / 12 - 2, abs=0.001)
    assert bob_seat(game).deadline == START + timedelta(days=4)


def test_a_turn_that_starts_during_the_vacation_begins_paused():
    game, alice, bob = game_waiting_for_bob()
    with at(START):
        vacation.start_vacation(alice, 3)
    seat = game.seats.get(number=0)
    assert not seat.to_act
    # Bob discards: the pegging starts, and someone's turn starts while Alice is away.
    with at(START + timedelta(hours=1)):
        play_random_move(game, 1, rng=random.Random(2))
    for seat in game.seats.select_related("player").filter(to_act=True):
        if seat.number == 0:
            assert seat.paused_until == START + timedelta(days=3)
            assert seat.deadline == START + timedelta(days=5)
        else:
            assert seat.paused_until is None


def test_a_game_can_cap_the_vacation():
    game, alice, bob = game_waiting_for_bob(vacation_cap_days=1)
    deadline = bob_seat(game).deadline
    with at(START):
        vacation.start_vacation(bob, 5)
    seat = bob_seat(game)
    assert seat.paused_until == START + timedelta(days=1)
    assert seat.deadline == deadline + timedelta(days=1)


def test_a_game_can_forbid_vacation():
    game, alice, bob = game_waiting_for_bob(vacation_cap_days=0)
    deadline = bob_seat(game).deadline
    with at(START):
        vacation.start_vacation(bob, 5)
    assert bob_seat(game).deadline == deadline
    assert not game.events.filter(kind="vacation_start").exists()
    assert "no vacation in this game" in clock_text(game)


def test_bad_requests_change_nothing():
    game, alice, bob = game_waiting_for_bob()
    for days, message in (
        (0, "A vacation lasts 1 to 30 days."),
        (8, "You have 7 whole vacation days left, not 8."),
        ("x", "Say how many days in the digits 0 to 9, e.g. 7."),
        (None, "Say how many days in the digits 0 to 9, e.g. 7."),
        (31, "A vacation lasts 1 to 30 days."),
    ):
        with pytest.raises(vacation.VacationError, match=f"^{re.escape(message)}$"):
            with at(START):
                vacation.start_vacation(bob, days)
    bob.refresh_from_db()
    assert bob.away_until is None and bob.vacation_days == 7 and not Vacation.objects.exists()


def test_profile_panel_and_buttons(client):
    game, alice, bob = game_waiting_for_bob()
    client.force_login(bob)
    with at(START + timedelta(hours=1)):
        page = client.get(reverse("accounts:profile")).content.decode()
        assert "7</strong> whole vacation days" in page
        response = client.post(reverse("clock:vacation_start"), {"days": "2"})
        assert response.status_code == 302
        assert bob_seat(game).paused_until is not None
        page = client.get(reverse("accounts:profile"))
        assert "end my vacation now" in page.content.decode()
        assert [str(m) for m in page.context["messages"]] == [
            "Have a good break: your clocks are stopped and your opponents are told."
        ]
        response = client.post(reverse("clock:vacation_end"), follow=True)
        assert [str(m) for m in response.context["messages"]] == ["Welcome back: your clocks run again."]
    assert bob_seat(game).paused_until is None
    response = client.post(reverse("clock:vacation_start"), {"days": "99"})
    assert response.status_code == 400 and "accounts/profile.html" in [t.name for t in response.templates]
    assert [str(m) for m in response.context["messages"]] == ["A vacation lasts 1 to 30 days."]
    assert "A vacation lasts 1 to 30 days." in response.content.decode()
    assert bob_seat(game).paused_until is None and not Vacation.objects.filter(ended_at__isnull=True).exists()


def test_a_second_vacation_while_away_is_refused_on_the_profile_page_and_changes_nothing(client):
    game, alice, bob = game_waiting_for_bob()
    client.force_login(bob)
    with at(START + timedelta(hours=1)):
        client.post(reverse("clock:vacation_start"), {"days": "2"})
        before = (User.objects.values("vacation_seconds", "away_until").get(pk=bob.pk), game.events.count())
        response = client.post(reverse("clock:vacation_start"), {"days": "2"})
    assert response.status_code == 409 and "accounts/profile.html" in [t.name for t in response.templates]
    said = [str(m) for m in response.context["messages"]][-1]  # after the first one's, not shown yet
    assert said.startswith("You are already on vacation until ") and said in response.content.decode()
    assert (User.objects.values("vacation_seconds", "away_until").get(pk=bob.pk), game.events.count()) == before


def test_ending_a_vacation_when_not_on_one_says_so_and_changes_nothing(client):
    game, alice, bob = game_waiting_for_bob()
    client.force_login(bob)

    def everything():
        return (
            User.objects.values("vacation_seconds", "vacation_days_at", "away_until").get(pk=bob.pk),
            list(game.seats.order_by("number").values("deadline", "paused_until", "vacation_seconds")),
            game.events.count(),
            Vacation.objects.count(),
            len(mail.outbox),
        )

    with at(START + timedelta(hours=1)):
        before = everything()
        response = client.post(reverse("clock:vacation_end"))
        assert response.status_code == 302 and response["Location"] == reverse("accounts:profile") + "#vacation"
        assert everything() == before
        page = client.get(response["Location"])
        assert [str(m) for m in page.context["messages"]] == ["You were not on vacation."]


def test_a_vacation_in_a_game_that_allows_none_says_the_clock_runs_on_there(client):
    game, alice, bob = game_waiting_for_bob(vacation_cap_days=0)
    deadline = bob_seat(game).deadline
    client.force_login(bob)
    with at(START + timedelta(hours=1)):
        response = client.post(reverse("clock:vacation_start"), {"days": "2"}, follow=True)
    assert [str(m) for m in response.context["messages"]] == [
        "Have a good break: your clocks are stopped and your opponents are told.",
        f"Your clock runs on in game {game.pk}: that game allows no vacation (or no more of it).",
    ]
    assert bob_seat(game).deadline == deadline and not game.events.filter(kind="vacation_start").exists()
