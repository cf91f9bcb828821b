"""Why an event is refused before its own rules are asked: no such seat, not the seat's turn,
not this kind of move at this phase, not a card (each an `IllegalMove` listing the legal moves)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .cards import Card, card_from_code
from .moves import legal_moves, to_act
from .state import IllegalMove, State

__all__ = ["seat_of", "seat_to_act", "all_legal", "require_turn", "wrong_phase", "card_of"]


def seat_of(state: State, event: dict) -> int:
    seat = event.get("seat")
    if type(seat) is not int or seat not in range(state.rules.players):
        raise IllegalMove("no_such_seat", f"No such seat: {seat!r}", all_legal(state), seat=seat)
    return seat


def seat_to_act(state: State, event: dict, phase: str, kind: str) -> int:
    """The event's seat when it is that seat's turn at `phase` (a play, a count); else refused:
    not its turn, or its turn for another kind of move."""
    seat = seat_of(state, event)
    if state.phase != phase or seat != state.turn:
        require_turn(state, seat, kind)
        raise wrong_phase(state, seat, kind)
    return seat


def all_legal(state: State) -> list[dict]:
    return [m for s in range(state.rules.players) for m in legal_moves(state, s)]


def require_turn(state: State, seat: int, kind: str) -> None:
    if seat not in to_act(state):
        legal = all_legal(state)
        if state.phase in ("cut_for_deal", "deal"):
            raise IllegalMove(
                "waiting_for_chance",
                f"Waiting for the {state.phase.replace('_', ' ')} (a chance event)",
                legal,
                chance=state.phase,
            )
        raise IllegalMove(
            "not_your_turn", f"Seat {seat} cannot {kind} now (phase {state.phase})", legal, kind=kind, phase=state.phase
        )


def wrong_phase(state: State, seat: int, kind: str) -> IllegalMove:
    """The seat is to act, but not with a move of this kind."""
    return IllegalMove("wrong_phase", f"Seat {seat} cannot {kind} now", all_legal(state), kind=kind, phase=state.phase)


def card_of(code: Any, legal: Sequence[dict] | Callable[[], Sequence[dict]]) -> Card:
    if not isinstance(code, str):
        raise IllegalMove("malformed", f"Not a card code: {code!r}", legal)
    try:
        return card_from_code(code)
    except ValueError as e:
        raise IllegalMove("not_a_card", str(e), legal, token=code) from None
