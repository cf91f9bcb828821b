"""Answers to replies, owed in the outbox like every email: a kind per family (a game reply's
answer, the review, the service's, a challenge's), sent by the worker after commit, retried and
swept, so an answer due while the mail server is down goes once it is back.

While a reply is read (mail.inbound.process, within `owed_for`) each answer is only noted; they are
written with the reply's status, in one transaction (`write`): both are kept, or neither, and a
reply read again (the database was away) owes the same rows (their keys are the reply's). The
answer limit (services.may_answer: once per address, kind and words in the window) is taken in
that transaction too, so an answer it lets through is owed, and a failed send is retried.
An answer owed outside a reply's reading (a test, a shell) is written at once.
"""

import logging
import uuid
from contextlib import contextmanager
from contextvars import ContextVar

from django.db import transaction

from . import outbox, services
from .reception import storable

log = logging.getLogger(__name__)

# The reply being read and the answers it owes so far: [(limit, unsaved row)].
_owed: ContextVar[tuple[int, list] | None] = ContextVar("mail.answers", default=None)


@contextmanager
def owed_for(inbound_id):
    """Note the answers owed while reading reply `inbound_id`; the block's value is to `write`."""
    owed = []  # (limit, unsaved row)
    token = _owed.set((inbound_id, owed))
    try:
        yield owed
    finally:
        _owed.reset(token)


def owe(kind, user, limit, *, context, game_id=None, seat=None):
    """Owe `user` an answer of `kind`, at most once per address and `limit` in the window."""
    context = _storable(context)  # the player's words may hold what PostgreSQL does not store
    reading = _owed.get()
    if reading is None:
        with transaction.atomic():
            write([(limit, outbox.owed(kind, user, uuid.uuid4().hex, context=context, game_id=game_id, seat=seat))])
        return
    inbound_id, owed = reading
    key = f"{inbound_id}:{len(owed) + 1}"  # the same again when the reply is read again
    owed.append((limit, outbox.owed(kind, user, key, context=context, game_id=game_id, seat=seat)))


def _storable(value):
    if isinstance(value, str):
        return storable(value)
    if isinstance(value, list | tuple):
        return [_storable(v) for v in value]
    if isinstance(value, dict):
        return {k: _storable(v) for k, v in value.items()}
    return value


def write(owed):
    """Write the answers `owed` that the answer limit lets through, in the caller's transaction."""
    rows = []
    for limit, row in owed:
        if services.may_answer(row.to, limit):
            rows.append(row)
        else:
            log.info("Answer %s to %s not owed: already answered in this window.", row.kind, row.user_id)
    outbox.write(rows)
