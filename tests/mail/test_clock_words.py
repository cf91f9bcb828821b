"""Reply words for the clock: "more time N" / "extend N" and "claim" (clock.timeouts decides)."""

import random
from datetime import timedelta

import pytest
import time_machine
from django.core import mail

from clock import timeouts
from games import services
from games.models import Event, Game, Seat
from games.selectors import view_for
from mail import parsing
from mail.models import InboundEmail, OutboundEmail
from tests.factories import make_user, start_two_player_game

from .conftest import reply
from .test_inbound import deliver


@pytest.mark.parametrize(
    "line, days",
    [
        ("more time 2", 2),
        ("More Time 3", 3),
        ("extend 2", 2),
        ("extend 5 days", 5),
        ("- more time 1.", 1),
        ("more time", None),
        ("extend", None),
    ],
)
def test_more_time_words_are_read(line, days):
    command = parsing.read_line(line)
    assert command.kind == "more_time" and command.number == days


@pytest.mark.parametrize(
    "line, kind", [("claim", "claim"), ("Claim!", "claim"), ("more coffee", None), ("play 7C claim 2", "play")]
)
def test_claim_and_lookalikes(line, kind):
    command = parsing.read_line(line)
    assert (command.kind if command else None) == kind


@pytest.fixture
def bob_to_move(game, on_commit):
    """Alice has thrown to the crib; Bob has not: his turn alone."""
    game.refresh_from_db()
    with on_commit():
        services.submit_move(game, 0, view_for(game, 0).legal_moves[0])
    mail.outbox.clear()
    return Seat.objects.get(game=game, number=1)


def test_more_time_by_reply_moves_the_opponents_deadline(game, on_commit, bob_to_move):
    before = bob_to_move.deadline
    row = deliver(reply(game, 0, "more time 2"), on_commit)
    assert row.status == InboundEmail.Status.APPLIED
    bob_to_move.refresh_from_db()
    assert bob_to_move.deadline == before + timedelta(days=2)
    event = Event.objects.get(game=game, kind="more_time")
    assert event.source == Event.Source.EMAIL and event.data["seat"] == 1 and event.data["by"] == 0
    assert event.actor.email == "alice@example.com"
    (answer,) = mail.outbox
    assert answer.to == ["alice@example.com"] and "You gave Bob 2 more days" in answer.body


def test_more_time_for_the_other_seat_when_it_is_my_turn(game, on_commit):
    """In a two-handed game "more time" is for the other player, whose turn it is not: their next turn."""
    game.refresh_from_db()
    with on_commit():
        services.submit_move(game, 1, view_for(game, 1).legal_moves[0])
    assert deliver(reply(game, 1, "extend 1"), on_commit).status == InboundEmail.Status.APPLIED
    assert Seat.objects.get(game=game, number=0).extra_seconds == 0  # Alice is to move: deadline moved
    assert Event.objects.get(game=game, kind="more_time").data["seat"] == 0


@pytest.mark.parametrize(
    "words, expected",
    [
        ("more time 99", "You can give 1 to 14 days at a time."),
        ("more time", "Say how many days"),
        ("claim", "Nobody here is out of time"),
    ],
)
def test_a_refused_clock_word_is_answered_and_changes_nothing(game, on_commit, bob_to_move, words, expected):
    seq, deadline = Game.objects.get(pk=game.pk).seq, bob_to_move.deadline
    row = deliver(reply(game, 0, words), on_commit)
    assert row.status == InboundEmail.Status.ANSWERED
    (answer,) = mail.outbox
    assert answer.to == ["alice@example.com"] and expected in answer.body and "Nothing was changed." in answer.body
    assert Game.objects.get(pk=game.pk).seq == seq and Seat.objects.get(pk=bob_to_move.pk).deadline == deadline
    assert not Event.objects.filter(game=game, kind="more_time").exists()
    # A second refusal of that kind in the window is not answered: never a mail cannon.
    deliver(reply(game, 0, words), on_commit)
    assert len(mail.outbox) == 1


def test_claim_by_reply_ends_the_game_of_an_opponent_out_of_time(db, on_commit, client):
    alice = make_user("alice@example.com", "Alice", allow_forced_moves=False, password=None)
    bob = make_user("bob@example.com", "Bob", allow_forced_moves=False, password=None)
    with on_commit():
        game = start_two_player_game(
            players=[alice, bob],
            rng=random.Random(7),
            vacation_cap_days=0,
            timeout_policy=Game.TimeoutPolicy.OPPONENT_CHOOSES,
        )
        services.submit_move(game, 0, view_for(game, 0).legal_moves[0])
    bob_seat = Seat.objects.get(game=game, number=1)
    with time_machine.travel(bob_seat.deadline + timedelta(minutes=1)):
        with on_commit():
            assert timeouts.sweep()["claimable"] == 1
        mail.outbox.clear()
        row = deliver(reply(game, 0, "claim"), on_commit)
    assert row.status == InboundEmail.Status.APPLIED
    game.refresh_from_db()
    assert game.is_finished and game.finish == "forfeit" and game.winner_side == 0
    forfeit = Event.objects.get(game=game, kind="forfeit")
    assert forfeit.source == Event.Source.EMAIL and forfeit.actor == alice
    results = {m.to[0]: m for m in mail.outbox if m.tags == ["result"]}
    assert set(results) == {"alice@example.com", "bob@example.com"}
    assert "You won (Bob ran out of time)." in results["alice@example.com"].body
    assert "Alice won (Bob ran out of time)." in results["bob@example.com"].body
    client.force_login(bob)  # the game page says it the same way
    assert "Alice won (Bob ran out of time):" in client.get(game.get_absolute_url()).content.decode()
    assert OutboundEmail.objects.filter(game=game, kind="result", status="sent").count() == 2


def test_the_turn_email_and_help_name_the_clock_words(db, on_commit):
    players = [make_user(password=None), make_user(password=None)]
    with on_commit():
        plain = start_two_player_game(players=players)
    body = next(m for m in mail.outbox if m.to == [players[0].email]).body
    assert "more time N:" in body and "extend N" in body
    assert "\n  claim:" not in body  # this game ends by itself on time: nothing to claim
    mail.outbox.clear()
    with on_commit():
        start_two_player_game(players=players, timeout_policy=Game.TimeoutPolicy.OPPONENT_CHOOSES)
    body = next(m for m in mail.outbox if m.to == [players[0].email]).body
    assert "\n  claim: win the game of an opponent who ran out of time" in body
    mail.outbox.clear()
    deliver(reply(plain, 0, "help"), on_commit)
    assert "more time 2" in mail.outbox[0].body and "\n  claim " in mail.outbox[0].body
