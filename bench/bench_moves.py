"""Moves through games.services.submit_move on PostgreSQL, beside a bare insert.

Runs in a throwaway test database (DATABASE_URL must point at PostgreSQL;
otherwise it says so and measures SQLite). Prints figures; asserts nothing.
"""

import json
import os
import random
import statistics
import threading
import time

import django


def _median_ms(samples):
    return statistics.median(samples) * 1000


def _p99_ms(samples):
    return sorted(samples)[int(len(samples) * 0.99) - 1] * 1000


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cribsite.settings")
    django.setup()
    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases

    from cribsite.celery import app

    # As in production the web process only enqueues the follow-ups; nothing
    # consumes this in-memory broker, so the figures are the move's own cost.
    app.conf.update(task_always_eager=False, broker_url="memory://", result_backend="cache+memory://")
    old = setup_databases(verbosity=0, interactive=False, serialized_aliases=())
    try:
        print(f"database: {connection.vendor}")
        _run()
    finally:
        teardown_databases(old, verbosity=0)


def _run():
    from django.db import connection, transaction

    from accounts.models import User
    from games import cribbage, lifecycle, services
    from games.models import Event, Game

    players = [
        User.objects.create_user(f"bench{i}@example.com", None, display_name=f"B{i}", allow_forced_moves=False)
        for i in range(8)
    ]

    def play_timed(game, rng, limit=None):
        """Play random legal moves to the end; the time of each submit_move."""
        times = []
        while not game.is_finished and (limit is None or len(times) < limit):
            state = services.engine_state(game)
            seat = cribbage.to_act(state)[0]
            move = rng.choice(cribbage.legal_moves(state, seat))
            start = time.perf_counter()
            result = services.submit_move(game, seat, move)
            times.append(time.perf_counter() - start)
            game = result.game
        return times

    # A bare insert of one row, each in its own transaction, as the yardstick.
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE bench_bare (id serial PRIMARY KEY, game integer, seq integer, data text)"
            if connection.vendor == "postgresql"
            else "CREATE TABLE bench_bare (id integer PRIMARY KEY, game integer, seq integer, data text)"
        )
    bare = []
    for i in range(2000):
        start = time.perf_counter()
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO bench_bare (game, seq, data) VALUES (%s, %s, %s)", [1, i, '{"kind": "play", "card": "5H"}']
            )
        bare.append(time.perf_counter() - start)

    rng = random.Random(5)
    one_game, snapshots, engine_work, queries = [], [], [], []
    for _ in range(8):
        game = lifecycle.start_game(players=players[:2], rng=rng)
        while not game.is_finished:
            state = services.engine_state(game)
            seat = cribbage.to_act(state)[0]
            move = {**rng.choice(cribbage.legal_moves(state, seat)), "seat": seat}
            # The rules engine's own share of a move: read the snapshot, apply, write it.
            start = time.perf_counter()
            after = cribbage.apply(cribbage.state_from_json(game.snapshot), move)
            snapshots.append(json.dumps(cribbage.state_to_json(after)))
            engine_work.append(time.perf_counter() - start)
            start = time.perf_counter()
            game = services.submit_move(game, seat, move).game
            one_game.append(time.perf_counter() - start)

    # Statements per move (BEGIN and COMMIT aside), counted apart: counting slows what it counts.
    def count(execute, *args):
        queries[-1] += 1
        return execute(*args)

    game = lifecycle.start_game(players=players[:2], rng=rng)
    while not game.is_finished:
        state = services.engine_state(game)
        seat = cribbage.to_act(state)[0]
        queries.append(0)
        with connection.execute_wrapper(count):
            game = services.submit_move(game, seat, rng.choice(cribbage.legal_moves(state, seat))).game

    # The same shape as a move, by hand in raw SQL, with the real snapshots of the
    # games above: lock the game row, append the event, write the snapshot, commit.
    # The floor any move service stands on, before it checks a single rule.
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE bench_game (id integer PRIMARY KEY, seq integer, snapshot "
            + ("jsonb" if connection.vendor == "postgresql" else "text")
            + ")"
        )
        cursor.execute("INSERT INTO bench_game VALUES (1, 0, '{}')")
    floor, snapshot_only = [], []
    for i, snapshot in enumerate(snapshots):
        start = time.perf_counter()
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SELECT seq FROM bench_game WHERE id = 1 FOR UPDATE")
            cursor.execute(
                "INSERT INTO bench_bare (game, seq, data) VALUES (%s, %s, %s)", [1, i, '{"kind": "play", "card": "5H"}']
            )
            cursor.execute("UPDATE bench_game SET seq = %s, snapshot = %s WHERE id = 1", [i, snapshot])
        floor.append(time.perf_counter() - start)
        start = time.perf_counter()
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("UPDATE bench_game SET seq = %s, snapshot = %s WHERE id = 1", [i, snapshot])
        snapshot_only.append(time.perf_counter() - start)

    bare_ms = statistics.median(bare)
    print(f"bare insert of one row:        median {_median_ms(bare):.3f} ms, p99 {_p99_ms(bare):.3f} ms")
    print(
        f"submit_move, one game at once: median {_median_ms(one_game):.3f} ms, p99 {_p99_ms(one_game):.3f} ms"
        f" -> {1 / statistics.mean(one_game):.0f} moves/s ({len(one_game)} moves,"
        f" {statistics.median(queries):.0f} statements each (median; at most {max(queries)}),"
        " BEGIN and COMMIT aside)"
    )
    print(
        f"ratio submit_move / bare insert (medians): {statistics.median(one_game) / bare_ms:.2f}x"
        " (the issue's goal: at most 3x)"
    )
    print("what a move cannot do without, each beside the bare insert:")
    sizes = [len(s) for s in snapshots]
    print(
        f"  writing the snapshot alone ({statistics.median(sizes):.0f} bytes median, its own transaction):"
        f" {_median_ms(snapshot_only):.3f} ms = {statistics.median(snapshot_only) / bare_ms:.2f}x"
    )
    print(
        f"  lock + insert + snapshot update, by hand in raw SQL: {_median_ms(floor):.3f} ms"
        f" = {statistics.median(floor) / bare_ms:.2f}x"
    )
    print(
        f"  the rules engine (read snapshot, check and apply the move, write snapshot):"
        f" {_median_ms(engine_work):.3f} ms = {statistics.median(engine_work) / bare_ms:.2f}x"
    )
    floor_ms = statistics.median(floor) + statistics.median(engine_work)
    print(f"  the two together, no ORM, no clocks, no email: {floor_ms * 1000:.3f} ms = {floor_ms / bare_ms:.2f}x")
    print(f"ratio submit_move / that floor: {statistics.median(one_game) / floor_ms:.2f}x")

    # Many games at once: one thread per game.
    threads, lock, all_times = [], threading.Lock(), []

    def worker(seed):
        local_rng = random.Random(seed)
        game = lifecycle.start_game(players=players[2 * (seed % 4) : 2 * (seed % 4) + 2], rng=local_rng)
        times = play_timed(game, local_rng)
        with lock:
            all_times.extend(times)
        connection.close()

    start = time.perf_counter()
    for seed in range(4):
        threads.append(threading.Thread(target=worker, args=(seed,)))
        threads[-1].start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - start
    print(
        f"submit_move, 4 games at once (4 threads): {len(all_times) / elapsed:.0f} moves/s in total,"
        f" median {_median_ms(all_times):.3f} ms"
    )

    # A move near the 10th event against one near the 1,000th: the same deals in
    # pairs of games, one with its log padded by 990 earlier events (never read by a
    # move); the two games of a pair move in turn, so drift in the machine hits both.
    early, late = [], []
    for seed in range(8):
        early_game = lifecycle.start_game(players=players[:2], rng=random.Random(seed))
        late_game = lifecycle.start_game(players=players[:2], rng=random.Random(seed))
        with transaction.atomic():
            Event.objects.bulk_create(
                Event(
                    game=late_game,
                    seq=late_game.seq + i,
                    kind="padding",
                    data={"kind": "padding"},
                    source=Event.Source.SYSTEM,
                )
                for i in range(1, 991)
            )
            Game.objects.filter(pk=late_game.pk).update(seq=late_game.seq + 990)
        late_game.refresh_from_db()
        early_rng, late_rng = random.Random(seed), random.Random(seed)
        for _ in range(8):
            early += play_timed(early_game, early_rng, limit=1)
            early_game.refresh_from_db()
            late += play_timed(late_game, late_rng, limit=1)
            late_game.refresh_from_db()
    print(f"move at events ~3-10:      median {_median_ms(early):.3f} ms ({len(early)} moves)")
    print(
        f"move at events ~993-1000:  median {_median_ms(late):.3f} ms"
        f" (ratio {statistics.median(late) / statistics.median(early):.2f}x; a move never replays the log)"
    )
