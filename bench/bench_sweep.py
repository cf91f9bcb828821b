"""The deadline sweep (clock.timeouts.sweep) and the reminder sweep over 100,000 active games.

Runs in a throwaway test database (DATABASE_URL must point at PostgreSQL; on
SQLite it says so and stops). The games are bulk-inserted in SQL from one real
dealt game; 1% of them are past their deadline. The clock's emails are queued as tasks (to
an in-memory broker nobody reads), as in production. Prints the query plans (they
must use the partial indexes on Seat.deadline / Seat.remind_at, not scan),
the time and the number of queries. Asserts nothing.
"""

import os
import time

import django

GAMES = 100_000
OVERDUE_EVERY = 100  # two games in 100 are past their deadline (id % 100 in {0, 1})


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cribsite.settings")
    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases

    from cribsite.celery import app

    if connection.vendor != "postgresql":
        print("bench_sweep needs PostgreSQL: run with DATABASE_URL=postgres://... (skipped)")
        return
    # Follow-up tasks are queued to a broker nobody reads; emails stay in memory.
    app.conf.update(task_always_eager=False, broker_url="memory://", result_backend="cache+memory://")
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    old = setup_databases(verbosity=0, interactive=False, serialized_aliases=())
    try:
        _run()
    finally:
        teardown_databases(old, verbosity=0)


def _columns(model, skip):
    return [f.column for f in model._meta.concrete_fields if f.column not in skip]


def _setup():
    from django.db import connection
    from django.utils import timezone

    from accounts.models import User
    from games import cribbage, lifecycle, services
    from games.models import Game, Seat

    players = [
        User.objects.create_user(
            f"sweep{i}@example.com", None, display_name=f"S{i}", allow_forced_moves=False, vacation_days=0
        )
        for i in range(2)
    ]
    template = lifecycle.start_game(players=players, days_per_move=3)
    state = services.engine_state(template)
    services.submit_move(template, 0, cribbage.legal_moves(state, 0)[0])
    now = timezone.now()
    game_cols = _columns(Game, {"id"})
    seat_cols = _columns(Seat, {"id", "game_id", "to_act", "deadline", "turn_started_at", "remind_at"})
    start = time.perf_counter()
    with connection.cursor() as cursor:
        cols = ", ".join(game_cols)
        cursor.execute(
            f"INSERT INTO games_game ({cols}) SELECT {cols} FROM games_game, generate_series(1, %s) WHERE id = %s",
            [GAMES, template.pk],
        )
        cols = ", ".join(seat_cols)
        source = ", ".join(f"s.{c}" for c in seat_cols)
        cursor.execute(
            f"""INSERT INTO games_seat (game_id, to_act, deadline, turn_started_at, remind_at, {cols})
            SELECT g.id, s.number = 1,
                   CASE WHEN s.number = 1 THEN %(now)s + ((g.id %% {OVERDUE_EVERY}) - 1) * interval '1 hour' END,
                   CASE WHEN s.number = 1 THEN %(now)s - interval '2 days' END,
                   CASE WHEN s.number = 1 THEN %(now)s + ((g.id %% {OVERDUE_EVERY}) - 13) * interval '1 hour' END,
                   {source}
            FROM games_game g JOIN games_seat s ON s.game_id = %(template)s
            WHERE g.id <> %(template)s""",
            {"now": now, "template": template.pk},
        )
        cursor.execute("ANALYZE games_game; ANALYZE games_seat; ANALYZE games_event")
    print(f"setup: {GAMES:,} games and {2 * GAMES:,} seats inserted in {time.perf_counter() - start:.1f} s")
    return now


def _timed(label, fn):
    from django.db import connection

    count = [0]

    def counting(execute, sql, params, many, context):
        count[0] += 1
        return execute(sql, params, many, context)

    with connection.execute_wrapper(counting):
        start = time.perf_counter()
        result = fn()
        elapsed = time.perf_counter() - start
    print(f"{label}: {elapsed * 1000:.1f} ms, {count[0]} queries -> {result}")
    return result, elapsed, count[0]


def _run():
    from clock import reminders, timeouts
    from games.models import Game, Seat

    now = _setup()
    due = Game.objects.filter(status=Game.Status.ACTIVE, seats__to_act=True, seats__deadline__lte=now).count()
    print(
        f"database: postgresql; active games: {Game.objects.filter(status='active').count():,}; "
        f"past their deadline: {due:,}"
    )

    print("\nplan of the due-seats query (clock.timeouts.due_seats):")
    plan = (
        Seat.objects.filter(to_act=True, deadline__lte=now)
        .order_by("deadline")
        .values_list("pk", "game_id")[: timeouts.BATCH]
        .explain(analyze=True)
    )
    print("  " + plan.replace("\n", "\n  "))
    print("\nplan of the due-reminders query (clock.reminders.due_reminders):")
    plan = (
        Seat.objects.filter(to_act=True, remind_at__lte=now)
        .order_by("remind_at")
        .values_list("pk", flat=True)[: reminders.BATCH]
        .explain(analyze=True)
    )
    print("  " + plan.replace("\n", "\n  "))
    print()

    _timed(f"due_seats (one batch of {timeouts.BATCH})", lambda: len(timeouts.due_seats(now)))
    _, elapsed, queries = _timed(f"sweep of {due:,} overdue games (forfeits)", lambda: timeouts.sweep(now=now))
    print(f"  per overdue game: {elapsed / max(due, 1) * 1000:.2f} ms, {queries / max(due, 1):.1f} queries")
    _timed("sweep again (nothing due: one indexed query)", lambda: timeouts.sweep(now=now))
    _, elapsed, queries = _timed(
        f"reminder sweep, one batch of {reminders.BATCH} (emails rendered with every move link)",
        lambda: reminders.send_due_reminders(now=now),
    )
    print(f"  per reminder: {elapsed / reminders.BATCH * 1000:.1f} ms, {queries / reminders.BATCH:.1f} queries")
