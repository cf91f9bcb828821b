"""A ladder's seasons: closing one to open the next (the standings a season counts: ladders.selectors)."""

from django.db import transaction
from django.utils import timezone

from events import standings as events_standings

from . import selectors
from .models import Season
from .services import LadderError, lock, record


def current_season(ladder):
    season, _ = Season.objects.get_or_create(ladder=ladder, number=ladder.season)
    return season


def table_order(rows):
    """The points-table order: game points won, then wins, then spread (the ACC's tie-breaks), then
    the ladder's positions."""
    by_entrant = {row["entrant"]: row for row in rows}
    tally = {
        row["entrant"]: events_standings.Row(
            player=row["entrant"],
            points=row["games_won"],
            won=row["wins"],
            points_for=row["points_for"],
            points_against=row["points_against"],
        )
        for row in rows
    }
    by_position = sorted(by_entrant, key=lambda entrant: by_entrant[entrant]["position"] or 0)
    ranked = events_standings.ranked(by_position, tally, events_standings.POINTS_TABLE)
    return [by_entrant[row.player] for row in ranked]


def close_season(ladder, *, actor, reseed="keep", now=None):
    """Freeze this season's standings, open the next; `reseed` "keep" or "table" (points order)."""
    now = now or timezone.now()
    if reseed not in ("keep", "table"):
        raise LadderError('Reseed is "keep" or "table".')
    with transaction.atomic():
        ladder = lock(ladder)
        season = current_season(ladder)
        rows = selectors.standings(ladder)
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
