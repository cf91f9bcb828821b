"""Replies of several lines (a discard and a plan), and the round trips around a game by reply:
accepting or declining a challenge, asking for a rematch."""

import random

import pytest
from anymail.inbound import AnymailInboundMessage
from django.core import mail

from games import challenges, cribbage, services
from games.models import Challenge, Event
from games.selectors import view_for
from mail import links
from mail.models import InboundEmail, OutboundEmail
from tests.factories import genuine, make_user, start_two_player_game

from .conftest import reply
from .test_inbound import deliver


def kept_after(view, thrown):
    return [c for c in view.hand if c not in thrown]


def test_a_discard_and_a_plan_in_one_reply_are_applied_in_order(game, on_commit):
    view = view_for(game, 0)
    thrown = list(view.hand[:2])
    kept = kept_after(view, thrown)
    row = deliver(
        reply(game, 0, f"crib {' '.join(thrown)}\nplan {' '.join(reversed(kept))}\n\nCheers, Alice"), on_commit
    )
    assert row.status == InboundEmail.Status.APPLIED
    game.refresh_from_db()
    view = view_for(game, 0)
    assert list(view.my_discards) == thrown and view.plan["order"] == list(reversed(kept))
    keys = list(game.events.filter(source=Event.Source.EMAIL).values_list("kind", "idempotency_key"))
    assert keys == [("discard", f"0:{row.message_id}"), ("plan", f"0:{row.message_id}#2")]
    assert "plan" not in repr(view_for(game, 1).plan)


def test_a_refused_line_keeps_those_before_it_applies_none_after_and_says_which(game, on_commit):
    view = view_for(game, 0)
    thrown = list(view.hand[:2])
    mail.outbox.clear()
    deliver(reply(game, 0, f"crib {' '.join(thrown)}\nplan {thrown[0]}\nplan clear"), on_commit)
    game.refresh_from_db()
    assert list(view_for(game, 0).my_discards) == thrown and view_for(game, 0).plan is None
    assert not game.events.filter(kind="plan").exists()
    (answer,) = mail.outbox
    assert f'Line 2 of your reply ("plan {thrown[0]}") was not applied' in answer.body
    assert f"{thrown[0]} is in the crib: you laid it away" in answer.body
    assert "The lines before it were applied. Nothing after it was applied." in answer.body


@pytest.mark.parametrize(
    "words, says",
    [
        ("plan 7X", '"7X" is neither a card nor a word of plans'),
        ("plan score", '"score" is not a rule of plans'),
        ("plan", "Name the cards of your plan"),
    ],
)
def test_a_plan_that_cannot_be_read_is_answered_and_changes_nothing(game, on_commit, words, says):
    seq = game.seq
    mail.outbox.clear()
    deliver(reply(game, 0, words), on_commit)
    game.refresh_from_db()
    assert game.seq == seq and says in mail.outbox[0].body


def test_a_plan_naming_another_players_card_is_refused_without_telling_theirs(game, on_commit):
    theirs = view_for(game, 1).hand[0]
    mail.outbox.clear()
    deliver(reply(game, 0, f"plan {theirs}"), on_commit)
    body = mail.outbox[0].body
    assert f"You do not hold {theirs}" in body and not any(
        c in body.split("You do not hold")[1][:40] for c in view_for(game, 1).hand[1:]
    )


def test_the_help_tells_the_words_of_plans(game, on_commit):
    mail.outbox.clear()
    deliver(reply(game, 0, "help"), on_commit)
    body = mail.outbox[0].body
    assert "plan 7C 8D 5H KS" in body and "score first" in body and "on 5 play TH" in body and "ask" in body


# --- Challenges and rematches by reply ------------------------------------------------------------


def challenge_reply(challenge, user, words, sender=None):
    return AnymailInboundMessage.construct(
        from_email=sender or user.email,
        to=links.challenge_reply_address(challenge.pk, user.pk),
        subject="Re: a challenge",
        text=f"{words}\n\nOn Mon, Jun 2, 2025, Cribbage by mail wrote:\n> old\n",
        headers={"Message-ID": f"<{random.getrandbits(64):x}@mail.example.com>", **genuine(sender or user.email)},
    )


@pytest.fixture
def challenge(db, on_commit):
    alice = make_user("carol@example.com", "Carol", password=None)
    bob = make_user("dave@example.com", "Dave", password=None)
    with on_commit():
        return challenges.create_challenge(alice, [bob])


def test_the_challenge_email_takes_a_reply_and_accept_starts_the_game(challenge, on_commit):
    dave = challenge.places.get().player
    sent = [m for m in mail.outbox if m.to == [dave.email]]
    assert sent and sent[-1].reply_to == [links.challenge_reply_address(challenge.pk, dave.pk)]
    assert '"accept"' in sent[-1].body
    row = deliver(challenge_reply(challenge, dave, "Accept"), on_commit)
    challenge.refresh_from_db()
    assert row.status == InboundEmail.Status.APPLIED and challenge.status == Challenge.Status.ACCEPTED
    assert challenge.game is not None


def test_decline_by_reply_and_a_stranger_cannot_answer(challenge, on_commit):
    dave = challenge.places.get().player
    row = deliver(challenge_reply(challenge, dave, "accept", sender="mallory@example.com"), on_commit)
    challenge.refresh_from_db()
    assert row.status == InboundEmail.Status.REFUSED and challenge.status == Challenge.Status.OPEN
    deliver(challenge_reply(challenge, dave, "decline"), on_commit)
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.DECLINED
    mail.outbox.clear()
    row = deliver(challenge_reply(challenge, dave, "accept"), on_commit)
    assert row.status == InboundEmail.Status.ANSWERED and row.outcome.startswith("refused: ")
    assert len(mail.outbox) == 1 and row.outcome[len("refused: ") :] in mail.outbox[0].body


def test_rematch_by_reply_to_the_game_over_email_challenges_the_same_players(game, on_commit):
    alice, bob = (s.player for s in game.seats.order_by("number"))
    services.submit_move(game, 1, {"kind": "resign"})
    game.refresh_from_db()
    deliver(reply(game, 0, "rematch"), on_commit)
    rematch = Challenge.objects.get(challenger=alice)
    assert [p.player for p in rematch.places.all()] == [bob]
    assert (rematch.variant, rematch.target, rematch.days_per_move) == (game.variant, game.target, game.days_per_move)
    row = deliver(challenge_reply(rematch, bob, "accept"), on_commit)
    rematch.refresh_from_db()
    assert row.status == InboundEmail.Status.APPLIED and rematch.game is not None


def test_rematch_before_the_end_is_refused(game, on_commit):
    mail.outbox.clear()
    deliver(reply(game, 0, "rematch"), on_commit)
    assert not Challenge.objects.exists() and "not over yet" in mail.outbox[0].body
    assert cribbage.is_over(services.engine_state(game)) is False


def test_muggins_a_count_said_in_a_play_reply_answers_the_show_without_an_email(db, on_commit):
    alice = make_user("alice@example.com", "Alice", allow_forced_moves=False, password=None)
    bob = make_user("bob@example.com", "Bob", allow_forced_moves=False, password=None)
    with on_commit():
        game = start_two_player_game(players=[alice, bob], rng=random.Random(7), muggins=True, target=61)
        for seat in (0, 1):
            services.submit_move(game, seat, {"kind": "discard", "cards": list(view_for(game, seat).hand[:2])})
    game.refresh_from_db()
    state = services.engine_state(game)
    pone, dealer = 1 - state.dealer, state.dealer
    true = cribbage.score_hand(state.kept[pone], state.starter).total
    with on_commit():
        services.submit_move(game, dealer, cribbage.read_plan(" ".join(view_for(game, dealer).hand)))
    game.refresh_from_db()
    seq = game.seq
    players = (alice, bob)
    asked = [m for m in mail.outbox if m.to == [players[pone].email]][-1]
    assert "count N" in asked.body and "said now for the show" in asked.body
    kept = " ".join(view_for(game, pone).hand)
    row = deliver(reply(game, pone, f"count {true}\nplan {kept}"), on_commit)
    assert row.status == InboundEmail.Status.APPLIED
    game.refresh_from_db()
    state = services.engine_state(game)
    counted = game.events.get(kind="count", seat=pone)
    assert counted.source == Event.Source.PLAN and counted.data["points"] == true
    assert state.phase == "show" and state.turn == dealer  # the dealer counts; nobody asked the pone
    assert not OutboundEmail.objects.filter(game=game, seat=pone, seq__gt=seq, kind="turn").exists()
    assert "count_ahead" not in repr(view_for(game, dealer).records)
