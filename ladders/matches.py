"""A match's games and its result: each game counted as it finishes (the next started, or the
match won), the positions moved; an organiser's forfeit and undoing a result."""

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from events.results import forfeit_checked, kind_of
from games import lifecycle
from games import services as game_services

from . import notices
from .models import Entrant, Ladder, LadderGame, Match
from .services import LadderError, lock, notify_moves, record


def game_url(game):
    try:
        return game.get_absolute_url()
    except Exception:  # the game pages may not be wired yet
        return ""


def open_match(ladder, challenge, *, now):
    """The match a challenge becomes once it is taken up, played out or forfeited: between its
    players, in the ladder's season, started `now`."""
    return Match.objects.create(
        ladder=ladder,
        season=ladder.season,
        challenge=challenge,
        challenger=challenge.challenger,
        defender=challenge.defender,
        started_at=now,
    )


def start_game(ladder, match, *, number, first_dealer):
    """Game `number` of `match`, on the ladder's rules and clock, rated (`first_dealer` None: cut for deal)."""
    game = lifecycle.start_game(
        players=[match.challenger.player, match.defender.player],
        settings=ladder.game_settings,
        rated=True,
        first_dealer=first_dealer,
    )
    LadderGame.objects.create(match=match, game=game, number=number)
    return game


def record_game_result(game_id):
    """Count a finished ladder game in its match (idempotent; nothing for other games).

    Starts the next game (the loser of this one deals first) or finishes the match.
    """
    pending = (
        LadderGame.objects.filter(game_id=game_id, counted=False).values_list("match__ladder_id", flat=True).first()
    )
    if pending is None:
        return None
    with transaction.atomic():
        ladder = Ladder.objects.select_for_update().get(pk=pending)
        lg = (
            LadderGame.objects.select_for_update()
            .select_related("match__challenger__player", "match__defender__player", "game")
            .get(game_id=game_id)
        )
        game = lg.game
        if lg.counted or not game.is_finished:
            return None
        match = lg.match
        winner = match.challenger if game.winner_side == 0 else match.defender
        loser = match.defender if winner == match.challenger else match.challenger
        kind = kind_of(game)
        scores = game_services.engine_state(game).scores
        lg.counted, lg.winner, lg.kind, lg.value = True, winner, kind, ladder.value_of(kind)
        lg.challenger_score, lg.defender_score = scores[0], scores[1]
        lg.save()
        described = LadderGame.Kind(kind).label.lower()
        record(
            ladder,
            "game",
            f"Game {lg.number}: {winner} beat {loser} {max(scores)}-{min(scores)} "
            f"({described}, {lg.value} game point{'s' if lg.value != 1 else ''})",
            match=match,
        )
        if match.status != Match.Status.PLAYING:
            return lg
        if winner == match.challenger:
            match.challenger_points += lg.value
        else:
            match.defender_points += lg.value
        match.save(update_fields=["challenger_points", "defender_points"])
        if max(match.challenger_points, match.defender_points) >= ladder.match_length:
            finish_match(
                ladder, match, winner, Match.DecidedBy.PLAY, why=f"{winner} won the match {_score_text(match)}"
            )
        else:
            start_game(ladder, match, number=lg.number + 1, first_dealer=match.entrant_seat(loser))
    return lg


def _score_text(match):
    high, low = sorted([match.challenger_points, match.defender_points], reverse=True)
    return f"{high}-{low}"


def finish_match(ladder, match, winner, decided_by, *, why, actor=None, now=None):
    now = now or timezone.now()
    match.status, match.winner, match.decided_by, match.finished_at = (Match.Status.FINISHED, winner, decided_by, now)
    match.save(update_fields=["status", "winner", "decided_by", "finished_at"])
    Entrant.objects.filter(pk__in=[match.challenger_id, match.defender_id]).update(last_active_at=now)
    op = None
    if winner.pk == match.challenger_id:
        op = {"op": "promote", "winner": match.challenger_id, "over": match.defender_id}
    elif ladder.immunity_days:
        Entrant.objects.filter(pk=match.defender_id).update(immune_until=now + timedelta(days=ladder.immunity_days))
    entry, moved = record(ladder, "result", why, actor=actor, op=op, match=match, now=now)
    players = [match.challenger.player, match.defender.player]
    notices.send(
        players,
        f"{ladder.name}: {why}",
        [why + ".", "Positions changed." if moved else "Nobody moved on the ladder."],
        url=ladder.get_absolute_url(),
        cause=f"{ladder.pk}:{entry.seq}:result",
        ladder=ladder,
    )
    notify_moves(ladder, moved, why + ".", entry)
    return entry


def forfeit_game(ladder_game, loser, *, reason, actor):
    """An organiser records a forfeit (or adjudicates an abandoned game) against `loser`.

    A new forfeit event in the game's log, then the result counts as usual.
    """
    match, game = ladder_game.match, ladder_game.game
    sides = (match.challenger_id, match.defender_id)
    reason = forfeit_checked(game, loser, sides, reason, refusal=LadderError, what="match")
    with transaction.atomic():  # the forfeit and its history entry, under the ladder's lock
        ladder = lock(match.ladder)
        try:
            game_services.record_forfeit(game, match.entrant_seat(loser), reason=reason, actor=actor)
        except game_services.MoveRefused as exc:
            raise LadderError(exc.message) from exc
        record(
            ladder,
            "adjudicate",
            f"{actor} recorded a forfeit by {loser} in game {ladder_game.number}: {reason}",
            actor=actor,
            match=match,
        )
    return record_game_result(game.pk)


def undo_result(match, *, actor, reason):
    """Void a mistaken match result: a new history entry; positions as if it never counted."""
    reason = (reason or "").strip()
    if not reason:
        raise LadderError("Give a reason for undoing the result.")
    with transaction.atomic():
        ladder = lock(match.ladder)
        match = Match.objects.select_for_update().select_related("challenger", "defender").get(pk=match.pk)
        if match.status != Match.Status.FINISHED:
            raise LadderError("Only a finished match's result can be undone.")
        result = match.history.filter(kind="result").order_by("-seq").first()
        match.status = Match.Status.VOID
        match.save(update_fields=["status"])
        if match.winner_id == match.defender_id and ladder.immunity_days:
            Entrant.objects.filter(pk=match.defender_id).update(immune_until=None)
        entry, moved = record(
            ladder, "undo", f"{actor} undid the result of {match}: {reason}", actor=actor, match=match, undoes=result
        )
        notify_moves(ladder, moved, f"The result of {match} was undone: {reason}", entry)
    return entry
