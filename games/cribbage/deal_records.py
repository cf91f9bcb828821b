"""Each hand of a game, every seat's cards open: what was dealt, thrown, pegged and shown. Pure.

For a game that is over and whose cards tell nothing still in play (a duplicate round compares
its tables this way once every table is done); the caller decides that, never this module.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .engine import apply, new_game
from .rules import Rules
from .state import State

__all__ = ["DealRecord", "SeatDeal", "deal_records"]


@dataclass(frozen=True, slots=True)
class SeatDeal:
    """One seat's hand: the cards dealt to it, the cards it threw to the crib, the cards it played
    in order, what it pegged in the play, and what its hand (and crib, the dealer's) counted."""

    dealt: tuple[str, ...]
    thrown: tuple[str, ...]
    played: tuple[str, ...]
    pegged: int
    hand: int | None  # None: the hand was never counted (the game ended first)
    crib: int | None  # the dealer's only


@dataclass(frozen=True, slots=True)
class DealRecord:
    number: int
    dealer: int
    starter: str | None
    seats: tuple[SeatDeal, ...]
    scores: tuple[int, ...]  # each side's score after the hand


def _record(state: State) -> DealRecord:
    shown = {(s.seat, s.what): s.score.total for s in state.shows}
    seats = []
    for seat in range(state.rules.players):
        held = set(state.hands[seat]) | set(state.kept[seat]) | set(state.discards[seat])
        seats.append(
            SeatDeal(
                dealt=tuple(c.code for c in sorted(held)),
                thrown=tuple(c.code for c in sorted(state.discards[seat])),
                played=tuple(p.card.code for p in state.plays if p.seat == seat and p.card is not None),
                pegged=sum(r.points for r in state.records if r.seat == seat and r.phase == "play"),
                hand=shown.get((seat, "hand")),
                crib=shown.get((seat, "crib")),
            )
        )
    assert state.dealer is not None
    return DealRecord(
        number=state.hand_number,
        dealer=state.dealer,
        starter=state.starter.code if state.starter else None,
        seats=tuple(seats),
        scores=tuple(state.scores),
    )


def deal_records(rules: Rules, moves: Iterable[dict], first_dealer: int | None = None) -> list[DealRecord]:
    """A DealRecord per hand dealt, from a game's engine moves (its log without clock events)."""
    records = []
    state = new_game(rules, first_dealer)
    for move in moves:
        if move.get("kind") == "deal" and state.hand_number:
            records.append(_record(state))
        state = apply(state, move)
    if state.hand_number:
        records.append(_record(state))
    return records
