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
def celery_on_redis(transactional_db):
    """Celery sending through the real Redis broker (not eager), on a queue of this test's own
    (so parallel test processes never take each other's tasks). Yields the queue's name."""
    import uuid

    from cribsite.celery import app

    if not services.redis_reachable():
        services.missing(f"needs Redis at {services.REDIS_URL}")
    saved = {key: app.conf[key] for key in ("task_always_eager", "broker_url", "result_backend", "task_default_queue")}
    queue = f"test-{uuid.uuid4().hex[:12]}"
    app.conf.update(
        task_always_eager=False,
        broker_url=services.REDIS_URL,
        result_backend=services.REDIS_URL,
        task_default_queue=queue,
    )
    _drop_connection_pools(app)
    try:
        yield queue
    finally:
        app.conf.update(saved)
        _drop_connection_pools(app)


@pytest.fixture
def celery_worker_on_redis(celery_on_redis):
    """A real Celery worker (in a thread) consuming from the real Redis broker.

    Tasks sent meanwhile go through Redis, not eager mode.
    """
    from celery.contrib.testing.worker import start_worker

    from cribsite.celery import app

    with start_worker(
        app, pool="solo", concurrency=1, perform_ping_check=False, shutdown_timeout=10, queues=[celery_on_redis]
    ) as worker:
        yield worker


@pytest.fixture
def celery_worker_process(celery_on_redis, settings, tmp_path):
    """Start real workers (`celery -A cribsite worker`) in subprocesses, on the test database,
    this test's queue and its mail settings: `start()` -> a Popen, ready to take tasks."""
    import os
    import subprocess
    import sys
    import time
    from pathlib import Path

    from django.db import connection

    db = connection.settings_dict
    started = []

    def start(timeout=30):
        log = tmp_path / f"worker-{len(started)}.log"
        env = {
            **os.environ,
            "DEBUG": "1",
            "PYTHONUNBUFFERED": "1",
            "DATABASE_URL": f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST'] or '127.0.0.1'}:"
            f"{db['PORT'] or 5432}/{db['NAME']}",
            "CELERY_BROKER_URL": services.REDIS_URL,
            "CELERY_QUEUE": celery_on_redis,
            "EMAIL_BACKEND": settings.EMAIL_BACKEND,
            "EMAIL_HOST": settings.EMAIL_HOST or "",
            "EMAIL_PORT": str(settings.EMAIL_PORT),
        }
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "cribsite",
                "worker",
                "--pool=solo",
                "--concurrency=1",
                "-Q",
                celery_on_redis,
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "-n",
                f"{celery_on_redis}-{len(started)}@%h",
                "-l",
                "info",
            ],
            cwd=Path(__file__).resolve().parent.parent,
            env=env,
            stdout=log.open("w"),
            stderr=subprocess.STDOUT,
        )
        started.append(process)
        deadline = time.monotonic() + timeout
        while " ready." not in log.read_text():
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the worker did not start:\n{log.read_text()[-3000:]}")
            time.sleep(0.1)
        process.log = log
        return process

    yield start
    for process in started:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


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
    """The per-address counts (accounts.ratelimit) live in the cache: each test starts with none;
    nor with this process's memory of the looking marks it put there (games.visits)."""
    try:
        request.getfixturevalue("settings")
    except pytest.FixtureLookupError:  # pytest-django not loaded (engine-only runs)
        return
    from django.core.cache import cache

    from games import visits

    cache.clear()
    visits._marked.clear()


@pytest.fixture
def database_dump(db):
    """A function: every row of the project's own tables (accounts, games, mail, clock,
    ladders), by model, to show that a refused request changed nothing. `leave_out` names
    models (e.g. "mail.InboundEmail") whose rows a refusal may write (the message kept, the
    answer's window)."""
    from django.apps import apps

    def dump(leave_out=()):
        return {
            model._meta.label: list(model._default_manager.order_by("pk").values())
            for label in ("accounts", "games", "mail", "clock", "ladders")
            for model in apps.get_app_config(label).get_models()
            if model._meta.label not in leave_out
        }

    return dump


@pytest.fixture
def seeded_shuffles(monkeypatch):
    """Deterministic deals, so games finished by tests.factories.finish_game play out the same."""
    import random

    from games import services as game_services

    monkeypatch.setattr(game_services, "_shuffler", random.Random(11))


@pytest.fixture
def no_review_worked_out(monkeypatch):
    """The engine's review of a finished game (the worker's work, games.reviews), failing the test
    if anything calls it: a page or an email that must only read the stored review."""
    from games.cribbage import coach

    def worked_out(*args, **kwargs):
        raise AssertionError("a finished game's review was worked out here, not by the worker")

    monkeypatch.setattr(coach, "game_review", worked_out)
    monkeypatch.setattr(coach, "luck_and_skill", worked_out)
    monkeypatch.setattr("games.chances.chance_review", worked_out)
    return monkeypatch


@pytest.fixture
def organisers(db):
    """Two staff members, each to organise an event of their own."""
    from tests.factories import make_user

    return make_user(is_staff=True, display_name="Olive"), make_user(is_staff=True, display_name="Oscar")
