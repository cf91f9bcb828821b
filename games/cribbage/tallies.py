"""What each seat scored in the shows of a game: hands, cribs, the best hand. Pure.

Only shows that happened count (a game that ended in the play or mid-show has
no show for what was never counted), so a tally holds nothing the table did not see.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from .engine import apply, new_game
from .rules import Rules
from .state import State

__all__ = ["ShowTally", "show_tallies"]


@dataclass(frozen=True, slots=True)
class ShowTally:
    hands: int = 0
    hand_points: int = 0
    cribs: int = 0
    crib_points: int = 0
    best_hand: int = -1  # -1: no hand shown
    best_hand_cards: tuple[str, ...] = ()  # the hand then the starter, as shown
    twenty_nines: int = 0  # hands of 29, the best there is


def _counted(tallies: list[ShowTally], state: State) -> None:
    for show in state.shows:
        t = tallies[show.seat]
        points = show.score.total
        if show.what == "crib":
            tallies[show.seat] = replace(t, cribs=t.cribs + 1, crib_points=t.crib_points + points)
            continue
        best, cards = t.best_hand, t.best_hand_cards
        if points > best:
            starter = state.starter.code if state.starter else ""
            best, cards = points, tuple(c.code for c in show.cards) + ((starter,) if starter else ())
        tallies[show.seat] = replace(
            t,
            hands=t.hands + 1,
            hand_points=t.hand_points + points,
            best_hand=best,
            best_hand_cards=cards,
            twenty_nines=t.twenty_nines + (points == 29),
        )


def show_tallies(rules: Rules, moves: Iterable[dict], first_dealer: int | None = None) -> list[ShowTally]:
    """One ShowTally per seat from a game's engine moves (its log without clock events)."""
    tallies = [ShowTally() for _ in range(rules.players)]
    state = new_game(rules, first_dealer)
    for move in moves:
        if move.get("kind") == "deal" and state.hand_number:
            _counted(tallies, state)
        state = apply(state, move)
    if state.hand_number:
        _counted(tallies, state)
    return tallies
