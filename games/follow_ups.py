"""After-commit work, for games and every app above it: owed in the transaction, done after commit.

Saved means success: once a move (or any change) has committed, nothing that
happens after it may turn its answer into an error, and nothing it owes may be
lost. So the work a transaction owes is a row written in that transaction, a
task is queued for it once the transaction commits, and one periodic sweeper
(`sweep`, beat "after-commit-sweep") queues again whatever a lost task (the
broker down, a worker killed) left.

The rows live in queues, each with its Celery task (taking one row's id) and
its `due` query (what the sweeper takes):

- the generic queue, `FollowUp` rows: a `Topic` (like a signal) has listeners
  registered from above (`game_finished.listen("ladders.count_game", handler)`
  in the listener's AppConfig.ready()), and `Topic.owe(object_id)` writes one
  row per listener, so a listener that fails is retried alone (with growing
  waits) and never holds up another; a row is claimed before its handler runs,
  so two tasks for it do it once, and handlers are idempotent, so a worker
  killed in the middle only means it is done again;
- tables whose rows already are the durable record of the work, with a richer
  life of their own (the outbox: retries, holds, giving up; the stored
  replies), register as queues with their own task and `due` query
  (`register_queue`), and queue their rows with `after_commit`.
"""

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from typing import Any

from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from games import kicks, statements
from games.models import FollowUp

log = logging.getLogger(__name__)

FOLLOW_UPS = "follow_ups"  # the generic queue's name
REQUEUE_AFTER = timedelta(minutes=2)  # owed this long and not done: its task was lost
LEASE = timedelta(minutes=10)  # a claimed row not done by then: its worker died
LONGEST_WAIT = timedelta(hours=1)  # between tries of a listener that keeps failing
KEEP_DONE = timedelta(days=1)  # done rows are forgotten after this
BATCH = 200


@dataclass(frozen=True)
class Queue:
    task: Any  # a Celery task taking one row's id
    due: Callable  # due(now, limit) -> the ids the sweeper queues again
    worth: Callable | None = None  # worth(ids) -> those the sweeper finds still need a task


class Later(Exception):  # noqa: N818  (not an error: a handler's "not before `at`")
    """Raised by a handler that may not act yet: its row is taken again at `at`, not counted as a failure."""

    def __init__(self, at):
        super().__init__(f"not before {at}")
        self.at = at


_queues: dict[str, Queue] = {}
_listeners: dict[str, dict[str, Callable]] = {}


def register_queue(name, *, task, due, worth=None):
    """Have `task(id)` run for the rows `after_commit(name, ...)` names, and the sweeper queue
    `due(now, limit)` again. `worth(ids)`: of those due, the ids that still need a task (the
    others are settled there, with no task): a row that waited may no longer be needed."""
    _queues[name] = Queue(task, due, worth)


class Topic:
    """What a lower app announces as durable work: each listener gets its own row."""

    def __init__(self, name):
        self.name = name

    def listen(self, listener, handler):
        """Call `handler(object_id)` (or `handler(object_id, seq)` when owed with a seq) for every
        row of this topic owed to `listener` (a unique name, "app.what")."""
        _listeners.setdefault(self.name, {})[listener] = handler

    def stop_listening(self, listener):
        _listeners.get(self.name, {}).pop(listener, None)

    def listeners(self):
        return dict(_listeners.get(self.name, {}))

    def owe(self, object_id, seq=None, after=None):
        """In the caller's transaction: a row per listener, drained after commit (or, `after` a
        wait, by the sweeper once it is over). Returns the keys."""
        return owe(self.name, object_id, seq=seq, after=after)


def owe(topic, object_id, *, seq=None, after=None, listeners=None):
    """Write the rows of `topic` about `object_id` (and `seq`) for each of its listeners, once
    each (by key), and queue their tasks once the transaction commits; `after` (a timedelta):
    not before then, so no task now, the sweeper's when it is due; `listeners`: only these (a
    row one listener lost, owed again without the others'). The one writer of FollowUp rows; no
    network I/O, so safe under any lock."""
    now = timezone.now()
    suffix = f"{object_id}" if seq is None else f"{object_id}:{seq}"
    rows = [
        FollowUp(
            topic=topic,
            listener=listener,
            key=f"{topic}:{listener}:{suffix}",
            object_id=object_id,
            seq=seq,
            next_try_at=now + (after or REQUEUE_AFTER),
            created_at=now,
        )
        for listener in sorted(_listeners.get(topic, ()))
        if listeners is None or listener in listeners
    ]
    if not rows:
        return []
    keys = [row.key for row in rows]
    # FollowUp.objects.bulk_create(rows, ignore_conflicts=True), written out, saying which rows are
    # new (with a move's other writes when it is one's: games.trips.one_trip).
    statements.insert_new(rows, by="key", then=partial(_queue_owed, rows, keys, after))
    return keys


def _queue_owed(rows, keys, after, new):
    if after:  # the sweeper's, when its wait is over
        return
    if new is not None and len(new) == len(rows):
        # Every row is new, written in this transaction: none is done at its commit, so their ids
        # are queued without reading them again.
        after_commit(FOLLOW_UPS, [row.pk for row in rows])
    else:
        after_commit(
            FOLLOW_UPS, lambda: FollowUp.objects.filter(key__in=keys, done_at__isnull=True).values_list("pk", flat=True)
        )


def after_commit(queue, ids):
    """Once the current transaction commits (at once outside one), queue the task of `queue` for
    `ids` (a list, or a callable giving it then). Never fails the committed work: whatever goes
    wrong after the commit (the broker or the database gone) is logged, and the sweeper does it."""
    transaction.on_commit(lambda: enqueue_all(queue, ids() if callable(ids) else ids), robust=True)


def enqueue_all(queue, ids):
    """Queue the task of `queue` for each of `ids`; how many were queued. Stops at the first the
    broker refuses: the sweeper takes them all again."""
    task = _queues[queue].task
    ids = list(ids)
    if not ids:
        return 0
    # The task itself, once: a shared task is a proxy that finds it again at every attribute.
    resolve = getattr(task, "_get_current_object", None)
    if resolve is not None:
        task = resolve()
    if task.app.conf.task_always_eager:
        for count, row_id in enumerate(ids):
            if not enqueue(task, row_id):
                return count
        return len(ids)
    count = 0
    try:
        # One producer for them all, each message Celery's own for the task made once and copied
        # (kicks.py): `task.delay` builds it, routes it and takes a producer again for every row.
        message = kicks.message_of(task)
        with kicks.producer_of(task.app) as producer:
            for row_id in ids:
                kicks.send(producer, message, row_id)
                count += 1
    except Exception:  # kombu's OperationalError, a refused connection, a full queue, ...
        log.exception("Could not queue %s(%r); the sweeper will do it later.", task.name, ids[count])
    return count


def enqueue(task, *args, **kwargs):
    """Queue `task` now; True if queued, False (logged) if the broker could not take it."""
    try:
        task.delay(*args, **kwargs)
    except Exception:  # kombu's OperationalError, a refused connection, a full queue, ...
        log.exception("Could not queue %s%r; the sweeper will do it later.", task.name, args)
        return False
    return True


def sweep(now=None, limit=BATCH):
    """Queue again, in every queue, what its tasks left undone (a bounded batch each); forget the
    follow-ups done long ago. How many were queued."""
    now = now or timezone.now()
    queued = 0
    for name, queue in list(_queues.items()):
        ids = queue.due(now, limit)
        if ids and queue.worth is not None:
            ids = queue.worth(ids)
        if ids:
            count = enqueue_all(name, ids)
            log.info("Queued again %d of %d rows of %s.", count, len(ids), name)
            queued += count
    forget_done(now)
    return queued


# --- The generic queue ----------------------------------------------------------------


def due(now, limit=BATCH):
    """Ids of the follow-ups the sweeper queues: owed and not done by their next try (their task
    was lost, or a listener failed and waited), and not claimed by a live task. Their next try
    moves on, so the next sweep leaves them to the tasks now queued; two sweepers at once take
    different rows on PostgreSQL (SKIP LOCKED)."""
    with transaction.atomic():
        rows = FollowUp.objects.filter(
            Q(claimed_until__isnull=True) | Q(claimed_until__lt=now), done_at__isnull=True, next_try_at__lte=now
        ).order_by("next_try_at")
        if connection.features.has_select_for_update_skip_locked:
            rows = rows.select_for_update(skip_locked=True)
        ids = list(rows.values_list("pk", flat=True)[:limit])
        FollowUp.objects.filter(pk__in=ids).update(next_try_at=now + REQUEUE_AFTER)
    return ids


def run(follow_up_id, now=None):
    """Do one follow-up once: True done, False failed (tried again later), None not this caller's
    (done already, or another task has it)."""
    now = now or timezone.now()
    claimed = FollowUp.objects.filter(
        Q(claimed_until__isnull=True) | Q(claimed_until__lt=now), pk=follow_up_id, done_at__isnull=True
    ).update(claimed_until=now + LEASE, attempts=F("attempts") + 1)
    if not claimed:
        return None
    row = FollowUp.objects.get(pk=follow_up_id)
    handler = _listeners.get(row.topic, {}).get(row.listener)
    try:
        if handler is None:
            raise LookupError(f"no listener {row.listener!r} of {row.topic!r}")
        handler(row.object_id) if row.seq is None else handler(row.object_id, row.seq)
    except Later as later:
        FollowUp.objects.filter(pk=row.pk).update(claimed_until=None, next_try_at=later.at)
        return False
    except Exception as exc:
        log.exception("Follow-up %s failed (attempt %d); tried again later.", row.key, row.attempts)
        FollowUp.objects.filter(pk=row.pk).update(
            claimed_until=None, next_try_at=timezone.now() + retry_delay(row.attempts), last_error=repr(exc)[:2000]
        )
        return False
    FollowUp.objects.filter(pk=row.pk).update(claimed_until=None, done_at=timezone.now(), last_error="")
    return True


def retry_delay(attempts):
    """How long after its `attempts`-th failed try a follow-up is tried again: 2, 4, 8 ... minutes, at most an hour."""
    return min(REQUEUE_AFTER * 2 ** max(attempts - 1, 0), LONGEST_WAIT)


def forget_done(now, limit=1000):
    ids = list(FollowUp.objects.filter(done_at__lt=now - KEEP_DONE).values_list("pk", flat=True)[:limit])
    return FollowUp.objects.filter(pk__in=ids).delete()[0] if ids else 0
