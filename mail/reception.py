"""Storing a reply fast: once per (Message-ID, sender, recipient), then its reading is queued (mail.inbound.process).

The webhook of every provider (mail.receivers) and `manage.py receive_email`
come here; a message stored while the broker is down is read when the
after-commit sweeper (games.follow_ups) finds it.
"""

import hashlib
import logging

from django.db import IntegrityError, transaction

from games import follow_ups

from .authentication import auth_failure, spam_verdict
from .classify import RECIPIENT_HEADERS, delivered_to, sender_of
from .models import InboundEmail

log = logging.getLogger(__name__)

QUEUE = "mail.inbound"  # its rows are read by mail.tasks.process_inbound (games.follow_ups.register_queue)

MAX_RAW = 2_000_000  # characters of a message kept; a move is a few words


class NotAReply(ValueError):
    """What came is not an email we could answer: no sender, or no recipient at all."""


def receive(message, *, esp_name="", event=None):
    """Keep `message` (once per Message-ID, sender and recipient) and queue its reading. Returns the row, or None if a duplicate.

    Raises NotAReply (storing nothing) for a message with no From address or no recipient.
    """
    if not sender_of(message) or not (
        getattr(message, "envelope_recipient", None) or any(message.get_all(name) for name in RECIPIENT_HEADERS)
    ):
        raise NotAReply("not an email message: it has no sender or no recipient")
    raw = storable(_raw(message))
    message_id = storable(message.get("Message-ID")).strip()
    if not message_id:
        message_id = f"<sha256.{hashlib.sha256(raw.encode('utf-8', 'replace')).hexdigest()}@no-message-id>"
    row = InboundEmail(
        message_id=message_id[:255],
        sender=sender_of(message)[:255],
        recipient=delivered_to(message)[:255],
        esp_name=esp_name,
        raw=raw[:MAX_RAW],
        envelope_sender=storable(getattr(message, "envelope_sender", None))[:255],
        envelope_recipient=storable(getattr(message, "envelope_recipient", None))[:255],
        stripped_text=storable(getattr(message, "stripped_text", None)),
        spam_detected=bool(spam_verdict(message)),
        auth_failure=auth_failure(message, getattr(event, "esp_event", None), esp_name)[:255],
    )
    # Postmark puts the Return-Path first in its headers, and anymail keeps it as the envelope
    # sender; an explicit empty one ("<>") is a bounce.
    if getattr(message, "envelope_sender", None) == "" or message.get("Return-Path", "").strip() == "<>":
        row.envelope_sender = "<>"
    try:
        with transaction.atomic():
            row.save()
    except IntegrityError:
        log.info("Inbound %s already received; ignored.", message_id)
        return None
    follow_ups.after_commit(QUEUE, [row.pk])
    return row


def storable(value):
    """`value` as text PostgreSQL stores: no NUL, valid Unicode (a lone surrogate becomes U+FFFD)."""
    text = "" if value is None else str(value)
    return text.replace("\x00", "\ufffd").encode("utf-8", "surrogatepass").decode("utf-8", "replace")


def _raw(message):
    try:
        return message.as_string()
    except Exception:  # an odd encoding: keep what bytes we can
        return message.as_bytes().decode("utf-8", "replace")
