"""Owing an email: one outbox row per email, written in the caller's transaction, sent after commit.

`owed(kind, user, key, ...)` makes a row (unsaved); `write(rows)` saves
those not owed already (the key is unique: a cause run twice owes one email)
and, once the transaction commits, queues the sending of the rows still
ready. No network I/O happens here, so this is safe under any lock. The
message is rendered when it is sent (mail.kinds).
"""
from django.db import transaction

from games import follow_ups

from . import tasks
from .models import OutboundEmail


def owed(kind, user, key, *, context=None, game_id=None, seat=None, seq=None):
    """An unsaved outbox row of `kind` for `user`; `key` is unique per owed email."""
    return OutboundEmail(kind=kind, user=user, to=user.email, key=f"{kind}:{key}", context=context or {},
                         game_id=game_id, seat=seat, seq=seq)


def write(rows, *, send=True):
    """Save `rows` once each (by key) and queue their sending after commit. Returns their keys.

    `send=False` leaves the queueing to the caller (`queue(keys)`), for a cause that
    finishes in later transactions (a vacation stops each game's clock in its own): the
    rows are saved with the cause, and the sweeper sends them if the caller never gets there.
    """
    rows = list(rows)
    if not rows:
        return []
    OutboundEmail.objects.bulk_create(rows, ignore_conflicts=True)
    keys = [row.key for row in rows]
    if send:
        queue(keys)
    return keys


def queue(keys):
    """Queue the sending of the rows with these keys once the current transaction commits."""
    if keys:
        # robust: whatever fails after the commit (the database gone again) is logged, and the
        # sweeper sends the rows; the work that owed them has succeeded.
        transaction.on_commit(lambda: send_ready(keys), robust=True)


def owe(kind, user, key, **fields):
    """Owe one email (see `owed`): 1."""
    return len(write([owed(kind, user, key, **fields)]))


def send_ready(keys):
    """Queue the sending of the rows with these keys that are still ready (after commit)."""
    ids = OutboundEmail.objects.filter(key__in=keys, status=OutboundEmail.Status.READY,
                                       claimed_at__isnull=True).values_list("pk", flat=True)
    for outbound_id in ids:
        follow_ups.enqueue(tasks.send_outbound, outbound_id)   # a broker down: the sweeper sends it
