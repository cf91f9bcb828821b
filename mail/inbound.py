"""Replies: read what mail.reception stored, classify it, route it, and hand it to who acts on it.

`mail.reception.receive()` (from the webhook or `receive_email`) stores the
message once per (Message-ID, sender, recipient) and queues `process()`. `process()` decides, in
this order:

1. automatic mail (auto-replies, bounces, our own mail) is ignored: no answer
   (mail.classify tells it);
2. the recipient must be one of our addresses: a seat's signed reply address
   (mail.game_replies acts), a challenge's (mail.challenge_replies) or an
   event's (mail.event_replies), or the service's own address
   (mail.service_replies: new games, the list of games, vacations, entries); else
   the message is dropped and logged: no answer (no backscatter);
3. to a seat: the sender must be that seat's player, and pass the provider's
   SPF/DKIM/DMARC checks (mail.authentication); otherwise it is refused and the
   player (not the sender) is told, at most once per window;
4. the player's words are read and the move submitted against the current
   state, with the seat and the Message-ID as its idempotency key; a reply that cannot be
   applied is answered with what was wrong and the moves legal now. Every answer is owed in
   the outbox with the reply's status (mail.answers), and sent after commit.
"""

import logging
from datetime import timedelta
from email import policy
from email.headerregistry import HeaderRegistry
from email.parser import BytesParser
from email.utils import parseaddr
from functools import lru_cache

from anymail.inbound import AnymailInboundMessage
from django.db import InterfaceError, OperationalError, transaction
from django.db.models import Q
from django.utils import timezone

from games import statements
from games.models import Game
from games.selectors import game_with_seats

from . import (
    answers,
    challenge_replies,
    classify,
    event_replies,
    game_replies,
    parsing,
    rows,
    service_replies,
    services,
)
from .models import InboundEmail

log = logging.getLogger(__name__)

READING_LEASE = timedelta(minutes=10)  # a reply read this long was lost with its worker


def unread_batch(now=None, limit=200):
    """Ids of stored replies still waiting to be read a while after they arrived: their reading
    was never queued (the broker was down) or its task was lost. A reply whose reading began
    READING_LEASE ago and never ended was lost with its worker (SIGKILL, out of memory): it is
    put back to be read, as nothing it did stayed (its move and answers are written with its
    status, in one transaction) or stays twice (the move is idempotent by the reply). The sweeper
    queues them again; `process` reads each once."""
    now = now or timezone.now()
    stuck = Q(claimed_at__lt=now - READING_LEASE) | Q(claimed_at__isnull=True, received_at__lt=now - READING_LEASE)
    lost = InboundEmail.objects.filter(stuck, status=InboundEmail.Status.PROCESSING)
    for message_id in lost.values_list("message_id", flat=True):
        log.warning("Reading inbound %s never ended (its worker died): it is read again.", message_id)
    lost.update(status=InboundEmail.Status.RECEIVED)
    return list(
        InboundEmail.objects.filter(status=InboundEmail.Status.RECEIVED, received_at__lt=now - services.REQUEUE_AFTER)
        .order_by("received_at")
        .values_list("pk", flat=True)[:limit]
    )


def process(inbound_id):
    """Read one stored message and act on it. Safe to run twice: the second run does nothing."""
    row = rows.claim_reply(inbound_id, timezone.now())
    if row is None:
        return None
    try:
        with answers.owed_for(row.pk) as owed:
            try:
                status, outcome = _process(row)
            except (OperationalError, InterfaceError):
                raise
            except Exception as exc:
                log.exception("Reading inbound %s failed.", row.message_id)
                status, outcome = InboundEmail.Status.ANSWERED, f"error: {exc!r}"
        row.status, row.outcome, row.processed_at = status, outcome[:2000], timezone.now()
        with transaction.atomic():  # the answers it owes are kept with its status, or neither
            answers.write(owed)
            statements.update(row, ("status", "outcome", "processed_at", "game_id", "seat"))
    except (OperationalError, InterfaceError):
        # The database was busy or away: read the message again later (the task retries); what
        # it did is idempotent (a move by its Message-ID, an answer by the reply's key).
        InboundEmail.objects.filter(pk=row.pk).update(status=InboundEmail.Status.RECEIVED)
        raise
    return status


class _HeadersParsedOnce(HeaderRegistry):
    """email's header registry, each header parsed once by its name and value: reading a reply
    asks for the same few headers dozens of times (every part's Content-Type above all), and
    email's modern policy parses a header afresh each time, a third of the reading's CPU. The
    parsed headers are immutable, so one may serve every message that has it."""

    def __call__(self, name, value):
        return _parsed(name, value)


_registry = HeaderRegistry()


@lru_cache(maxsize=512)
def _parsed(name, value):
    return _registry(name, value)


# AnymailInboundMessage.parse_raw_mime's policy (email's default) with those headers.
_POLICY = policy.default.clone(header_factory=_HeadersParsedOnce())


def read(raw):
    """The stored message `raw` parsed as AnymailInboundMessage.parse_raw_mime parses it."""
    return BytesParser(AnymailInboundMessage, policy=_POLICY).parsebytes(raw.encode("utf-8"))


def _process(row):
    message = read(row.raw)
    reason = classify.automatic_reason(message, row)
    if reason:
        log.info("Inbound %s ignored: %s.", row.message_id, reason)
        return InboundEmail.Status.IGNORED, reason
    found = classify.recipient_seat(message, row)
    challenge = challenge_replies.challenge_of(classify.recipients(message, row)) if found is None else None
    if challenge is not None:
        return challenge_replies.act(
            row,
            challenge,
            classify.sender_of(message),
            parsing.reply_texts(row.stripped_text, classify.body_text(message)),
        )
    event = event_replies.event_of(classify.recipients(message, row)) if found is None else None
    if event is not None:  # an event's own address (a ladder's): its app reads the words
        texts = parsing.reply_texts(row.stripped_text, classify.body_text(message))
        return event_replies.act(row, event, classify.sender_of(message), texts, str(message.get("Subject") or ""))
    if found is None and service_replies.is_service_address(classify.recipients(message, row)):
        texts = parsing.reply_texts(row.stripped_text, classify.body_text(message))
        name = parseaddr(str(message.get("From") or ""))[0]
        return service_replies.act(row, classify.sender_of(message), name, texts, str(message.get("Subject") or ""))
    if found is None:
        log.warning("Inbound %s dropped: not sent to a valid reply address.", row.message_id)
        return InboundEmail.Status.DROPPED, "no valid reply address"
    game_id, number = found
    try:
        game = game_with_seats(game_id)
    except Game.DoesNotExist:
        game = None
    seat = next((s for s in game.seats.all() if s.number == number), None) if game is not None else None
    if seat is None or seat.player is None:
        log.warning("Inbound %s dropped: game %s seat %s has no player.", row.message_id, game_id, number)
        return InboundEmail.Status.DROPPED, "no such seat"
    row.game_id, row.seat = game_id, number
    return game_replies.act(row, seat, message)
