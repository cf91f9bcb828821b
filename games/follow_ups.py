"""Queueing the follow-ups of committed work (for games and every app above it).

Saved means success: once a move (or any change) has committed, nothing that
happens after it may turn its answer into an error. A broker that is down or
refuses the message is logged and the work is left to a sweeper, which finds
it from the database (the outbox rows, the games awaiting the computer).
"""

import logging
from functools import partial

from django.db import transaction

log = logging.getLogger(__name__)


def enqueue(task, *args, **kwargs):
    """Queue `task` now; True if queued, False (logged) if the broker could not take it."""
    try:
        task.delay(*args, **kwargs)
    except Exception:  # kombu's OperationalError, a refused connection, a full queue, ...
        log.exception("Could not queue %s%r; a sweeper will do it later.", task.name, args)
        return False
    return True


def enqueue_on_commit(task, *args, **kwargs):
    """Queue `task` once the current transaction commits (at once outside one), never failing it."""
    transaction.on_commit(partial(enqueue, task, *args, **kwargs))
