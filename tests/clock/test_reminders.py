"""Reminders: one per stage (80% of the time used, and 24 hours before a deadline of 3+ days),
never while the player is looking; and the quiet-inbox rule for turn emails."""

import random
from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail

from clock import notices, reminders, timeouts
from games import visits
from games.models import Seat
from mail import quiet
from tests.factories import at, at_once, committed, failures, make_user, play_random_move, start_two_player_game

pytestmark = pytest.mark.django_db
START = datetime(2024, 3, 4, 9, tzinfo=UTC)


def game_waiting_for_bob(days=3, **bob_fields):
    alice = make_user(password=None, display_name="Alice", allow_forced_moves=False)
    bob = make_user(password=None, display_name="Bob", allow_forced_moves=False, **bob_fields)
    with at(START):
        game = start_two_player_game(players=[alice, bob], days_per_move=days)
        play_random_move(game, 0, rng=random.Random(3))
    mail.outbox.clear()
    return game, bob


def reminders_to(user):
    return [m for m in mail.outbox if m.tags == ["reminder"] and m.to == [user.email]]


def test_exactly_one_reminder_per_stage():
    game, bob = game_waiting_for_bob(days=3)
    sent = []
    for hours in (24, 47, 48.1, 48.2, 50, 57.7, 57.8, 60, 71):
        with at(START + timedelta(hours=hours)):
            sent.append(reminders.send_due_reminders())
    # 24 hours before the deadline (48 h in), then 80% (57.6 h in); never twice.
    assert sent == [0, 0, 1, 0, 0, 1, 0, 0, 0]
    got = reminders_to(bob)
    assert len(got) == 2
    body = got[0].body
    assert "Time runs out in 23 hours: Thu 7 Mar, 09:00" in body
    assert "it is your turn to lay away 2 cards to Alice's crib" in body
    assert got[0].reply_to and got[0].reply_to[0].startswith("reply+")


def test_a_short_clock_gets_one_reminder_at_80_percent():
    game, bob = game_waiting_for_bob(days=1)
    with at(START + timedelta(hours=19)):
        assert reminders.send_due_reminders() == 0
    with at(START + timedelta(hours=19, minutes=20)):
        assert reminders.send_due_reminders() == 1
    with at(START + timedelta(hours=23)):
        assert reminders.send_due_reminders() == 0
    assert len(reminders_to(bob)) == 1


def test_no_reminder_while_the_player_is_looking():
    game, bob = game_waiting_for_bob(days=1)
    seat = game.seats.get(number=1)
    moment = START + timedelta(hours=19, minutes=20)
    with at(moment - timedelta(minutes=5)):
        visits.note_seen(seat)
    with at(moment):
        assert reminders.send_due_reminders() == 0
    with at(moment + visits.LOOKING_WINDOW):
        assert reminders.send_due_reminders() == 1


def test_no_reminder_for_a_player_who_wants_no_email_and_none_after_the_turn():
    game, bob = game_waiting_for_bob(days=1, notify="none")
    with at(START + timedelta(hours=20)):
        reminders.send_due_reminders()
    assert reminders_to(bob) == []
    assert game.seats.get(number=1).reminder_stage == 1  # the stage is spent all the same


def test_more_time_brings_new_reminders():
    game, bob = game_waiting_for_bob(days=1)
    with at(START + timedelta(hours=20)):
        assert reminders.send_due_reminders() == 1
        timeouts.grant_more_time(game, 0, 1, 2)
    seat = game.seats.get(number=1)
    assert seat.reminder_stage == 0 and seat.remind_at > START + timedelta(hours=20)
    with at(seat.remind_at + timedelta(minutes=1)):
        assert reminders.send_due_reminders() == 1


def test_quiet_inbox_holds_turn_emails_until_the_player_comes_back():
    from mail.models import OutboundEmail

    game, bob = game_waiting_for_bob(days=3)
    seat = game.seats.get(number=1)
    sent = OutboundEmail.objects.filter(game=game, seat=1, status=OutboundEmail.Status.SENT)
    sent_at = START + timedelta(hours=1)
    assert sent.update(sent_at=sent_at) == 1  # the turn email of Bob's discard
    with at(sent_at + timedelta(hours=1)):
        assert quiet.turn_email_hold(seat) == sent_at + quiet.TURN_EMAIL_HOLD
        assert quiet.turn_email_hold(seat) is not None
    with at(sent_at + timedelta(hours=2)):
        visits.note_seen(seat)  # he came back: the next may go
        assert quiet.turn_email_hold(seat) is None
    seat.last_seen_at = None
    with at(sent_at + quiet.TURN_EMAIL_HOLD):
        assert quiet.turn_email_hold(seat) is None  # the window is over: one email tells all since


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_reminder_sweeps_at_once_send_once():
    games = [game_waiting_for_bob(days=1) for _ in range(4)]
    mail.outbox.clear()

    def run():
        with at(START + timedelta(hours=20)):
            reminders.send_due_reminders(batch=3)
            reminders.send_due_reminders(batch=3)

    assert not failures(at_once(run, run))
    for _game, bob in games:
        assert len(reminders_to(bob)) == 1
    assert set(Seat.objects.filter(to_act=True).values_list("reminder_stage", flat=True)) == {1}


def test_clock_notices_cost_the_same_few_queries_however_many_games_and_players(django_assert_max_num_queries):
    away = make_user(allow_forced_moves=False)
    games = [start_two_player_game(players=[away, make_user(allow_forced_moves=False)]) for _ in range(4)]
    mail.outbox.clear()
    with committed(), django_assert_max_num_queries(3):  # the games' seats and players, the outbox rows
        assert notices.owe_vacation_notices(away.pk, "start") == 4
    four = start_two_player_game("four", players=[away] + [make_user(allow_forced_moves=False) for _ in range(3)])
    with committed(), django_assert_max_num_queries(2):  # the game's seats and players, the outbox rows
        assert notices.owe_claim_offer(four.pk, 0) == 4
    assert len(mail.outbox) == 8 and games
