"""A ladder game played face to face (at the club), entered by an organiser afterwards. Not the ACC
club night (a season of nine-game nights: tournaments.club_nights).

The rule (the least surprising one, and the form says it): a result between two
entrants counts as a one-game match, as if the lower-placed player had
challenged the higher and the match had gone to that single game. The game is
worth its value (win, skunk, double skunk) in the season's tables; when the
lower-placed player wins they take the other's place and everyone between moves
down one, otherwise nobody moves. The challenge rules (range, open challenges,
immunity, rematch days, being away) do not apply: the game was played, the
organiser vouches for it. The game itself is games.table_results.record_table_result's:
finished, rated, played at the table, so it moves the ratings like any game.
"""

from django.db import transaction
from django.utils import timezone

from events.results import kind_of
from games import table_results

from . import matches, services
from .models import Challenge, Entrant, LadderGame, Match


def record_club_night(ladder, first, second, scores, *, played_on, actor, now=None):
    """Count a game `first` and `second` (entrants of `ladder`) played at the table, with final
    `scores` (first's, second's). Returns the finished Match; raises LadderError, changing nothing."""
    now = now or timezone.now()
    if first.pk == second.pk:
        raise services.LadderError(f"{first} is named twice: choose the two players of the game.")
    with transaction.atomic():
        ladder = services.lock(ladder)
        entrants = {e.pk: e for e in Entrant.objects.select_related("player").filter(pk__in=[first.pk, second.pk])}
        if any(e.pk not in entrants or entrants[e.pk].ladder_id != ladder.pk for e in (first, second)):
            raise services.LadderError("Both players must be entrants of this ladder.")
        first, second = entrants[first.pk], entrants[second.pk]
        if not (first.active and second.active):
            raise services.LadderError("Both players must be on the ladder now (one has left it).")
        # The lower-placed player (the larger position number) challenges: seat 0, as in every ladder game.
        challenger, defender = (first, second) if first.position > second.position else (second, first)
        seat_scores = list(scores) if challenger == first else list(reversed(scores))
        try:
            game = table_results.record_table_result(
                [challenger.player, defender.player],
                seat_scores,
                entered_by=actor,
                played_on=played_on,
                variant=ladder.variant,
                target=ladder.target,
            )
        except table_results.TableResultError as exc:
            raise services.LadderError(exc.message) from exc
        item = Challenge.objects.create(
            ladder=ladder,
            season=ladder.season,
            challenger=challenger,
            defender=defender,
            status=Challenge.Status.ACCEPTED,
            created_at=now,
            respond_by=now,
            responded_at=now,
            created_by=actor,
        )
        match = matches.open_match(ladder, item, now=now)
        winner, loser = (challenger, defender) if game.winner_side == 0 else (defender, challenger)
        kind = kind_of(game)
        value = ladder.value_of(kind)
        LadderGame.objects.create(
            match=match,
            game=game,
            number=1,
            counted=True,
            winner=winner,
            kind=kind,
            value=value,
            challenger_score=seat_scores[0],
            defender_score=seat_scores[1],
        )
        if winner == challenger:
            match.challenger_points = value
        else:
            match.defender_points = value
        match.save(update_fields=["challenger_points", "defender_points"])
        described = LadderGame.Kind(kind).label.lower()
        matches.finish_match(
            ladder,
            match,
            winner,
            Match.DecidedBy.PLAY,
            actor=actor,
            now=now,
            why=f"At the club on {played_on:%d %b %Y}, {winner} beat {loser} {max(scores)}-{min(scores)} "
            f"({described}, entered by {actor})",
        )
    return match
