"""A game played face to face, entered afterwards (a club night): checked, then written as a
finished Game whose log is one engine event, so it counts like any game played here."""

import logging

from django.db import transaction
from django.utils import timezone

from games import cribbage, lifecycle, services, signals
from games.models import SEATS_BY_VARIANT, Event, Game, Seat

log = logging.getLogger(__name__)


class TableResultError(ValueError):
    """A result from the table that cannot be: nothing was written. `message` says why."""

    def __init__(self, message):
        super().__init__(message)
        self.message = message


def table_result_problem(players, scores, *, variant="two", target=None, played_on=None):
    """Why a game at the table with these players and final scores cannot be, or None.

    `players` are users, one per seat; `scores` one per side (per seat, or per team in
    partnerships: seats 0 and 2, then 1 and 3).
    """
    if variant not in SEATS_BY_VARIANT:
        return f"There is no variant {variant!r}."
    seats_needed = SEATS_BY_VARIANT[variant]
    if len(players) != seats_needed:
        return f"A game of {Game(variant=variant).get_variant_display().lower()} needs {seats_needed} players, not {len(players)}."
    if any(player is None for player in players):
        return "Every seat needs a player: a game at the table is between people."
    for i, player in enumerate(players):
        if player in players[:i]:
            return f"{player} is named twice: each seat needs a different player."
    if played_on is not None and played_on > timezone.localdate():
        return "The day it was played cannot be in the future."
    try:
        rules = cribbage.rules_for(variant, target=target)
    except ValueError as exc:
        return str(exc)
    return cribbage.table_result_problem(rules, list(scores))


def record_table_result(players, scores, *, entered_by, played_on=None, variant="two", target=None, rated=True):
    """A game played face to face, entered afterwards: a finished Game, as if played here.

    Its log is one engine event (`table_result`, the final board), so the replay
    (`verify_games`) holds and the engine decides the winner and the skunk from the
    board. Rated unless told otherwise; it counts for ladders, tournaments and ratings
    through `game_finished`, owed in its transaction like any finished game's.
    Raises TableResultError (nothing written) for an impossible result.
    """
    scores = list(scores)
    problem = table_result_problem(players, scores, variant=variant, target=target, played_on=played_on)
    if problem:
        raise TableResultError(problem)
    rules = cribbage.rules_for(variant, target=target)
    data = {"kind": "table_result", "scores": scores}
    state = cribbage.apply(cribbage.new_game(rules), data)
    outcome = cribbage.result(state)
    now = timezone.now()
    with transaction.atomic():
        game = Game.objects.create(
            variant=variant,
            target=rules.target,
            rules=rules.to_json(),
            assistance=lifecycle.assistance_for(players, rated=rated),
            rated=rated,
            played_at_table=True,
            played_on=played_on or timezone.localdate(),
            status=Game.Status.FINISHED,
            seq=1,
            public_seq=1,
            snapshot=cribbage.state_to_json(state),
            winner_side=outcome["winner"],
            finish=Game.Finish.TARGET,
            skunk=outcome["skunk"] or "",
            created_at=now,
            updated_at=now,
            finished_at=now,
        )
        Seat.objects.bulk_create(
            Seat(game=game, number=n, player=player, team=rules.side_of(n)) for n, player in enumerate(players)
        )
        event = services.new_event(game, data, None, Event.Source.ADMIN, actor=entered_by)
        event.seq, event.created_at = 1, now
        event.save()
        signals.game_finished.owe(game.pk)
    return game
