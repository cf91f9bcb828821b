"""Speed per core, in one process: every "Done when" figure of a move, its page, its poll and
its emails, each a ratio with a 95% interval, measured interleaved in the same run.

The requests go through Django's test client (the whole middleware stack, no HTTP server) on
PostgreSQL (DATABASE_URL; otherwise it says so and measures SQLite), in a throwaway test
database. Games are played move by move; for each move, in turn: /healthz (the floor), the
poll unchanged (state.json with its ETag: 304), the game page the player opens (rendered: the
table has changed), the same page looked at again (its fragments from the cache), the POST of
the move, then the move's turn emails rendered and sent (the dummy mail backend), as the worker
would. Each figure is the process's CPU time (time.process_time), so other work on a shared
machine changes it less than wall time; the PostgreSQL server's CPU is not in it.

The move through the service beside the hand-written SQL floor (lock the game, insert the
event and the outbox row, write the snapshot, commit) is timed by the wall clock, as the floor
is mostly the database's: each move is followed by its floor, paired.

Intervals: 95% bootstrap intervals of the ratio of medians (pairs resampled together where they
are pairs). Sizes: BENCH_WEB_MOVES (moves, 240), BENCH_WEB_FLOOR_MOVES (300). Asserts nothing.
"""

import json
import os
import random
import re
import statistics
import time
from urllib.parse import urlencode

MOVES = int(os.environ.get("BENCH_WEB_MOVES", "240"))
FLOOR_MOVES = int(os.environ.get("BENCH_WEB_FLOOR_MOVES", "300"))
RESAMPLES = 1000


def main():
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cribsite.settings")
    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases

    from cribsite.celery import app

    # As in production the web process only enqueues the follow-ups; nothing consumes this
    # in-memory broker: the emails are sent here, one move at a time, and timed apart.
    app.conf.update(task_always_eager=False, broker_url="memory://", result_backend="cache+memory://")
    # The test client speaks plain http to the stack (tests.settings does the same).
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    settings.SECURE_SSL_REDIRECT = False
    settings.EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
    old = setup_databases(verbosity=0, interactive=False, serialized_aliases=())
    try:
        print(f"database: {connection.vendor}; cache: {settings.CACHES['default']['BACKEND'].rsplit('.', 1)[-1]}")
        _requests()
        _floor()
    finally:
        teardown_databases(old, verbosity=0)


# --- figures ----------------------------------------------------------------------------


def _median_ms(samples):
    return statistics.median(samples) * 1000


def _ratio(top, bottom, paired=False):
    """The ratio of medians and its 95% bootstrap interval."""
    rng = random.Random(30)
    ratio = statistics.median(top) / statistics.median(bottom)
    found = []
    for _ in range(RESAMPLES):
        if paired:
            picks = [rng.randrange(len(top)) for _ in top]
            a, b = [top[i] for i in picks], [bottom[i] for i in picks]
        else:
            a = rng.choices(top, k=len(top))
            b = rng.choices(bottom, k=len(bottom))
        found.append(statistics.median(a) / statistics.median(b))
    found.sort()
    return ratio, found[int(0.025 * RESAMPLES)], found[int(0.975 * RESAMPLES) - 1]


def _said(ratio, goal):
    value, low, high = ratio
    verdict = "within" if high <= goal else "not yet" if low > goal else "about at"
    return f"{value:5.2f}x  (95% {low:.2f}-{high:.2f})  goal <= {goal}: {verdict}"


# --- the requests -----------------------------------------------------------------------


def _requests():
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from accounts.models import User
    from games import cribbage, services
    from games.lifecycle import start_game
    from mail import services as mail_services
    from mail.models import OutboundEmail

    players = [
        User.objects.create_user(f"web{i}@example.com", None, display_name=f"W{i}", allow_forced_moves=False)
        for i in range(2)
    ]
    clients = {}
    for seat, player in enumerate(players):
        clients[seat] = Client()
        clients[seat].force_login(player)
    watcher = Client()
    rng = random.Random(30)
    cpu = {name: [] for name in ("healthz", "poll", "page", "page_again", "post", "emails")}
    poll_writes = []

    def timed(name, call, *args, **kwargs):
        start = time.process_time()
        response = call(*args, **kwargs)
        cpu[name].append(time.process_time() - start)
        return response

    game = start_game(players=players, rng=rng)
    etag = (None, "")  # ((game id, seat), the ETag that seat's poll last had)
    while len(cpu["post"]) < MOVES:
        if game.is_finished:
            game = start_game(players=players, rng=rng)
        state = services.engine_state(game)
        seat = cribbage.to_act(state)[0]
        move = rng.choice([m for m in cribbage.legal_moves(state, seat) if m["kind"] in FORM_KINDS])
        client, url = clients[seat], reverse("games:game", args=[game.pk])
        state_url = reverse("games:state", args=[game.pk])

        if etag[0] != (game.pk, seat):
            etag = ((game.pk, seat), client.get(state_url).headers.get("ETag", ""))
        # The floor and the poll each come first (after the last move's emails, the code out of the
        # CPU's caches) every other move: neither is flattered by being asked warm.
        for name in ("healthz", "poll") if len(cpu["post"]) % 2 else ("poll", "healthz"):
            if name == "healthz":
                timed("healthz", watcher.get, "/healthz")
            else:
                polled = timed("poll", client.get, state_url, headers={"If-None-Match": etag[1]})
                assert polled.status_code == 304, polled.status_code
        if len(poll_writes) < 40:  # written by a poll (counted apart: counting slows what it counts)
            with CaptureQueriesContext(connection) as queries:
                client.get(state_url, headers={"If-None-Match": etag[1]})
            poll_writes.append(sum(_writes(q["sql"]) for q in queries.captured_queries))
        timed("page", client.get, url)
        timed("page_again", client.get, url)
        before = OutboundEmail.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
        # Posted as the game page's forms post it (a browser's default: urlencoded, not multipart).
        fields = urlencode(_fields(game, move), doseq=True)
        response = timed("post", client.post, reverse("games:move", args=[game.pk]), fields, content_type=FORM)
        assert response.status_code == 302, (response.status_code, move)
        game.refresh_from_db()
        if not game.is_finished:  # the next poll's tag, asked before the emails as a browser would
            seat = cribbage.to_act(services.engine_state(game))[0]
            etag = ((game.pk, seat), clients[seat].get(state_url).headers.get("ETag", ""))
        owed = list(
            OutboundEmail.objects.filter(pk__gt=before, status=OutboundEmail.Status.READY).values_list("pk", flat=True)
        )
        start = time.process_time()
        for pk in owed:
            mail_services.send_outbound(pk)
        cpu["emails"].append(time.process_time() - start)
        game.refresh_from_db()

    floor = cpu["healthz"]
    print(f"CPU of this process a request, medians over {MOVES} moves, each beside /healthz in the same run:")
    for name, label in LABELS.items():
        print(f"  {label:<46} {_median_ms(cpu[name]):7.2f} ms")
    print(
        f"  statements written by an unchanged poll: {max(poll_writes)} at most in {len(poll_writes)} (the goal: none)"
    )
    print(
        "Ratios (the issue's goals; 95% bootstrap intervals). In process there is no HTTP server, whose"
        " fixed cost a request\n  `make bench load` counts in /healthz and in each request alike: these"
        " ratios are the harder ones."
    )
    print(f"  POST / /healthz                               {_said(_ratio(cpu['post'], floor), 3)}")
    print(f"  game page, rendered / /healthz                {_said(_ratio(cpu['page'], floor), 3)}")
    print(f"  game page, looked at again / /healthz         {_said(_ratio(cpu['page_again'], floor), 3)}")
    print(f"  turn emails a move / POST (paired)            {_said(_ratio(cpu['emails'], cpu['post'], True), 1)}")
    print(f"  state.json unchanged / /healthz               {_said(_ratio(cpu['poll'], floor), 1.2)}")


FORM_KINDS = ("discard", "play", "count")
FORM = "application/x-www-form-urlencoded"
LABELS = {
    "healthz": "/healthz (the floor)",
    "poll": "state.json unchanged (304)",
    "page": "game page, the table changed (rendered)",
    "page_again": "game page, looked at again (from the cache)",
    "post": "POST of a move (to its redirect)",
    "emails": "its turn emails, rendered and sent",
}


def _fields(game, move):
    fields = {"action": move["kind"], "expected_seq": game.seq, "token": os.urandom(16).hex()}
    if move["kind"] == "discard":
        fields["cards"] = move["cards"]
    elif move["kind"] == "play":
        fields["card"] = move["card"]
    else:
        fields["points"] = move.get("points", "")
    return fields


def _writes(sql):
    return bool(re.match(r"\s*(INSERT|UPDATE|DELETE)\b", sql, re.I))


# --- the move beside the SQL floor ------------------------------------------------------


def _floor():
    from django.db import connection, transaction

    from accounts.models import User
    from games import cribbage, services
    from games.lifecycle import start_game

    players = [
        User.objects.create_user(f"floor{i}@example.com", None, display_name=f"F{i}", allow_forced_moves=False)
        for i in range(2)
    ]
    jsonb = "jsonb" if connection.vendor == "postgresql" else "text"
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE TABLE bench_floor_game (id integer PRIMARY KEY, seq integer, snapshot {jsonb})")
        cursor.execute("CREATE TABLE bench_floor_event (id serial PRIMARY KEY, game integer, seq integer, data text)")
        cursor.execute("CREATE TABLE bench_floor_outbox (id serial PRIMARY KEY, key text UNIQUE, status text)")
        cursor.execute("INSERT INTO bench_floor_game VALUES (1, 0, '{}')")
    rng = random.Random(31)
    moves, floors, engine = [], [], []
    game = start_game(players=players, rng=rng)
    while len(moves) < FLOOR_MOVES:
        if game.is_finished:
            game = start_game(players=players, rng=rng)
        state = services.engine_state(game)
        seat = cribbage.to_act(state)[0]
        move = rng.choice(cribbage.legal_moves(state, seat))
        start = time.perf_counter()
        snapshot = json.dumps(cribbage.state_to_json(cribbage.apply(state, {**move, "seat": seat})))
        engine.append(time.perf_counter() - start)
        start = time.perf_counter()
        game = services.submit_move(game, seat, move).game
        moves.append(time.perf_counter() - start)
        i = len(moves)
        start = time.perf_counter()
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SELECT seq FROM bench_floor_game WHERE id = 1 FOR UPDATE")
            cursor.execute(
                "INSERT INTO bench_floor_event (game, seq, data) VALUES (%s, %s, %s)", [1, i, '{"kind": "play"}']
            )
            cursor.execute("UPDATE bench_floor_game SET seq = %s, snapshot = %s WHERE id = 1", [i, snapshot])
            cursor.execute("INSERT INTO bench_floor_outbox (key, status) VALUES (%s, 'ready')", [f"turn:1:{i}"])
        floors.append(time.perf_counter() - start)
    with_engine = [f + e for f, e in zip(floors, engine, strict=True)]
    print(
        f"The move through the service beside the SQL floor, wall time, {len(moves)} moves each followed by its floor:"
    )
    print(f"  submit_move                                   {_median_ms(moves):7.3f} ms")
    print(f"  the SQL floor (lock, event, snapshot, outbox) {_median_ms(floors):7.3f} ms")
    print(f"  the rules engine (apply, write the snapshot)  {_median_ms(engine):7.3f} ms")
    print(f"  submit_move / SQL floor (paired)              {_said(_ratio(moves, floors, True), 2)}")
    print(f"  submit_move / SQL floor + engine (paired)     {_said(_ratio(moves, with_engine, True), 2)}")
