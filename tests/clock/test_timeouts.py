"""Timeouts: the sweep ends overdue turns by itself, per the game's policy; more time; claims."""

import random
import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core import mail
from django.urls import reverse
from django.utils.html import escape

from clock import timeouts
from clock.events import ClockError
from games import cribbage, services
from games.models import CLOCK_EVENT_KINDS, Event, Game, Seat
from tests.factories import at, at_once, failures, make_user, play_random_move, start_two_player_game

pytestmark = pytest.mark.django_db
START = datetime(2024, 3, 4, 9, tzinfo=UTC)  # a Monday


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
    over = [m for m in mail.outbox if m.tags == ["result"]]
    assert sorted(m.to[0] for m in over) == sorted(s.player.email for s in game.seats.select_related("player"))
    assert all("ran out of time" in m.body for m in over)
    assert not [m for m in mail.outbox if "ended on time" in m.subject]
    with at(START + timedelta(days=2)):
        assert timeouts.sweep() == {}  # idempotent: nothing left to do


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
    told = [m for m in mail.outbox if m.tags == ["vacation_day"]]
    assert [m.to for m in told] == [[seat.player.email]] and "0 whole vacation days left" in told[0].body
    with at(seat.deadline + timedelta(minutes=5)):
        assert timeouts.sweep() == {"forfeit": 1}  # half a day left is not a day


def test_a_game_that_forbids_vacation_spends_no_day():
    waiting_for_bob(vacation_days=5, vacation_cap_days=0)
    with at(START + timedelta(days=1, minutes=1)):
        assert timeouts.sweep() == {"forfeit": 1}


def test_opponent_chooses_then_claims():
    game = waiting_for_bob(Game.TimeoutPolicy.OPPONENT_CHOOSES)
    with at(START + timedelta(days=1, minutes=1)):
        assert timeouts.sweep() == {"claimable": 1}
        assert timeouts.sweep() == {}
    game.refresh_from_db()
    assert not game.is_finished and game.events.filter(kind="time_out").count() == 1
    offer = [m for m in mail.outbox if m.tags == ["claim_offer"]]
    assert {m.to[0] for m in offer} == {s.player.email for s in game.seats.select_related("player")}
    alice_mail = next(m for m in offer if m.to[0] == game.seats.get(number=0).player.email)
    assert 'reply "claim"' in alice_mail.body
    with pytest.raises(ClockError, match=r"^Nobody here is out of time: there is nothing to claim\.$"):
        timeouts.claim_timeout(game, 1)  # Bob cannot claim against himself
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
        with pytest.raises(ClockError, match=r"^Nobody here is out of time: there is nothing to claim\.$"):
            timeouts.claim_timeout(game, 0)  # waiting: nothing to claim now
    with at(seat.deadline + timedelta(minutes=1)):
        assert timeouts.sweep() == {"claimable": 1}


def test_nobody_decides_then_the_game_ends_after_another_period():
    waiting_for_bob(Game.TimeoutPolicy.OPPONENT_CHOOSES)
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
    # Alice's turn now, with a full two days from the stand-in move; Bob waits, no clock running.
    clocks = [(s.number, s.to_act, s.deadline, s.timed_out_at, s.stand_in_moves) for s in game.seats.order_by("number")]
    assert clocks == [(0, True, now + timedelta(days=2), None, 0), (1, False, None, None, 1)]
    told = [m for m in mail.outbox if m.tags == ["stand_in"]]
    assert [m.to[0] for m in told] == [bob_seat(game).player.email]


def test_a_move_of_the_players_own_starts_the_stand_in_count_again():
    game = bob_to_peg(waiting_for_bob(Game.TimeoutPolicy.COMPUTER_STANDS_IN, days=2))
    with at(START + timedelta(days=2, minutes=1)):
        timeouts.sweep()
    assert bob_seat(game).stand_in_moves == 1
    rng = random.Random(3)
    game.refresh_from_db()
    with at(START + timedelta(days=2, minutes=2)):
        while not bob_seat(game).to_act:
            game = play_random_move(game, 0, rng=rng).game
        game = play_random_move(game, 1, rng=rng, source=Event.Source.FORCED).game
        assert bob_seat(game).stand_in_moves == 1  # a forced play is not Bob coming back
        while not bob_seat(game).to_act:
            game = play_random_move(game, 0, rng=rng).game
        play_random_move(game, 1, rng=rng, source=Event.Source.EMAIL)
    assert bob_seat(game).stand_in_moves == 0


def test_after_the_stand_in_limit_the_game_is_forfeit(monkeypatch):
    monkeypatch.setattr(timeouts, "STAND_IN_LIMIT", 0)
    bob_to_peg(waiting_for_bob(Game.TimeoutPolicy.COMPUTER_STANDS_IN))
    with at(START + timedelta(days=1, minutes=1)):
        assert timeouts.sweep() == {"forfeit": 1}


def test_the_computer_does_not_discard_for_anyone_a_second_period_then_forfeit():
    game = waiting_for_bob(Game.TimeoutPolicy.COMPUTER_STANDS_IN)
    with at(START + timedelta(days=1, minutes=1)):
        assert timeouts.sweep() == {"grace": 1}
        assert timeouts.claimable_seat(game, 0) is None  # not the opponent's to claim under this policy
    told = [m for m in mail.outbox if m.tags == ["claim_offer"]]
    assert [m.to[0] for m in told] == [bob_seat(game).player.email]
    with at(START + timedelta(days=2, minutes=2)):
        assert timeouts.sweep() == {"forfeit": 1}


def test_an_overdue_computer_seat_is_asked_to_move():
    human = make_user(password=None, allow_forced_moves=False, vacation_days=0)
    with time_machine.travel(START, tick=False):  # its task is lost: nothing runs after commit
        game = start_two_player_game(players=[human, None], days_per_move=1)
        play_random_move(game, 0, rng=random.Random(1))
    assert [s.to_act for s in game.seats.all()] == [False, True]
    with at(START + timedelta(days=1, minutes=1)):
        assert timeouts.sweep() == {"computer": 1}
    assert not game.seats.get(number=1).to_act


@time_machine.travel(START + timedelta(hours=1), tick=False)
def test_more_time_rules():
    game = waiting_for_bob()
    with pytest.raises(ClockError, match=r"^You can only give more time to an opponent\.$"):
        timeouts.grant_more_time(game, 1, 1, 2)
    out_of_range, not_a_number = (
        "You can give 1 to 14 days at a time.",
        'Say how many days in the digits 0 to 9, e.g. "more time 2".',
    )
    for days, message in ((0, out_of_range), (15, out_of_range), ("x", not_a_number), (None, not_a_number)):
        with pytest.raises(ClockError, match=f"^{re.escape(message)}$"):
            timeouts.grant_more_time(game, 0, 1, days)
    with pytest.raises(ClockError, match=r"^There is no such seat in this game\.$"):
        timeouts.grant_more_time(game, 0, 2, 1)
    assert not game.events.filter(kind="more_time").exists()
    deadline = bob_seat(game).deadline
    timeouts.grant_more_time(game, 0, 1, 2)
    assert bob_seat(game).deadline == deadline + timedelta(days=2)
    # Not Alice's turn: the days wait for her next turn.
    timeouts.grant_more_time(game, 1, 0, 1)
    assert game.seats.get(number=0).extra_seconds == 86400
    event = game.events.filter(kind="more_time").order_by("seq").first()
    assert event.data == {
        "kind": "more_time",
        "seat": 1,
        "by": 0,
        "days": 2,
        "deadline": bob_seat(game).deadline.isoformat(),
    }


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
        assert shown_after(client, response) == ["Done: they have more time."]
        response = client.post(reverse("clock:more_time", args=[game.pk]), {"seat": 1, "days": 99})
        assert game.events.filter(kind="more_time").count() == 1
        assert refusal(response, 400) == ["You can give 1 to 14 days at a time."]
    with at(START + timedelta(days=4, minutes=5)):
        timeouts.sweep()
        client.force_login(alice)
        response = client.post(reverse("clock:claim", args=[game.pk]))
        assert shown_after(client, response) == ["The game is yours: your opponent ran out of time."]
    game.refresh_from_db()
    assert game.is_finished and game.winner_side == 0


def clocks(game):
    """Everything a clock action could change (not last_seen_at: looking at the page sets it)."""
    return (
        Game.objects.values("seq", "status", "finish").get(pk=game.pk),
        game.events.count(),
        list(
            Seat.objects.filter(game=game)
            .order_by("number")
            .values("to_act", "deadline", "timed_out_at", "extra_seconds", "reminder_stage", "remind_at")
        ),
    )


def shown_after(client, response):
    """The messages shown on the page a clock action redirected to."""
    page = client.get(response["Location"])
    return [str(m) for m in page.context["messages"]]


def refusal(response, status, template="games/game.html"):
    """The messages of a refused clock action's page: the page itself (no redirect), its status
    a 4xx, each message shown on it."""
    assert response.status_code == status
    assert template in [t.name for t in response.templates]
    said = [str(m) for m in response.context["messages"]]
    page = response.content.decode()
    assert said and all(escape(m) in page for m in said)
    return said


@pytest.mark.parametrize(
    "fields,message",
    [
        ({"days": 3}, "Choose whom to give more time."),
        ({"seat": "Bob", "days": 3}, "Choose whom to give more time."),
        ({"seat": 1, "days": 99}, "You can give 1 to 14 days at a time."),
        ({"seat": 1, "days": 0}, "You can give 1 to 14 days at a time."),
        ({"seat": 1}, 'Say how many days in the digits 0 to 9, e.g. "more time 2".'),
        ({"seat": 0, "days": 2}, "You can only give more time to an opponent."),
        ({"seat": 7, "days": 2}, "There is no such seat in this game."),
    ],
)
def test_a_bad_more_time_request_says_why_and_changes_nothing(client, fields, message):
    game = waiting_for_bob(Game.TimeoutPolicy.OPPONENT_CHOOSES)
    client.force_login(game.seats.get(number=0).player)
    with at(START + timedelta(hours=1)):
        before = clocks(game)
        response = client.post(reverse("clock:more_time", args=[game.pk]), fields)
        assert clocks(game) == before
        assert refusal(response, 400) == [message]
        assert "Give more time" in response.content.decode()  # the game page, its clock forms there


def test_a_stranger_cannot_give_time_or_claim(client):
    game = waiting_for_bob(Game.TimeoutPolicy.OPPONENT_CHOOSES)
    with at(START + timedelta(days=1, minutes=1)):
        assert timeouts.sweep() == {"claimable": 1}  # Bob is out of time: there is something to claim
    client.force_login(make_user(password=None))
    with at(START + timedelta(days=1, hours=1)):
        before = clocks(game)
        response = client.post(reverse("clock:more_time", args=[game.pk]), {"seat": 1, "days": 3})
        assert clocks(game) == before
        assert refusal(response, 403, "games/not_your_game.html") == ["Only a player in this game can give more time."]
        response = client.post(reverse("clock:claim", args=[game.pk]))
        assert clocks(game) == before
        assert refusal(response, 403, "games/not_your_game.html") == ["Only a player in this game can claim it."]
    assert not game.events.filter(kind="more_time").exists()
    game.refresh_from_db()
    assert not game.is_finished


@pytest.mark.parametrize("policy", [Game.TimeoutPolicy.OPPONENT_CHOOSES, Game.TimeoutPolicy.FORFEIT])
def test_claiming_when_nobody_is_out_of_time_is_refused(client, policy):
    game = waiting_for_bob(policy)
    client.force_login(game.seats.get(number=0).player)
    with at(START + timedelta(hours=1)):
        before = clocks(game)
        response = client.post(reverse("clock:claim", args=[game.pk]))
        assert clocks(game) == before
        # The claim was sent from a page where there was one (or forged): the game has moved past it.
        assert refusal(response, 409) == ["Nobody here is out of time: there is nothing to claim."]


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
