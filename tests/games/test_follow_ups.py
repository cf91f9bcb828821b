"""After-commit work (games.follow_ups): owed in the transaction, done once after commit, and done
later by the one sweeper when its task was lost (the broker down after the move committed)."""

import threading
from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.utils import timezone

from games import follow_ups, signals, tasks
from games.models import Event, FollowUp
from tests.factories import committed, finish_game, make_user, start_two_player_game

LATER = follow_ups.REQUEUE_AFTER + timedelta(seconds=1)


def test_the_computers_turn_lost_with_its_task_is_swept(db, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):  # the task is never queued
        game = start_two_player_game(players=[make_user(password=None), None])
    assert not Event.objects.filter(game=game, seat=1, kind="discard").exists()
    assert follow_ups.due(timezone.now()) == []  # its task may still be on its way
    later = timezone.now() + LATER
    with time_machine.travel(later), django_capture_on_commit_callbacks(execute=True):
        assert tasks.sweep.apply().get() == 2  # the computer's turn, and the human's deal email lost with it
    assert Event.objects.filter(game=game, seat=1, kind="discard", source="computer").count() == 1
    assert follow_ups.due(later + LATER) == []  # the human is to act now


@pytest.fixture
def listeners():
    """Two listeners of a finished game, for the test only: one that fails until told otherwise."""
    heard, failing = [], [True]

    def flaky(game_id):
        if failing[0]:
            raise RuntimeError("the listener's database is away")
        heard.append(("flaky", game_id))

    signals.game_finished.listen("test.steady", lambda game_id: heard.append(("steady", game_id)))
    signals.game_finished.listen("test.flaky", flaky)
    yield heard, failing
    for name in ("test.steady", "test.flaky"):
        signals.game_finished.stop_listening(name)


def test_a_failing_listener_is_retried_alone_and_holds_up_no_other(db, listeners):
    heard, failing = listeners
    game = start_two_player_game()
    with committed():
        finish_game(game, 0)  # its follow-ups were owed in the finishing transaction
    assert ("steady", game.pk) in heard and ("flaky", game.pk) not in heard
    flaky = FollowUp.objects.get(listener="test.flaky", object_id=game.pk)
    assert flaky.done_at is None and flaky.attempts == 1 and "away" in flaky.last_error
    others = FollowUp.objects.filter(object_id=game.pk).exclude(listener="test.flaky")
    assert others.count() >= 4 and all(row.done_at for row in others)  # ladders, tournaments, ratings, steady
    failing[0] = False
    with time_machine.travel(flaky.next_try_at - timedelta(seconds=1)):
        assert tasks.sweep.apply().get() == 0  # not before its next try
    with time_machine.travel(flaky.next_try_at + timedelta(seconds=1)):
        assert tasks.sweep.apply().get() == 1
    assert heard.count(("flaky", game.pk)) == 1 and heard.count(("steady", game.pk)) == 1
    flaky.refresh_from_db()
    assert flaky.done_at and flaky.attempts == 2


def test_a_follow_up_run_twice_is_done_once(db, listeners, django_capture_on_commit_callbacks):
    heard, failing = listeners
    failing[0] = False
    with django_capture_on_commit_callbacks(execute=False):
        game = start_two_player_game()
        finish_game(game, 0)
    (row,) = FollowUp.objects.filter(listener="test.steady", object_id=game.pk)
    assert follow_ups.run(row.pk) is True
    assert follow_ups.run(row.pk) is None  # a second task for it (or the sweeper's) does nothing
    assert heard.count(("steady", game.pk)) == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_follow_up_drained_twice_at_once_is_done_once(listeners):
    """Two workers drain the same row at the same moment: one claims it, the other does nothing."""
    heard, failing = listeners
    failing[0] = False
    entered, release = threading.Barrier(2), threading.Event()

    def slow(game_id):
        release.wait(10)
        heard.append(("slow", game_id))

    signals.game_finished.listen("test.slow", slow)
    try:
        game = start_two_player_game()
        row = FollowUp(topic="game_finished", listener="test.slow", key="t", object_id=game.pk)
        row.next_try_at = timezone.now()
        row.save()
        results = []

        def drain():
            entered.wait(10)
            try:
                results.append(follow_ups.run(row.pk))
            finally:
                connection.close()

        workers = [threading.Thread(target=drain) for _ in range(2)]
        for worker in workers:
            worker.start()
        entered_at = timezone.now()
        while not any(r is None for r in results) and timezone.now() - entered_at < timedelta(seconds=10):
            threading.Event().wait(0.05)
        release.set()
        for worker in workers:
            worker.join(10)
    finally:
        signals.game_finished.stop_listening("test.slow")
    assert sorted(results, key=str) == [None, True]
    assert heard.count(("slow", game.pk)) == 1
    row.refresh_from_db()
    assert row.done_at and row.attempts == 1


def test_a_lost_drain_is_recovered_by_the_one_sweeper(db, listeners, django_capture_on_commit_callbacks):
    heard, failing = listeners
    failing[0] = False
    with django_capture_on_commit_callbacks(execute=False):  # the drain is never queued
        game = start_two_player_game()
        finish_game(game, 0)
    assert heard == [] and FollowUp.objects.filter(object_id=game.pk, done_at__isnull=True).count() >= 5
    assert tasks.sweep.apply().get() == 0  # its task may still be on its way
    with time_machine.travel(timezone.now() + LATER):
        assert tasks.sweep.apply().get() >= 5  # every listener's row
        assert tasks.sweep.apply().get() == 0  # done: a second sweep finds nothing
    assert sorted(heard) == [("flaky", game.pk), ("steady", game.pk)]
    assert not FollowUp.objects.filter(object_id=game.pk, done_at__isnull=True).exists()


def test_a_kick_queues_the_message_celery_would(celery_on_redis):
    """The after-commit kick publishes, for each row, the message `task.delay(row_id)` would (its
    own task id aside), made once (games.kicks), on the task's queue."""
    import base64
    import json

    import redis

    from mail import outbox
    from mail import tasks as mail_tasks
    from tests import services

    broker = redis.Redis.from_url(services.REDIS_URL)
    try:
        mail_tasks.send_outbound.delay(41)
        assert follow_ups.enqueue_all(outbox.QUEUE, [41, 42]) == 2
        sent = [json.loads(raw) for raw in reversed(broker.lrange(celery_on_redis, 0, -1))]
    finally:
        broker.delete(celery_on_redis)
    ids = set()
    for message in sent:
        message["body"] = json.loads(base64.b64decode(message["body"]))
        ids.add(message["headers"]["id"])
        assert message["headers"]["root_id"] == message["properties"]["correlation_id"] == message["headers"]["id"]
        for part, key in (("headers", "id"), ("headers", "root_id"), ("properties", "correlation_id")):
            message[part][key] = "-"
        message["properties"]["delivery_tag"] = "-"
    by_delay, first, second = sent
    assert len(ids) == 3 and first == by_delay
    assert second["body"][0] == [42] and second["headers"]["argsrepr"] == "(42,)"


def test_kicks_publish_with_the_producer_the_process_keeps(celery_on_redis):
    """One producer is kept from the pool for the kicks (its channel open); a thread publishing
    while it is in use takes one from the pool; one that failed is given back and forgotten."""
    import redis

    from cribsite.celery import app
    from games import kicks
    from mail import outbox
    from tests import services

    broker = redis.Redis.from_url(services.REDIS_URL)
    try:
        with kicks.producer_of(app) as first:
            pass
        with kicks.producer_of(app) as again:
            with kicks.producer_of(app) as meanwhile:
                assert meanwhile is not again
        assert again is first and kicks._kept[0][1] is first
        assert follow_ups.enqueue_all(outbox.QUEUE, [41, 42]) == 2
        assert broker.llen(celery_on_redis) == 2 and kicks._kept[0][1] is first
        with pytest.raises(RuntimeError), kicks.producer_of(app):
            raise RuntimeError("the broker went away")
        assert kicks._kept[0] is None
        assert follow_ups.enqueue_all(outbox.QUEUE, [43]) == 1 and broker.llen(celery_on_redis) == 3
    finally:
        broker.delete(celery_on_redis)
