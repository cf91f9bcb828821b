import pytest
from django.test import Client, TestCase

from tests import services


@pytest.fixture(autouse=True)
def _require_marked_services(request):
    """Skip (or, in CI, fail) tests whose real service is not here."""
    if request.node.get_closest_marker("postgres") and not _on_postgres():
        services.missing("needs PostgreSQL: run with DATABASE_URL=postgres://... (as .ci/run does)")
    if request.node.get_closest_marker("redis") and not services.redis_reachable():
        services.missing(f"needs Redis at {services.REDIS_URL}")
    if request.node.get_closest_marker("browser") and not services.chromium_path():
        services.missing("needs Chromium (apt-get install chromium), as .ci/run installs it")


def _on_postgres():
    from django.db import connection

    return connection.vendor == "postgresql"


@pytest.fixture
def celery_worker_on_redis(transactional_db):
    """A real Celery worker (in a thread) consuming from the real Redis broker.

    Each test gets its own queue so parallel test processes never take each
    other's tasks. Tasks sent meanwhile go through Redis, not eager mode.
    """
    import uuid

    from celery.contrib.testing.worker import start_worker

    from cribsite.celery import app

    if not services.redis_reachable():
        services.missing(f"needs Redis at {services.REDIS_URL}")
    saved = {key: app.conf[key] for key in
             ("task_always_eager", "broker_url", "result_backend", "task_default_queue")}
    queue = f"test-{uuid.uuid4().hex[:12]}"
    app.conf.update(task_always_eager=False, broker_url=services.REDIS_URL,
                    result_backend=services.REDIS_URL, task_default_queue=queue)
    _drop_connection_pools(app)
    try:
        with start_worker(app, pool="solo", concurrency=1, perform_ping_check=False,
                          shutdown_timeout=10, queues=[queue]) as worker:
            yield worker
    finally:
        app.conf.update(saved)
        _drop_connection_pools(app)


def _drop_connection_pools(app):
    """Forget connections (and the result backend) made under the previous configuration."""
    app._pool = None
    app.amqp._producer_pool = None
    app._local.__dict__.pop("backend", None)  # Celery caches the backend per thread


@pytest.fixture(autouse=True)
def _fast_password_hashing(request):
    """Hashing with a million PBKDF2 rounds costs half a second a user; tests need no strength."""
    try:
        settings = request.getfixturevalue("settings")
    except pytest.FixtureLookupError:  # pytest-django not loaded (engine-only runs)
        return
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


class _CommittingClient(Client):
    """The test client, with each request ending as it does in production: what the view queued
    with transaction.on_commit (the outbox's sending) runs when the response is made, although the
    test's own transaction never commits."""

    def request(self, **request):
        with TestCase.captureOnCommitCallbacks(execute=True):
            return super().request(**request)


@pytest.fixture
def client():
    return _CommittingClient()


@pytest.fixture(autouse=True)
def _fresh_rate_limits(request):
    """The per-address counts (accounts.ratelimit) live in the cache: each test starts with none."""
    try:
        request.getfixturevalue("settings")
    except pytest.FixtureLookupError:  # pytest-django not loaded (engine-only runs)
        return
    from django.core.cache import cache

    cache.clear()
