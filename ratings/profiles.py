"""A player's public page: results, skunks, show figures, ratings and their history.

Read from the tallies (ratings.tallies, written when each game ends) and the
ratings, in a fixed handful of queries whatever the number of games. Show figures
come only from shows made at the table; a game in play shows who plays it, never its cards.
"""

from django.core.paginator import Paginator
from django.db import connection
from django.db.models import Count, Max, Q, Sum, Window

from games.models import Game
from games.reliability import reliability_figure
from games.selectors import with_seats
from ratings import chart
from ratings.arithmetic import DISPLAY_BASE, DISPLAY_SCALE, FAMILIES, OVERALL, Skill, shown
from ratings.models import FAMILY_CHOICES, PlayerGame, RatingChange
from ratings.selectors import ratings_for

RECENT = 10  # finished games a page: the page costs the same however long a player's history
FAMILY_NAMES = dict(FAMILY_CHOICES)

# Sections a higher app adds to the page (its template and what it reads for a player), registered
# from its AppConfig.ready() by add_section: a club night's awards (tournaments).
_sections: list[tuple[str, object]] = []


def add_section(template, context):
    """Show `template` on every public player page, with `context(player)` (a dict) as its context."""
    _sections.append((template, context))


def may_see(viewer, player):
    """Whether `viewer` sees more of `player`'s page than the name."""
    return player.profile_public or (viewer.is_authenticated and viewer.pk == player.pk)


def _average(points, count):
    return round(points / count, 1) if count else None


def figures(player):
    """Games, wins, skunks and the show averages of `player` (one query)."""
    totals = PlayerGame.objects.filter(player=player).aggregate(
        games=Count("pk"),
        wins=Count("pk", filter=Q(won=True)),
        skunks_given=Sum("skunks_given"),
        skunks_taken=Count("pk", filter=~Q(skunk_taken="")),
        double_skunks_taken=Count("pk", filter=Q(skunk_taken="double_skunk")),
        hands=Sum("hands"),
        hand_points=Sum("hand_points"),
        cribs=Sum("cribs"),
        crib_points=Sum("crib_points"),
        best_hand=Max("best_hand"),
        twenty_nines=Sum("twenty_nines"),
    )
    totals = {key: value or 0 for key, value in totals.items()}
    totals["average_hand"] = _average(totals["hand_points"], totals["hands"])
    totals["average_crib"] = _average(totals["crib_points"], totals["cribs"])
    totals["best_hand"] = totals["best_hand"] if totals["best_hand"] >= 0 else None
    return totals


def best_hand(player):
    """The player's best hand shown (its tally row: points, cards, game), or None."""
    return PlayerGame.objects.filter(player=player, best_hand__gte=0).order_by("-best_hand", "finished_at").first()


def _sides_text(game, player):
    """The other players of `game`, by name; a partner named as such."""
    seats = list(game.seats.all())
    mine = next((s for s in seats if s.player_id == player.pk), None)
    partners = [str(s) for s in seats if mine and s.team == mine.team and s.pk != mine.pk and game.variant == "four"]
    others = [str(s) for s in seats if mine and s.team != mine.team]
    text = " and ".join(others)
    return f"{text} (with {' and '.join(partners)})" if partners else text


def results_page(player, number, count):
    """A page of the player's finished games, newest first, RECENT a page (`count`: how many there
    are, known from `figures`): the opponents, the board, the skunk and the overall rating change
    when the game was rated, as `page.object_list`. A page past the last raises InvalidPage."""
    paginator = Paginator(
        PlayerGame.objects.filter(player=player).select_related("game").prefetch_related("game__seats__player"), RECENT
    )
    paginator.count = count  # counted already: no COUNT of the joined list
    page = paginator.page(number)
    rows = list(page.object_list)
    changes = {
        c.game_id: c
        for c in RatingChange.objects.filter(player=player, family=OVERALL, game__in=[row.game_id for row in rows])
    }
    out = []
    for row in rows:
        change = changes.get(row.game_id)
        scores = list((row.game.snapshot or {}).get("scores") or [])
        side = row.seat % 2 if row.game.variant == "four" else row.seat
        board = [scores.pop(side)] + sorted(scores, reverse=True) if side < len(scores) else []
        out.append(
            {
                "row": row,
                "game": row.game,
                "opponents": _sides_text(row.game, player),
                "board": "–".join(str(s) for s in board),  # the player's side first
                "change": (change.shown_after.value - change.shown_before.value) if change else None,
            }
        )
    page.object_list = out
    return page


CURRENT_SHOWN = 20


def current_games(player):
    """The latest games `player` is playing now (practice apart), the most recently moved first,
    with their other players; and how many there are in all (a window count: no other query)."""
    games = list(
        with_seats(
            Game.objects.filter(seats__player=player, status=Game.Status.ACTIVE, practice=False)
            .annotate(playing=Window(Count("pk")))
            .order_by("-updated_at")
        )[:CURRENT_SHOWN]
    )
    shown = [{"game": game, "opponents": _sides_text(game, player)} for game in games]
    return shown, (games[0].playing if games else 0)


# The rows the chart draws, picked by the database as chart.thin picks them from a line, so the
# read returns at most chart.POINTS rows a family whatever the history (every row read and
# converted is ~90 ms of the page's CPU at 5,000 rated games): each row's place among the
# player's rated games (n: the order ratings count them in), its shown value as arithmetic.shown
# makes it (base + scale x (mu - 3 sigma), rounded half to even, never below 0) and its
# chart.bucket; then a family's every row if it has at most POINTS, else its first, its last,
# and each bucket's low and high (the earliest of equals). Aggregates over partitions rather
# than ranks ordered by value: two sorts of the rows, not four.
_CHART_SQL = f"""
WITH numbered AS (
    SELECT family, mu_after, sigma_after, finished_at,
        DENSE_RANK() OVER (ORDER BY finished_at, game_id) - 1 AS n,
        %s + %s * (mu_after - 3 * sigma_after) AS raw
    FROM {RatingChange._meta.db_table} WHERE player_id = %s
), bucketed AS (
    SELECT family, mu_after, sigma_after, finished_at, n,
        CASE WHEN raw < 0 THEN 0 ELSE ROUND(raw) END AS value,
        n * %s / (MAX(n) OVER () + 1) AS bucket
    FROM numbered
), spans AS (
    SELECT bucketed.*,
        MIN(value) OVER (PARTITION BY family, bucket) AS low,
        MAX(value) OVER (PARTITION BY family, bucket) AS high,
        COUNT(*) OVER (PARTITION BY family) AS points,
        MIN(n) OVER (PARTITION BY family) AS first,
        MAX(n) OVER (PARTITION BY family) AS last
    FROM bucketed
), kept AS (
    SELECT spans.*,
        MIN(CASE WHEN value = low THEN n END) OVER (PARTITION BY family, bucket) AS low_n,
        MIN(CASE WHEN value = high THEN n END) OVER (PARTITION BY family, bucket) AS high_n
    FROM spans
)
SELECT n, family, mu_after, sigma_after, finished_at FROM kept
WHERE points <= %s OR n = low_n OR n = high_n OR n = first OR n = last
ORDER BY n, family
"""


def _day(value):
    """A finished_at read by the cursor as the ORM reads it (SQLite gives text), as its day."""
    column = RatingChange._meta.get_field("finished_at").cached_col
    for converter in connection.ops.get_db_converters(column) + column.get_db_converters(connection):
        value = converter(value, column, connection)
    return f"{value:%d %b %Y}"


def rating_chart(player):
    """The SVG of the player's rating after each rated game, a line per family played (one
    query, of at most chart.POINTS rows a family however many games)."""
    with connection.cursor() as cursor:
        cursor.execute(_CHART_SQL, [DISPLAY_BASE, DISPLAY_SCALE, player.pk, chart.BUCKETS, chart.POINTS])
        rows = cursor.fetchall()
    if not rows:
        return ""
    series: dict[str, list[tuple[int, int, int]]] = {}
    for n, family, mu, sigma, _ in rows:
        value = shown(Skill(mu, sigma))
        series.setdefault(FAMILY_NAMES[family], []).append((n, value.value, value.uncertainty))
    ordered = {FAMILY_NAMES[f]: series[FAMILY_NAMES[f]] for f in (OVERALL, *FAMILIES) if FAMILY_NAMES[f] in series}
    return chart.history_svg(ordered, rows[-1][0] + 1, _day(rows[0][4]), _day(rows[-1][4]))


def profile(player, viewer, page=1):
    """Everything the page of `player` shows `viewer`: only the name when the page is private.
    `page`: which page of the finished games (RECENT a page); past the last raises InvalidPage."""
    if not may_see(viewer, player):
        return {"player": player, "private": True}
    ratings = ratings_for(player)
    totals = figures(player)
    results = results_page(player, page, totals["games"])
    current, current_count = current_games(player)
    return {
        "player": player,
        "private": False,
        "own_private": not player.profile_public,
        "figures": totals,
        "reliability": reliability_figure(player),
        "best": best_hand(player),
        "ratings": [(FAMILY_NAMES[family], rating) for family, rating in ratings.items()],
        "chart": rating_chart(player),
        "current": current,
        "current_count": current_count,
        "recent": results.object_list,
        "results": results,
        "sections": [(template, context(player)) for template, context in _sections],  # type: ignore[operator]
    }
