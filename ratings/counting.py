"""Which games count for the ratings, and what each one says (an arithmetic.Result).

A game counts once it is finished, rated (`Game.rated`: a ladder's or a
tournament's game, a game at the table, a casual game both players made rated)
and between people: never practice, never a game with the computer at a seat.
Forfeits and resignations count as losses for the side that gave up.
"""

from games import cribbage
from games.models import Game
from games.services import engine_state
from ratings.arithmetic import Result, family_of, ranks_of


def countable_games():
    """Every game that counts, in the order the ratings take them: their finish (then id)."""
    return (
        Game.objects.filter(status=Game.Status.FINISHED, rated=True, practice=False)
        .exclude(seats__player__isnull=True)
        .order_by("finished_at", "pk")
    )


def result_of(game, seats):
    """The Result of `game` (its `seats`, in seat order), or None when it does not count."""
    if not (game.is_finished and game.rated and not game.practice and seats):
        return None
    if any(seat.player_id is None for seat in seats):
        return None
    rules = cribbage.Rules.from_json(game.rules)
    state = engine_state(game)
    outcome = state.outcome
    if outcome is None or game.winner_side is None:
        return None
    last = rules.side_of(outcome.seat) if outcome.reason in ("resign", "forfeit") and outcome.seat is not None else None
    by_number = {seat.number: seat.player_id for seat in seats}
    sides = tuple(tuple(by_number[n] for n in rules.seats_of(side)) for side in range(rules.sides))
    ranks = tuple(ranks_of(state.scores, game.winner_side, last))
    return Result(family_of(game.variant), sides, ranks)
