"""Games against the computer: practice on the site, and a slow game by email.

Practice games start at once with the computer in every other seat, marked `practice`
(advice is shown), with a long clock (PRACTICE_DAYS_PER_MOVE). Their game settings are
checked as a challenge's (games.challenges), and refused with its ChallengeError.
"""

from datetime import timedelta

from games import challenges, cribbage, lifecycle
from games.models import ComputerLevel, Variant

PRACTICE_DAYS_PER_MOVE = 30


def start_practice(user, level=ComputerLevel.STANDARD, variant=Variant.TWO, target=cribbage.FULL_GAME, muggins=False):
    """A game against the computer (every other seat), started at once."""
    _check(level, variant, target)
    return _start(
        user,
        level,
        variant=variant,
        target=target,
        muggins=muggins,
        days_per_move=PRACTICE_DAYS_PER_MOVE,
        practice=True,
    )


# A game against the computer by email: how long the computer may be asked to wait.
MAX_COMPUTER_DELAY = timedelta(days=7)


def start_computer_game(
    user,
    level=ComputerLevel.STANDARD,
    *,
    delay=None,
    variant=Variant.TWO,
    target=cribbage.FULL_GAME,
    muggins=False,
    days_per_move=7,
):
    """A slow game against the computer, played by email like any game (turn emails, the clock),
    with the coach on (help as in practice); the computer answers `delay` after each move (at
    once for none), its turn kept in the game's row for the sweeper. Raises ChallengeError."""
    _check(level, variant, target, days_per_move)
    delay = delay or timedelta(0)
    if not timedelta(0) <= delay <= MAX_COMPUTER_DELAY:
        raise challenges.ChallengeError("The computer waits from no time at all to 7 days.")
    return _start(
        user,
        level,
        variant=variant,
        target=target,
        muggins=muggins,
        days_per_move=days_per_move,
        computer_delay=delay,
        help_on=True,
    )


def _check(level, variant, target, days_per_move=None):
    """Refuse (ChallengeError) a game no table plays, or a computer level there is not."""
    challenges.check_settings(variant, target, days_per_move)
    if level not in ComputerLevel.values:
        raise challenges.ChallengeError(f"Unknown level {level!r}: choose easy, standard or expert.")


def _start(user, level, *, variant, **options):
    """Start `user`'s game with the computer at `level` in every other seat (lifecycle.start_game's `options`)."""
    players = [user] + [None] * challenges.others_needed(variant)
    return lifecycle.start_game(players=players, variant=variant, computer_level=level, **options)
