"""Play by email speed: from a move to its turn email accepted by an SMTP server.

Real parts: one Celery worker (a thread, solo pool) on the real Redis broker,
an aiosmtpd server on 127.0.0.1, PostgreSQL when DATABASE_URL is set (else a
SQLite file). It creates its own throwaway test database.

- latency: a move is committed (the second discard, so the pone must play),
  then the clock runs until the pone's turn email is accepted by the SMTP
  server; median and 99th percentile over many games, one at a time.
- throughput: many games move at once; turn emails accepted per second.
- baseline: a bare django.core.mail.send_mail over the same SMTP server.

Run alone: `python -m bench mail`. Set DB_CONN_MAX_AGE (e.g. 600) as production
should: without persistent connections the worker reconnects to PostgreSQL for
every task.
"""

import os
import random
import statistics
import time
import uuid

LATENCY_GAMES = 50
BURST_GAMES = 100
BARE_SENDS = 150


def _percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))]


def _ms(values):
    return f"median {statistics.median(values) * 1000:7.1f} ms   p99 {_percentile(values, 99) * 1000:7.1f} ms"


def main():
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cribsite.settings")
    django.setup()
    from tests import services as test_services

    if not test_services.redis_reachable():
        print(f"skipped: needs Redis at {test_services.REDIS_URL}")
        return
    from django.conf import settings
    from django.db import connection
    from django.test.utils import setup_test_environment, teardown_test_environment

    setup_test_environment()
    if connection.vendor == "sqlite":  # a file, so the worker thread sees the same database
        connection.settings_dict["TEST"]["NAME"] = f"/tmp/bench-mail-{uuid.uuid4().hex[:8]}.sqlite3"
        connection.settings_dict["OPTIONS"].update(timeout=30, transaction_mode="IMMEDIATE")
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        _run(settings, connection.vendor)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        teardown_test_environment()


def _run(settings, vendor):
    from celery.contrib.testing.worker import start_worker
    from django.core.mail import send_mail

    from cribsite.celery import app
    from games import lifecycle, services
    from games.selectors import view_for
    from tests import services as test_services
    from tests.factories import make_user
    from tests.mail.smtp_sink import SmtpSink

    queue_name = f"bench-{uuid.uuid4().hex[:8]}"
    app.conf.update(
        task_always_eager=False,
        broker_url=test_services.REDIS_URL,
        result_backend=test_services.REDIS_URL,
        task_default_queue=queue_name,
    )
    app._pool = None
    app.amqp._producer_pool = None
    with (
        SmtpSink() as sink,
        start_worker(
            app, pool="solo", concurrency=1, perform_ping_check=False, shutdown_timeout=10, queues=[queue_name]
        ),
    ):
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_USE_TLS = "127.0.0.1", sink.port, False
        settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
        print(f"database: {vendor}; broker: {test_services.REDIS_URL}; one worker (solo pool)")

        def new_game():
            players = [make_user(password=None), make_user(password=None)]
            game = lifecycle.start_game(players=players, rng=random.Random())
            services.submit_move(game, 0, view_for(game, 0).legal_moves[0])
            game.refresh_from_db()
            return game

        def drain():
            """Wait for the worker to finish the outbox, then forget what the sink holds."""
            from mail.models import OutboundEmail

            deadline = time.monotonic() + 120
            while OutboundEmail.objects.filter(status__in=["ready", "sending"]).exists():
                if time.monotonic() > deadline:
                    raise RuntimeError("the worker did not empty the outbox")
                time.sleep(0.1)
            time.sleep(0.5)
            while not sink.received.empty():
                sink.received.get()

        # Warm up (imports, templates, the discard tables) and set the games up.
        games = [new_game() for _ in range(LATENCY_GAMES + BURST_GAMES)]
        drain()

        latencies = []
        for game in games[:LATENCY_GAMES]:
            move = view_for(game, 1).legal_moves[0]
            start = time.perf_counter()
            services.submit_move(game, 1, move)
            accepted, _, _ = sink.next(timeout=30)
            latencies.append(accepted - start)
        print(f"move -> turn email accepted by SMTP ({LATENCY_GAMES} games, one at a time): {_ms(latencies)}")

        burst = games[LATENCY_GAMES:]
        moves = [view_for(game, 1).legal_moves[0] for game in burst]
        start = time.perf_counter()
        for game, move in zip(burst, moves):
            services.submit_move(game, 1, move)
        committed = time.perf_counter() - start
        for _ in burst:
            last, _, _ = sink.next(timeout=60)
        elapsed = last - start
        print(
            f"{BURST_GAMES} games move at once: all turn emails accepted in {elapsed:.2f} s "
            f"({BURST_GAMES / elapsed:.0f} notifications/s; the moves themselves took {committed:.2f} s)"
        )

        bare = []
        for n in range(BARE_SENDS):
            start = time.perf_counter()
            send_mail(f"bare {n}", "body", settings.DEFAULT_FROM_EMAIL, ["someone@example.com"])
            accepted, _, _ = sink.next(timeout=30)
            bare.append(accepted - start)
        print(
            f"bare send_mail over the same SMTP server ({BARE_SENDS} sends): {_ms(bare)} "
            f"({BARE_SENDS / sum(bare):.0f}/s one at a time)"
        )


if __name__ == "__main__":
    main()
