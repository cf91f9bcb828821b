"""Timeouts: the sweep ends overdue turns by itself, per the game's policy; more time; claims."""
import random
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core import mail
from django.urls import reverse

from games import cribbage, services, timeouts
from games.clock_events import ClockError
from games.models import CLOCK_EVENT_KINDS, Event, Game, Seat
from tests.factories import at, at_once, failures
from tests.factories import make_user, play_random_move, start_two_player_game

pytestmark = pytest.mark.django_db
START = datetime(2024, 3, 4, 9, tzinfo=UTC)   # a Monday


def waiting_for_bob(policy=Game.TimeoutPolicy.FORFEIT, days=1, vacation_days=0.0, **game_fields):
    """A game where Alice has discarded and Bob (seat 1) must discard; no vacation days by default."""
    alice = make_user(password=None, display_name="Alice", allow_forced_moves=False, vacation_days=vacation_days)
    bob = make_user(password=None, display_name="Bob", allow_forced_moves=False, vacation_days=vacation_days)
    with at(START):
        game = start_two_player_game(players=[alice, bob], days_per_move=days)
        Game.objects.filter(pk=game.pk).update(timeout_policy=policy, **game_fields)
        game.refresh_from_db()
        play_random_move(game, 0, rng=random.Random(3))
    game.refresh_from_db()
    assert [s.to_act for s in game.seats.all()] == [False, True]
    return game


def bob_seat(game):
    return game.seats.select_related("player").get(number=1)


def test_nothing_happens_before_the_deadline():
    game = waiting_for_bob()
    with at(START + timedelta(hours=23)):
        assert timeouts.sweep() == {}
    game.refresh_from_db()
    assert not game.is_finished


def test_an_overdue_turn_is_forfeit_a_win_without_skunk_and_everyone_is_told():
    game = waiting_for_bob()
    with at(START + timedelta(days=1, minutes=1)):
        assert timeouts.sweep() == {"forfeit": 1}
    game.refresh_from_db()
    assert game.is_finished and game.finish == "forfeit" and game.winner_side == 0 and game.skunk == ""
    last = game.events.order_by("-seq").first()
    assert (last.kind, last.seat, last.source, last.data["reason"]) == ("forfeit", 1, Event.Source.TIMEOUT, "timeout")
    # One game-over email each, saying how it ended (and no separate timeout notice).
    over = [m for m in mail.outbox if m.subject.startswith("Game over")]
    assert sorted(m.to[0] for m in over) == sorted(s.player.email for s in game.seats.select_related("player"))
    assert all("ran out of time" in m.body for m in over)
    assert not [m for m in mail.outbox if "ended on time" in m.subject]
    with at(START + timedelta(days=2)):
        assert timeouts.sweep() == {}   # idempotent: nothing left to do


def test_a_vacation_day_is_spent_instead_of_a_timeout_and_the_player_is_told():
    game = waiting_for_bob(vacation_days=1.5)
    deadline = bob_seat(game).deadline
    with at(deadline + timedelta(minutes=5)):
        assert timeouts.sweep() == {"vacation_day": 1}
        assert timeouts.sweep() == {}
    seat = bob_seat(game)
    assert seat.deadline == deadline + timedelta(days=1)
    assert seat.player.vacation_days == pytest.approx(0.5, abs=0.01)
    event = game.events.get(kind="vacation_day")
    assert event.data["days_left"] == 0 and event.source == Event.Source.TIMEOUT
    told = [m for m in mail.outbox if "vacation day" in m.subject]
    assert [m.to for m in told] == [[seat.player.email]] and "0 whole vacation days left" in told[0].body
    with at(seat.deadline + timedelta(minutes=5)):
        assert timeouts.sweep() == {"forfeit": 1}   # half a day left is not a day


def test_a_game_that_forbids_vacation_spends_no_day():
    game = waiting_for_bob(vacation_days=5, vacation_cap_days=0)
    with at(START + timedelta(days=1, minutes=1)):
        assert timeouts.sweep() == {"forfeit": 1}


def test_opponent_chooses_then_claims():
    game = waiting_for_bob(Game.TimeoutPolicy.OPPONENT_CHOOSES)
    with at(START + timedelta(days=1, minutes=1)):
        assert timeouts.sweep() == {"claimable": 1}
        assert timeouts.sweep() == {}
    game.refresh_from_db()
    assert not game.is_finished and game.events.filter(kind="time_out").count() == 1
    offer = [m for m in mail.outbox if "is out of time" in m.subject]
    assert {m.to[0] for m in offer} == {s.player.email for s in game.seats.select_related("player")}
    alice_mail = next(m for m in offer if m.to[0] == game.seats.get(number=0).player.email)
    assert 'reply "claim"' in alice_mail.body
    with pytest.raises(ClockError):
        timeouts.claim_timeout(game, 1)   # Bob cannot claim against himself
    timeouts.claim_timeout(game, 0)
    game.refresh_from_db()
    assert game.is_finished and game.winner_side == 0 and game.finish == "forfeit"


def test_opponent_chooses_to_wait_by_giving_more_time():
    game = waiting_for_bob(Game.TimeoutPolicy.OPPONENT_CHOOSES)
    with at(START + timedelta(days=1, minutes=1)):
        timeouts.sweep()
        timeouts.grant_more_time(game, 0, 1, 2)
        seat = bob_seat(game)
        assert seat.timed_out_at is None
        assert seat.deadline == START + timedelta(days=3, minutes=1)
        with pytest.raises(ClockError):
            timeouts.claim_timeout(game, 0)   # waiting: nothing to claim now
    with at(seat.deadline + timedelta(minutes=1)):
        assert timeouts.sweep() == {"claimable": 1}


def test_nobody_decides_then_the_game_ends_after_another_period():
    game = waiting_for_bob(Game.TimeoutPolicy.OPPONENT_CHOOSES)
    with at(START + timedelta(days=1, minutes=1)):
        timeouts.sweep()
    with at(START + timedelta(days=2, minutes=2)):
        assert timeouts.sweep() == {"forfeit": 1}


def bob_to_peg(game):
    """Play Alice's moves (and Bob's discard) until Bob must play a card in the pegging."""
    rng = random.Random(7)
    with at(START):
        while True:
            game.refresh_from_db()
            view = cribbage.view(services.engine_state(game), 1)
            bob = bob_seat(game)
            if bob.to_act and view["phase"] == "play":
                return game
            play_random_move(game, 1 if bob.to_act else 0, rng=rng)


def test_the_computer_plays_a_pegging_move_for_the_absent_player_and_the_clock_restarts():
    game = bob_to_peg(waiting_for_bob(Game.TimeoutPolicy.COMPUTER_STANDS_IN, days=2))
    seq = game.seq
    now = START + timedelta(days=2, minutes=1)
    with at(now):
        assert timeouts.sweep() == {"stand_in": 1}
    move = game.events.get(seq=seq + 1)
    assert (move.kind, move.seat, move.source) == ("play", 1, Event.Source.TIMEOUT)
    for seat in game.seats.all():
        assert seat.deadline is None or seat.deadline > now
    told = [m for m in mail.outbox if "the computer moved for you" in m.subject]
    assert [m.to[0] for m in told] == [bob_seat(game).player.email]


def test_after_the_stand_in_limit_the_game_is_forfeit(monkeypatch):
    monkeypatch.setattr(timeouts, "STAND_IN_LIMIT", 0)
    game = bob_to_peg(waiting_for_bob(Game.TimeoutPolicy.COMPUTER_STANDS_IN))
    with at(START + timedelta(days=1, minutes=1)):
        assert timeouts.sweep() == {"forfeit": 1}


def test_the_computer_does_not_discard_for_anyone_a_second_period_then_forfeit():
    game = waiting_for_bob(Game.TimeoutPolicy.COMPUTER_STANDS_IN)
    with at(START + timedelta(days=1, minutes=1)):
        assert timeouts.sweep() == {"grace": 1}
        assert timeouts.claimable_seat(game, 0) is None   # not the opponent's to claim under this policy
    told = [m for m in mail.outbox if "is out of time" in m.subject]
    assert [m.to[0] for m in told] == [bob_seat(game).player.email]
    with at(START + timedelta(days=2, minutes=2)):
        assert timeouts.sweep() == {"forfeit": 1}


def test_an_overdue_computer_seat_is_asked_to_move():
    human = make_user(password=None, allow_forced_moves=False, vacation_days=0)
    with time_machine.travel(START, tick=False):   # its task is lost: nothing runs after commit
        game = start_two_player_game(players=[human, None], days_per_move=1)
        play_random_move(game, 0, rng=random.Random(1))
    assert [s.to_act for s in game.seats.all()] == [False, True]
    with at(START + timedelta(days=1, minutes=1)):
        assert timeouts.sweep() == {"computer": 1}
    assert not game.seats.get(number=1).to_act


@time_machine.travel(START + timedelta(hours=1), tick=False)
def test_more_time_rules():
    game = waiting_for_bob()
    with pytest.raises(ClockError, match="opponent"):
        timeouts.grant_more_time(game, 1, 1, 2)
    for days in (0, 15, "x"):
        with pytest.raises(ClockError):
            timeouts.grant_more_time(game, 0, 1, days)
    assert not game.events.filter(kind="more_time").exists()
    deadline = bob_seat(game).deadline
    timeouts.grant_more_time(game, 0, 1, 2)
    assert bob_seat(game).deadline == deadline + timedelta(days=2)
    # Not Alice's turn: the days wait for her next turn.
    timeouts.grant_more_time(game, 1, 0, 1)
    assert game.seats.get(number=0).extra_seconds == 86400
    event = game.events.filter(kind="more_time").order_by("seq").first()
    assert event.data == {"kind": "more_time", "seat": 1, "by": 0, "days": 2, "deadline": bob_seat(game).deadline.isoformat()}


def test_a_clock_event_does_not_make_move_links_stale():
    game = waiting_for_bob()
    seen = game.seq
    timeouts.grant_more_time(game, 0, 1, 1)
    move = cribbage.legal_moves(services.engine_state(Game.objects.get(pk=game.pk)), 1)[0]
    services.submit_move(game, 1, move, expected_seq=seen, source=Event.Source.LINK)


def test_pages_give_more_time_and_claim(client):
    game = waiting_for_bob(Game.TimeoutPolicy.OPPONENT_CHOOSES)
    alice = game.seats.get(number=0).player
    client.force_login(alice)
    with at(START + timedelta(hours=1)):
        response = client.post(reverse("clock:more_time", args=[game.pk]), {"seat": 1, "days": 3})
        assert response.status_code == 302
        assert game.events.filter(kind="more_time", actor=alice, source=Event.Source.WEB).exists()
        client.post(reverse("clock:more_time", args=[game.pk]), {"seat": 1, "days": 99})
        assert game.events.filter(kind="more_time").count() == 1
    with at(START + timedelta(days=4, minutes=5)):
        timeouts.sweep()
        client.force_login(alice)
        client.post(reverse("clock:claim", args=[game.pk]))
    game.refresh_from_db()
    assert game.is_finished and game.winner_side == 0


def test_a_stranger_cannot_give_time(client):
    game = waiting_for_bob()
    client.force_login(make_user(password=None))
    client.post(reverse("clock:more_time", args=[game.pk]), {"seat": 1, "days": 3})
    assert not game.events.filter(kind="more_time").exists()


def test_admin_lists_overdue_games_and_applies_the_timeout(client):
    game = waiting_for_bob()
    admin = make_user(password=None, is_staff=True, is_superuser=True)
    client.force_login(admin)
    url = reverse("admin:games_overdueseat_changelist")
    with at(START + timedelta(days=1, hours=5)):
        page = client.get(url)
        assert page.status_code == 200 and "Bob" in page.content.decode()
        client.post(url, {"action": "apply_timeout_now", "_selected_action": [bob_seat(game).pk]})
    game.refresh_from_db()
    assert game.is_finished


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_sweeps_at_once_act_once():
    games = [waiting_for_bob() for _ in range(6)]

    def run():
        with at(START + timedelta(days=1, minutes=1)):
            return timeouts.sweep(batch=2)

    results = at_once(run, run)
    assert not failures(results)
    assert sum(r.get("forfeit", 0) for r in results) == len(games)
    for game in games:
        assert game.events.filter(kind="forfeit").count() == 1
    assert Seat.objects.filter(to_act=True).count() == 0
    assert CLOCK_EVENT_KINDS.isdisjoint(set(Event.objects.values_list("kind", flat=True)))
