"""A ladder's seasons: the standings a season counts, and closing one to open the next."""

from django.db import transaction
from django.utils import timezone

from events import standings as events_standings

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


def results(ladder, season):
    """The season's counted games as standings.Result values (entrant ids in the seats), each worth
    the game points it was counted for."""
    games = (
        LadderGame.objects.filter(match__ladder=ladder, match__season=season, counted=True)
        .exclude(match__status=Match.Status.VOID)
        .select_related("match")
    )
    return [
        events_standings.Result(
            seat0=lg.match.challenger_id,
            seat1=lg.match.defender_id,
            score0=lg.challenger_score,
            score1=lg.defender_score,
            winner=lg.winner_id,
            kind=lg.kind,
            points=lg.value,
        )
        for lg in games
    ]


def standings(ladder, season=None):
    """One row per entrant on the ladder, top first, counting this season's matches and games."""
    season = ladder.season if season is None else season
    entrants = list(ladder.entrants.select_related("player").order_by("position"))
    tally = events_standings.tally([e.pk for e in entrants], results(ladder, season))
    matches = {e.pk: [0, 0] for e in entrants}
    for m in Match.objects.filter(ladder=ladder, season=season, status=Match.Status.FINISHED):
        for side in (m.challenger_id, m.defender_id):
            if side in matches:
                matches[side][0] += 1
                matches[side][1] += side == m.winner_id
    return [
        dict(
            entrant=e.pk,
            position=e.position,
            player=str(e.player),
            player_id=e.player_id,
            matches=matches[e.pk][0],
            matches_won=matches[e.pk][1],
            games=tally[e.pk].played,
            wins=tally[e.pk].won,
            games_won=tally[e.pk].points,
            skunks_given=tally[e.pk].skunks_given,
            skunks_taken=tally[e.pk].skunks_taken,
            points_for=tally[e.pk].points_for,
            points_against=tally[e.pk].points_against,
            spread=tally[e.pk].spread,
        )
        for e in entrants
        if e.active
    ]


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
