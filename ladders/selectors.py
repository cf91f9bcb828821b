"""Reading a ladder: its standings and a player's commitments, queried here and changed nowhere
(the operations that change a ladder: services, membership, challenges, matches, seasons)."""

from django.db.models import Q

from events import standings as events_standings

from .models import Challenge, LadderGame, Match

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


def open_commitments(entrant):
    """Open challenges plus matches being played that `entrant` is in."""
    either = Q(challenger=entrant) | Q(defender=entrant)
    return (
        Challenge.objects.filter(either, status=Challenge.Status.OPEN).count()
        + Match.objects.filter(either, status=Match.Status.PLAYING).count()
    )


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
