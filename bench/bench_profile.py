"""A player's page and its rating chart at 10, 100, 1,000 and 5,000 rated games: what the
chart's read returns (rows), what it costs (CPU of this process and wall, medians), how big the
SVG is and how many points it draws, and the whole page's CPU and queries.

Runs in a throwaway test database (DATABASE_URL: PostgreSQL; on SQLite it says so and stops).
Each history is written in bulk (tests.factories.rated_history: games at the table, the
ratings rebuilt from them). The sizes are measured in turn, round after round, so a noisy
moment falls on all of them alike. Sizes: BENCH_PROFILE_ROUNDS (rounds, 15). Asserts nothing.
"""

import os
import re
import statistics
import time

SIZES = (10, 100, 1000, 5000)
ROUNDS = int(os.environ.get("BENCH_PROFILE_ROUNDS", "15"))


def main():
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cribsite.settings")
    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases

    if connection.vendor != "postgresql":
        print("bench_profile needs PostgreSQL: run with DATABASE_URL=postgres://... (skipped)")
        return
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    settings.SECURE_SSL_REDIRECT = False
    old = setup_databases(verbosity=0, interactive=False, serialized_aliases=())
    try:
        _run()
    finally:
        teardown_databases(old, verbosity=0)


def _run():
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from ratings.profiles import rating_chart
    from tests.factories import make_user, rated_history

    players = {}
    for games in SIZES:
        players[games] = make_user(display_name=f"{games} games")
        rated_history(players[games], games, seed=games)
    rows_read = {}

    def counting(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        rows_read["n"] += max(context["cursor"].rowcount, 0)
        return result

    client = Client()
    cpu = {n: [] for n in SIZES}
    wall = {n: [] for n in SIZES}
    page = {n: [] for n in SIZES}
    svg, rows, queries = {}, {}, {}
    for _ in range(ROUNDS):
        for games, player in players.items():
            rows_read["n"] = 0
            with connection.execute_wrapper(counting):
                start, start_wall = time.process_time(), time.perf_counter()
                svg[games] = rating_chart(player)
                cpu[games].append(time.process_time() - start)
                wall[games].append(time.perf_counter() - start_wall)
            rows[games] = rows_read["n"]
            url = reverse("ratings:player", args=[player.pk])
            start = time.process_time()
            assert client.get(url).status_code == 200
            page[games].append(time.process_time() - start)
    for games, player in players.items():
        with CaptureQueriesContext(connection) as captured:
            client.get(reverse("ratings:player", args=[player.pk]))
        queries[games] = len(captured)
    print(f"The rating chart of a profile (ratings.profiles.rating_chart), medians over {ROUNDS} rounds:")
    print("  rated games   rows read   chart CPU ms   chart wall ms   SVG bytes   points drawn   page CPU ms   queries")
    for games in SIZES:
        points = sum(len(line.split()) for line in re.findall(r'<polyline points="([^"]*)"', svg[games]))
        print(
            f"  {games:>11,}   {rows[games]:>9,}   {_ms(cpu[games]):>12.2f}   {_ms(wall[games]):>13.2f}"
            f"   {len(svg[games].encode()):>9,}   {points:>12,}   {_ms(page[games]):>11.2f}   {queries[games]:>7}"
        )


def _ms(samples):
    return statistics.median(samples) * 1000
