"""A move as the choice a player makes: what a web form names (`from_form`), whether two moves
are one choice (`same_move`, `is_offered`), and the number the player must still say
(`number_to_say`). Plain data, no words read: the notation reads words, this compares moves.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = ["from_form", "same_move", "is_offered", "number_to_say"]


def from_form(
    action: str,
    *,
    cards: Iterable[str] = (),
    card: str = "",
    claim: int | None = None,
    points: int | None = None,
    muggins: bool = False,
) -> dict:
    """The move a form names: its action ("discard", "play", "count", "count_ahead", "muggins",
    "resign") and fields.

    Under muggins a play claims what the form says, nothing if it says nothing.
    """
    if action == "discard":
        return {"kind": "discard", "cards": [c.strip().upper() for c in cards]}
    if action == "play":
        move: dict[str, Any] = {"kind": "play", "card": card.strip().upper()}
        if muggins:
            move["claim"] = claim or 0
        return move
    if action in ("count", "count_ahead"):
        return {"kind": action, "points": points}
    return {"kind": action}


def same_move(move: dict, other: dict) -> bool:
    """Whether two moves are one choice: the seat aside, a discard's cards in any order,
    a count whatever its points, a play without a claim whatever the other claims."""
    a = {k: v for k, v in move.items() if k != "seat"}
    b = {k: v for k, v in other.items() if k != "seat"}
    kind = a.get("kind")
    if kind != b.get("kind"):
        return False
    if kind == "count":
        return True
    if kind == "discard":
        return sorted(a.get("cards") or []) == sorted(b.get("cards") or [])
    if kind == "play" and "claim" not in a:
        b.pop("claim", None)
    return a == b


def number_to_say(move: dict, muggins: bool = False) -> str | None:
    """The field of `move` the player must still fill in themselves: "points" (a count),
    "claim" (a play under muggins: what it pegs), or None."""
    kind = move.get("kind")
    if kind == "count" and "points" not in move:
        return "points"
    if kind == "play" and muggins and "claim" not in move:
        return "claim"
    return None


def is_offered(move: dict, offered: Iterable[dict]) -> bool:
    """Whether `move` is one of the moves `offered` (engine.moves_to_offer) by `same_move`."""
    return any(same_move(move, m) for m in offered)
