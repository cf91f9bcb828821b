"""A seat's move as a value (`Move`), the one way in for a player's words (`read_move`) and
the one way a move is said (`describe`), in the manner of python-chess's `Move` and
`Board.parse_san`.

The log keeps moves as the JSON it always has (`{"kind": "play", "card": "7C", "seat": 0}`):
`Move.to_json()` writes exactly that shape and `Move.from_json()` reads it back, so a game
already played folds the same. Chance events (the cut for deal, the deal) and a result
entered from the table are the engine's own events, not a seat's moves: they stay JSON.

Words and rules refuse differently: `read_move` raises `InvalidMove` (notation) when the
words make no move; `apply` raises `IllegalMove` (state) when the rules refuse a readable one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from . import notation
from .cards import card_from_code
from .move_choices import number_to_say, same_move
from .move_words import write
from .snapshots import card_codes
from .state import State

__all__ = ["Move", "SEAT_MOVES", "read_move", "describe", "Voice"]

# The kinds of move a seat makes, with the fields each carries in the log, in the log's order.
SEAT_MOVES: dict[str, tuple[str, ...]] = {
    "discard": ("cards",),
    "play": ("card", "claim", "plan"),
    "go": (),
    "count": ("points", "plan"),
    "count_ahead": ("points",),
    "muggins": (),
    "resign": (),
    "forfeit": ("reason",),
    "plan": ("order", "rules"),
}


@dataclass(frozen=True)
class Move:
    """One seat's move. `seat` is None until the move is made for a seat (words read without a
    game, a form); the move service sets it. A field a kind does not carry stays None."""

    kind: str
    seat: int | None = None
    cards: tuple[str, ...] | None = None  # a discard's cards, as written
    card: str | None = None  # a play's card
    claim: int | None = None  # under muggins, what a play claims it pegs
    points: int | None = None  # a count's (in the show, or said ahead in the play)
    plan: bool = False  # played from the seat's plan (or its count said ahead): `planned_move`
    reason: str | None = None  # a forfeit's
    order: tuple[str, ...] | None = None  # a pegging plan's cards, in order ("ask" among them)
    rules: tuple[tuple[tuple[str, Any], ...], ...] | None = None  # a plan's rules, each its fields in order

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Move:
        """The move the log's JSON says; ValueError for a chance event or a shape no seat's move has."""
        kind = data.get("kind")
        fields = SEAT_MOVES.get(kind) if isinstance(kind, str) else None
        if kind is None or fields is None:
            raise ValueError(f"Not a seat's move: {data!r}")
        unknown = set(data) - {"kind", "seat", *fields}
        if unknown:
            raise ValueError(f"A {kind} carries no {', '.join(sorted(unknown))}: {data!r}")
        values: dict[str, Any] = {k: data[k] for k in fields if k in data}
        for name in ("cards", "order", "rules"):  # lists in the log, tuples in a frozen value
            if name in values:
                if not isinstance(values[name], (list, tuple)):
                    raise ValueError(f"A {kind}'s {name} is a list: {data!r}")
                values[name] = tuple(values[name])
        if "rules" in values:
            if not all(isinstance(rule, Mapping) for rule in values["rules"]):
                raise ValueError(f"A plan's rules are each a mapping: {data!r}")
            values["rules"] = tuple(tuple(rule.items()) for rule in values["rules"])
        if "plan" in values and values["plan"] is not True:
            raise ValueError(f"A move's 'plan' mark is true or absent: {data!r}")
        return cls(kind, seat=data.get("seat"), **values)

    def to_json(self) -> dict[str, Any]:
        """The log's JSON of this move: its kind, its seat when it has one, then its fields in the
        log's order (a field the move does not carry is left out, as the log leaves it out)."""
        out: dict[str, Any] = {"kind": self.kind}
        if self.seat is not None:
            out["seat"] = self.seat
        for name in SEAT_MOVES[self.kind]:
            value = getattr(self, name)
            if name == "plan":
                if value:
                    out["plan"] = True
            elif name in ("cards", "order") and value is not None:
                out[name] = list(value)
            elif name == "rules" and value is not None:
                out[name] = [dict(rule) for rule in value]
            elif value is not None:
                out[name] = value
        return out

    def for_seat(self, seat: int) -> Move:
        return replace(self, seat=seat)

    def without_seat(self) -> Move:
        return replace(self, seat=None)

    def with_number(self, name: str, value: int) -> Move:
        """The move with the number the player said (`number_to_say`: "claim" or "points")."""
        if name == "claim":
            return replace(self, claim=value)
        assert name == "points", name
        return replace(self, points=value)

    def number_to_say(self, muggins: bool) -> str | None:
        """The field the player must still fill in: "points" (a count), "claim" (a play under muggins)."""
        return number_to_say(self.to_json(), muggins)

    def same_choice(self, other: Move | Mapping[str, Any]) -> bool:
        """Whether two moves are one choice (move_choices.same_move): a discard's cards in any order,
        a count whatever its points, a play without a claim whatever the other claims."""
        return same_move(self.to_json(), other.to_json() if isinstance(other, Move) else dict(other))

    @property
    def shown_cards(self) -> tuple[str, ...]:
        """The cards the move lays down: a discard's, or a play's one card."""
        if self.cards:
            return self.cards
        return (self.card,) if self.card else ()


def read_move(state: State, seat: int, words: str) -> Move:
    """The move `words` name for `seat` in `state`: the grammar of notation read at the game's
    phase, under its rules (muggins), a rank said alone resolved against the seat's hand.

    InvalidMove (with its code) when the words make no move; whether the rules allow the move is
    the engine's to say when it is applied (IllegalMove, with its code).
    """
    move = notation.read_move(words, state.phase, state.rules.muggins, hand=card_codes(state.hands[seat]))
    return Move.from_json(move).for_seat(seat)


# How a move is said: the words a player writes for it ("crib 5H JD"), what a page asks before
# it is made ("Lay away 5♥ J♦ to the crib"), what it did, told to who made it ("You laid away …").
Voice = Literal["words", "ask", "done"]


def _cards(codes) -> str:
    return " ".join(card_from_code(c).label for c in codes)


def _ask(move: Move) -> str:
    kind = move.kind
    if kind == "discard":
        return f"Lay away {_cards(move.cards or ())} to the crib"
    if kind == "play":
        return f"Play {_cards([move.card])}"
    if kind == "count":
        return "Claim your show"
    if kind == "muggins":
        return "Call muggins"
    if kind == "resign":
        return "Resign the game"
    return kind


def _done(move: Move) -> str:
    kind = move.kind
    if kind == "discard":
        return f"You laid away {_cards(move.cards or ())} to the crib"
    if kind == "play":
        claim = f", claiming {move.claim}" if move.claim is not None else ""
        return f"You played {_cards([move.card])}{claim}"
    if kind == "count":
        return f"You counted {move.points} for your show"
    if kind == "plan":
        return f"Your plan is set: {write(move.to_json())}" if move.order or move.rules else "Your plan is cleared"
    return {"muggins": "You called muggins", "resign": "You resigned the game"}.get(kind, f"You moved: {kind}")


def describe(move: Move | Mapping[str, Any], voice: Voice = "words", *, blank: str | None = None) -> str:
    """`move` in words, the one way for every channel (`voice`):

    - "words": what a player writes for it, the notation ("crib 5H JD", "play 7C claim 2"; with
      `blank` for a number the player must say: "play 7C claim N");
    - "ask": what a page asks before it is made ("Lay away 5♥ J♦ to the crib", "Play 7♣");
    - "done": what it did, told to the player who made it ("You laid away 5♥ J♦ to the crib").

    A chance event (JSON, not a seat's move) is said in its words.
    """
    if not isinstance(move, Move):
        data = dict(move)
        try:
            move = Move.from_json(data)
        except ValueError:  # a chance event, or a program's odd shape: the notation says what it can
            return write(data, blank)
    if voice == "ask":
        return _ask(move)
    if voice == "done":
        return _done(move)
    return write(move.to_json(), blank)
