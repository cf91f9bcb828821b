"""A ladder's seasons: the standings a season counts, and closing one to open the next."""

import csv
import io

from django.db import transaction
from django.utils import timezone

from .models import LadderGame, Match, Season
from .services import LadderError, lock, record

STANDINGS_COLUMNS = [
    ("position", "Position"),
    ("player", "Player"),
    ("matches", "Matches"),
    ("matches_won", "Matches won"),
    ("games", "Games"),
    ("wins", "Wins"),
    ("games_won", "Games won (skunks count extra)"),
    ("skunks_given", "Skunks given"),
    ("skunks_taken", "Skunks taken"),
    ("points_for", "Points for"),
    ("points_against", "Points against"),
    ("spread", "Spread"),
]


def current_season(ladder):
    season, _ = Season.objects.get_or_create(ladder=ladder, number=ladder.season)
    return season


def standings(ladder, season=None):
    """One row per entrant on the ladder, top first, counting this season's matches and games."""
    season = ladder.season if season is None else season
    entrants = list(ladder.entrants.filter(active=True).select_related("player").order_by("position"))
    rows = {
        e.pk: dict(
            entrant=e.pk,
            position=e.position,
            player=str(e.player),
            player_id=e.player_id,
            matches=0,
            matches_won=0,
            games=0,
            wins=0,
            games_won=0,
            skunks_given=0,
            skunks_taken=0,
            points_for=0,
            points_against=0,
        )
        for e in entrants
    }
    for m in Match.objects.filter(ladder=ladder, season=season, status=Match.Status.FINISHED):
        for side in (m.challenger_id, m.defender_id):
            if side in rows:
                rows[side]["matches"] += 1
                rows[side]["matches_won"] += side == m.winner_id
    games = (
        LadderGame.objects.filter(match__ladder=ladder, match__season=season, counted=True)
        .exclude(match__status=Match.Status.VOID)
        .select_related("match")
    )
    for lg in games:
        m = lg.match
        for side, own, other in (
            (m.challenger_id, lg.challenger_score, lg.defender_score),
            (m.defender_id, lg.defender_score, lg.challenger_score),
        ):
            row = rows.get(side)
            if row is None:
                continue
            won = side == lg.winner_id
            skunk = lg.kind in (LadderGame.Kind.SKUNK, LadderGame.Kind.DOUBLE_SKUNK)
            row["games"] += 1
            row["wins"] += won
            row["games_won"] += lg.value if won else 0
            row["skunks_given"] += won and skunk
            row["skunks_taken"] += (not won) and skunk
            row["points_for"] += own
            row["points_against"] += other
    out = list(rows.values())
    for row in out:
        row["spread"] = row["points_for"] - row["points_against"]
    return out


def table_order(rows):
    """The points-table order: game points won, then wins, then spread (ACC tie-breaks)."""
    return sorted(rows, key=lambda r: (-r["games_won"], -r["wins"], -r["spread"], r["position"] or 0))


def standings_csv(rows):
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([label for _, label in STANDINGS_COLUMNS])
    for row in rows:
        writer.writerow([row[key] for key, _ in STANDINGS_COLUMNS])
    return out.getvalue()


def close_season(ladder, *, actor, reseed="keep", now=None):
    """Freeze this season's standings, open the next; `reseed` "keep" or "table" (points order)."""
    now = now or timezone.now()
    if reseed not in ("keep", "table"):
        raise LadderError('Reseed is "keep" or "table".')
    with transaction.atomic():
        ladder = lock(ladder)
        season = current_season(ladder)
        rows = standings(ladder)
        season.closed_at, season.closed_by, season.standings = now, actor, rows
        season.save(update_fields=["closed_at", "closed_by", "standings"])
        record(ladder, "season_close", f"{actor} closed season {season.number}", actor=actor, now=now)
        ladder.season += 1
        ladder.save(update_fields=["season"])
        Season.objects.create(ladder=ladder, number=ladder.season, started_at=now)
        ladder.entrants.update(away_days_used=0)
        op = None
        if reseed == "table":
            op = {"op": "order", "order": [r["entrant"] for r in table_order(rows)]}
        entry, moved = record(
            ladder,
            "season_open",
            f"Season {ladder.season} opened" + (", reseeded by last season's table" if op else ""),
            actor=actor,
            op=op,
            now=now,
        )
    return season
