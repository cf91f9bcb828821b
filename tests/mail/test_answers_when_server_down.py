"""Answers to replies with the mail server down: the reply is read and its status stored as ever,
the answer waits in the outbox, and it goes, once, when the server is back. A real SMTP server
(aiosmtpd) on a port that refuses until it comes up there."""

import random
from datetime import timedelta

import pytest
import time_machine
from anymail.inbound import AnymailInboundMessage
from django.db import OperationalError
from django.utils import timezone

from games import challenges
from games.presentation import cards_text
from games.selectors import view_for
from ladders import membership
from ladders import notices as ladder_notices
from ladders.models import Ladder
from mail import answers, inbound, links, reception, service_replies
from mail.models import AnswerSent, InboundEmail, OutboundEmail
from tests.factories import finish_game, genuine, make_user, start_two_player_game

from . import server_down as server_down_
from .conftest import reply
from .server_down import smtp_at, waiting
from .smtp_sink import free_port, text_part

pytestmark = pytest.mark.django_db
SWEPT = timedelta(minutes=3)  # past the first retry's wait and the sweeper's REQUEUE_AFTER
Kind = OutboundEmail.Kind


def server_down(settings):
    """The mail server goes down (after what the test set up was sent): its port, refusing."""
    port = free_port()  # nothing listens there yet: every connection is refused
    smtp_at(settings, port)
    return port


def two_players():
    return make_user("alice@example.com", "Alice", allow_forced_moves=False), make_user("bob@example.com", "Bob")


def a_game(on_commit):
    """A dealt game between Alice (seat 0) and Bob, its turn emails sent."""
    alice, bob = two_players()
    with on_commit():
        return start_two_player_game(players=[alice, bob], rng=random.Random(7)), alice, bob


def deliver(message, on_commit):
    """What the webhook does: store the message, then (after commit) read it, answers queued."""
    with on_commit():
        row = reception.receive(message, esp_name="test")
    row.refresh_from_db()
    return row


def to(address, sender, words):
    return AnymailInboundMessage.construct(
        from_email=sender,
        to=address,
        subject="Hello",
        text=f"{words}\n",
        headers={"Message-ID": f"<{random.getrandbits(64):x}@mail.example.com>", **genuine(sender)},
    )


def sent_when_back(port, row):
    """The server comes back, the clock past the row's next try: the message it got, once."""
    with time_machine.travel(timezone.now() + SWEPT, tick=False):
        return server_down_.sent_when_back(port, row)


def test_an_unreadable_move_answered_while_the_server_is_down_arrives_when_it_is_back(settings, on_commit):
    game, alice, bob = a_game(on_commit)
    port = server_down(settings)
    reading = deliver(reply(game, 0, "hello there"), on_commit)
    assert reading.status == InboundEmail.Status.ANSWERED  # stored as ever
    row = waiting(Kind.REPLY_ANSWER)
    assert (row.user, row.game_id, row.seat, row.to) == (alice, game.pk, 0, "alice@example.com")
    bobs = view_for(game, 1).hand
    assert not [card for card in bobs if str(card) in str(row.context)]  # the row holds no other seat's card

    message = sent_when_back(port, row)
    body = text_part(message)
    assert "We could not read a move in your reply." in body and "hello there" in body
    assert all(cards_text([card]) in body for card in view_for(game, 0).hand)  # the answering seat's own view
    assert not [card for card in bobs if cards_text([card]) in body]
    assert message["Reply-To"] == links.reply_address(game.pk, 0)


def test_a_refused_move_answered_while_the_server_is_down_arrives_when_it_is_back(settings, on_commit):
    game, _, _ = a_game(on_commit)
    port = server_down(settings)
    not_held = next(c for c in view_for(game, 1).hand)  # Bob's card: Alice cannot lay it away
    deliver(reply(game, 0, f"crib {not_held} {view_for(game, 0).hand[0]}"), on_commit)
    row = waiting(Kind.REPLY_ANSWER)
    body = text_part(sent_when_back(port, row))
    assert f"crib {not_held}" in body and all(cards_text([card]) in body for card in view_for(game, 0).hand)


def test_the_review_asked_for_while_the_server_is_down_arrives_when_it_is_back(settings, on_commit):
    game, _, _ = a_game(on_commit)
    with on_commit():
        finish_game(game, winner=0)
    port = server_down(settings)
    reading = deliver(reply(game, 0, "review"), on_commit)
    assert (reading.status, reading.outcome) == (InboundEmail.Status.ANSWERED, "review owed")
    row = waiting(Kind.REVIEW)
    assert (row.game_id, row.seat, row.context) == (game.pk, 0, {})
    assert "review" in sent_when_back(port, row)["Subject"].lower()


def test_an_answer_from_the_service_address_arrives_when_the_server_is_back(settings, on_commit):
    alice, _ = two_players()
    port = server_down(settings)
    reading = deliver(to(service_replies.service_address(), alice.email, "help"), on_commit)
    assert reading.status == InboundEmail.Status.ANSWERED
    message = sent_when_back(port, waiting(Kind.SERVICE_ANSWER))
    assert "new game NAME" in text_part(message) and message["Reply-To"] == service_replies.service_address()


def test_an_answer_to_a_challenges_reply_arrives_when_the_server_is_back(settings, on_commit):
    alice, bob = two_players()
    with on_commit():
        made = challenges.create_challenge(alice, [bob])
    port = server_down(settings)
    reading = deliver(to(links.challenge_reply_address(made.pk, bob.pk), bob.email, "maybe"), on_commit)
    assert reading.status == InboundEmail.Status.ANSWERED
    message = sent_when_back(port, waiting(Kind.CHALLENGE_ANSWER))
    assert '"accept"' in text_part(message) and "maybe" in text_part(message)


def test_an_answer_from_a_ladders_address_arrives_when_the_server_is_back(settings, on_commit):
    ladder = Ladder.objects.create(name="Club ladder", slug="club")
    alice, bob = two_players()
    with on_commit():
        membership.join(ladder, bob)
    port = server_down(settings)
    reading = deliver(to(ladder_notices.ladder_address(ladder), alice.email, "standings"), on_commit)
    assert reading.status == InboundEmail.Status.ANSWERED
    row = waiting(Kind.EVENT_ANSWER)
    assert row.context["event"] == ladder.pk and row.context["standings"]  # the table is read when it is sent
    message = sent_when_back(port, row)
    assert "Bob" in text_part(message) and message["Reply-To"] == ladder_notices.ladder_address(ladder)


def test_a_reply_is_kept_with_its_answers_or_neither_and_read_again_owes_them_once(monkeypatch, on_commit):
    game, _, _ = a_game(on_commit)
    stored = reception.receive(reply(game, 0, "hello"), esp_name="test")
    write = answers.write

    def away(owed):
        raise OperationalError("the database went away")

    monkeypatch.setattr(answers, "write", away)
    with pytest.raises(OperationalError):
        inbound.process(stored.pk)
    stored.refresh_from_db()
    assert stored.status == InboundEmail.Status.RECEIVED  # read again later (the task retries)
    assert not OutboundEmail.objects.filter(kind=Kind.REPLY_ANSWER).exists() and not AnswerSent.objects.exists()

    monkeypatch.setattr(answers, "write", write)
    assert inbound.process(stored.pk) == InboundEmail.Status.ANSWERED
    assert inbound.process(stored.pk) is None  # read once
    [row] = OutboundEmail.objects.filter(kind=Kind.REPLY_ANSWER)
    assert row.key == f"{Kind.REPLY_ANSWER}:{stored.pk}:1" and row.status == OutboundEmail.Status.READY


def test_the_same_words_again_in_the_window_owe_no_second_answer(on_commit):
    game, _, _ = a_game(on_commit)
    for _ in range(2):
        deliver(reply(game, 0, "hello"), on_commit)
    assert OutboundEmail.objects.filter(kind=Kind.REPLY_ANSWER).count() == 1
    deliver(reply(game, 0, "hello again"), on_commit)  # a second try, in other words, is answered
    assert OutboundEmail.objects.filter(kind=Kind.REPLY_ANSWER).count() == 2
