"""A task's message made once a process and copied for each row it is queued for.

`task.delay(row_id)` costs the POST of a move about a third of a millisecond of CPU, most of it
Celery building the same message again: its headers, its route (each setting read through
Celery's layered configuration), the queue declared again, the AsyncResult nobody reads. The
after-commit kick (games.follow_ups.enqueue_all) sends one task with one argument, a row's id,
many times over: Celery makes its message once (`create_task_message`, as `delay` would), and
each kick changes only what differs, the task id and the argument, and publishes it with the
options Celery's `send_task_message` gives the producer. Eager mode (no broker) uses `delay`.
"""

import os
import threading
from contextlib import contextmanager

from kombu.utils.uuid import uuid

# (app, task name, queue, process id) -> the task's Message. The queue as the settings name it
# now (a test gives it another name); the process, as the message names its origin.
_made: dict = {}


class Message:
    """The parts of Celery's message for `task` that every kick shares, and how it is published."""

    def __init__(self, task):
        app, conf = task.app, task.app.conf
        options = {"ignore_result": task.ignore_result}
        if task.time_limit or task.soft_time_limit:
            options.update(time_limit=task.time_limit, soft_time_limit=task.soft_time_limit)
        headers, _, body, _ = app.amqp.create_task_message("", task.name, (0,), {}, **options)
        self.headers, self.embed = dict(headers), body[2]
        self.app = app
        queue = app.amqp.router.route({}, task.name, (), {}, task)["queue"]
        if queue.exchange.type == "direct":  # straight to the queue, as Celery sends it
            exchange, routing_key = "", queue.name
        else:
            exchange, routing_key = queue.exchange.name, queue.routing_key
        self.queue = queue
        self.options = {
            "exchange": exchange,
            "routing_key": routing_key,
            "serializer": task.serializer or conf.task_serializer,
            "compression": conf.task_compression,
            "retry": conf.task_publish_retry,
            "retry_policy": dict(conf.task_publish_retry_policy or {}),
            "delivery_mode": queue.exchange.delivery_mode or conf.task_default_delivery_mode,
        }
        self.declared = False


def message_of(task):
    """The task's Message, made once a process (and again when its queue is renamed)."""
    app = task.app
    key = (id(app), task.name, app.conf.task_default_queue, os.getpid())
    message = _made.get(key)
    if message is None:
        message = _made[key] = Message(task)
    return message


def send(producer, message, row_id):
    """Publish the task of `message` for `row_id` through `producer`; the task's id."""
    task_id = uuid()
    args = (row_id,)
    headers = {**message.headers, "id": task_id, "root_id": task_id, "argsrepr": repr(args)}
    # The queue is declared with the first message (the worker declares it too, as it starts).
    declare = None if message.declared else [message.queue]
    producer.publish(
        (args, {}, message.embed),
        headers=headers,
        correlation_id=task_id,
        reply_to=message.app.thread_oid,  # as send_task names it (the rpc backend's)
        declare=declare,
        **message.options,
    )
    message.declared = True
    return task_id


# The producer this process keeps: [pool, producer, lock, process id], or None.
_kept: list = [None]
_keeping = threading.Lock()


@contextmanager
def producer_of(app):
    """A producer of `app`'s pool to publish with: the one this process keeps from the pool, when
    no other thread is publishing with it; otherwise one taken from the pool and given back, as
    `app.producer_or_acquire()` does. Taking one from the pool costs more than its message (its
    channel is opened again each time: kombu's pool closes it as it takes it back). A kept producer
    that fails is given back to its pool and forgotten: the next kick takes another. A pool of one
    producer (or unlimited) is never kept from."""
    kept = _keep(app)
    if kept is None or not kept[2].acquire(blocking=False):
        with app.producer_or_acquire() as producer:
            yield producer
        return
    try:
        yield kept[1]
    except BaseException:
        _forget(kept)
        raise
    finally:
        kept[2].release()


def _keep(app):
    pool = app.producer_pool
    kept = _kept[0]
    if kept is not None and kept[0] is pool and kept[3] == os.getpid():
        return kept
    if not pool.limit or pool.limit < 2:
        return None
    with _keeping:
        kept = _kept[0]
        if kept is not None and kept[0] is pool and kept[3] == os.getpid():
            return kept
        if kept is not None and kept[3] == os.getpid():
            _forget(kept)  # (its pool was replaced: the broker's configuration changed)
        try:
            producer = pool.acquire(block=False)
        except Exception:  # the pool is spent (or the broker away): take one as Celery does
            return None
        kept = _kept[0] = [pool, producer, threading.Lock(), os.getpid()]
        return kept


def _forget(kept):
    if _kept[0] is kept:
        _kept[0] = None
    try:
        kept[1].release()
    except Exception:  # (a broken producer, or its pool gone)
        pass
