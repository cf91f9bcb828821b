"""A Celery worker keeps its database connection from one task to the next (CONN_MAX_AGE), as the
web does from one request to the next, and a connection that broke meanwhile is replaced before
the next task uses it (CONN_HEALTH_CHECKS): cribsite.celery and CELERY_DB_REUSE_MAX, since
Celery's Django fixup otherwise closes it around every task."""

import pytest
from django.db import connection

from mail.tasks import forget_old_mail

pytestmark = pytest.mark.redis


def _connections():
    """The backends connected to the test database other than this process's own."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return {pid for (pid,) in cursor.fetchall()}


def test_a_worker_keeps_its_connection_between_tasks_and_replaces_a_broken_one(celery_worker_process):
    if connection.vendor != "postgresql":
        pytest.skip("reads PostgreSQL's pg_stat_activity")
    others = _connections()  # an earlier test's (a worker thread's) are not this worker's
    celery_worker_process()
    assert forget_old_mail.delay().get(timeout=60) == 0
    (kept,) = _connections() - others  # still open after its task
    assert forget_old_mail.delay().get(timeout=60) == 0
    assert _connections() - others == {kept}  # the same one: no new connection a task

    with connection.cursor() as cursor:  # the server ends it between two tasks (a restart, a proxy)
        cursor.execute("SELECT pg_terminate_backend(%s)", [kept])
    assert forget_old_mail.delay().get(timeout=60) == 0  # checked, replaced, the task done
    (replaced,) = _connections() - others
    assert replaced != kept
