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
    challenges.check_settings(variant, target)
    if level not in ComputerLevel.values:
        raise challenges.ChallengeError(f"Unknown level {level!r}: choose easy, standard or expert.")
    players = [user] + [None] * challenges.others_needed(variant)
    return lifecycle.start_game(
        players=players,
        variant=variant,
        target=target,
        muggins=muggins,
        days_per_move=PRACTICE_DAYS_PER_MOVE,
        computer_level=level,
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
    challenges.check_settings(variant, target, days_per_move)
    if level not in ComputerLevel.values:
        raise challenges.ChallengeError(f"Unknown level {level!r}: choose easy, standard or expert.")
    delay = delay or timedelta(0)
    if not timedelta(0) <= delay <= MAX_COMPUTER_DELAY:
        raise challenges.ChallengeError("The computer waits from no time at all to 7 days.")
    players = [user] + [None] * challenges.others_needed(variant)
    return lifecycle.start_game(
        players=players,
        variant=variant,
        target=target,
        muggins=muggins,
        days_per_move=days_per_move,
        computer_level=level,
        computer_delay=delay,
        help_on=True,
    )
