"""How a finished game counts in any event: what kind of win it was, and an organiser's forfeit
checked before the event's app records it."""

from games.models import Game

from .models import ResultKind


def kind_of(game):
    """The kind of win `game` (finished) was: a resignation concedes as the board stands (the
    engine reports its skunk); only a timeout or an adjudication counts as a forfeit win."""
    if game.finish in (Game.Finish.TARGET, Game.Finish.RESIGN):
        return game.skunk or ResultKind.WIN
    return ResultKind.FORFEIT


def forfeit_checked(game, loser, sides, reason, *, refusal, what):
    """The reason for a forfeit by `loser` in `game`, stripped; `refusal` (the app's error) with
    no reason, a `loser` not among `sides` (the entrant ids playing the `what`), or a game over."""
    reason = (reason or "").strip()
    if not reason:
        raise refusal("Give a reason for the forfeit.")
    if loser.pk not in sides:
        raise refusal(f"{loser} is not playing this {what}.")
    if game.is_finished:
        raise refusal("That game is already over.")
    return reason
