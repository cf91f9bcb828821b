"""Luck and skill: how much of a game's result came from the cards (what each side was dealt,
and the starter) and how much from the choices (what its decisions lost against the best, as
the coach judges them), per hand and for the game. Pure functions (no Django):

* ``starter_effect(hand)``: the show points the starter gave a seat beyond the expected;
* ``luck_and_skill(records_by_seat, side_of_seat, points)``: every side's cards and choices.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..cards import FULL_DECK, card_from_code
from ..scoring import score_hand
from ..strategy.analysis import hand_ev
from .hand_review import HandRecord, review_hand

__all__ = ["SideLuck", "HandLuck", "LuckAndSkill", "starter_effect", "luck_and_skill"]


def starter_effect(hand: HandRecord) -> float:
    """Show points the starter gave the seat beyond what it could expect: its hand with this
    starter against the average over every starter it could not see, and the same for the
    crib it dealt. 0 for a show that never happened (the game ended first)."""
    if hand.starter is None:
        return 0.0
    dealt = set(hand.dealt)
    keep = tuple(c for c in hand.dealt if c not in hand.discard)
    effect = Fraction(0)
    for show in hand.shows:
        if show["seat"] != hand.seat:
            continue
        if show["what"] == "hand":
            unseen = [c for c in FULL_DECK if c not in dealt]
            effect += score_hand(keep, hand.starter).total - hand_ev(keep, unseen)
        elif show["what"] == "crib":
            crib = tuple(card_from_code(c) for c in show["cards"])
            starters = [c for c in FULL_DECK if c not in dealt and c not in crib]
            average = Fraction(sum(score_hand(crib, c, crib=True).total for c in starters), len(starters))
            effect += score_hand(crib, hand.starter, crib=True).total - average
    return float(effect)


@dataclass(frozen=True)
class SideLuck:
    """One side's share of a hand (or of the game): the cards it got and what its choices cost.

    ``dealt_ev``: the expected show points of the best throw from what it was dealt
    (hand plus its own crib, minus the crib it gives), summed over its seats;
    ``starter``: what the starter gave its shows beyond the expected;
    ``choices``: expected points its throws and plays lost against the best (<= 0);
    ``points``: what it actually scored.
    """

    side: int
    dealt_ev: float
    starter: float
    choices: float
    points: int

    @property
    def cards(self) -> float:
        return self.dealt_ev + self.starter


@dataclass(frozen=True)
class HandLuck:
    number: int
    sides: tuple[SideLuck, ...]


@dataclass(frozen=True)
class LuckAndSkill:
    hands: tuple[HandLuck, ...]
    sides: tuple[SideLuck, ...]  # the whole game, per side

    def margin(self, side: int) -> int:
        """Points `side` scored beyond the best of the other sides."""
        return self.sides[side].points - max(s.points for s in self.sides if s.side != side)

    def from_cards(self, side: int) -> float:
        """How much of `side`'s margin the cards account for (against the best other side)."""
        return self.sides[side].cards - max(s.cards for s in self.sides if s.side != side)

    def from_choices(self, side: int) -> float:
        """How much of `side`'s margin its choices account for, against the others' (the side
        that lost less against the best gains it)."""
        return self.sides[side].choices - max(s.choices for s in self.sides if s.side != side)


def luck_and_skill(
    records_by_seat: dict[int, Sequence[HandRecord]], side_of_seat: Sequence[int], points: dict[int, Sequence[int]]
) -> LuckAndSkill:
    """The cards and the choices of every side, hand by hand and for the game.

    ``records_by_seat``: each seat's ``HandRecord``s, each judged on what that seat
    could see; ``points``: hand number -> points each side scored in that hand.
    """
    sides = max(side_of_seat) + 1
    per_hand: dict[int, list[list]] = {}
    cribs: dict[tuple[int, int], list[float]] = {}  # (hand, side) -> each seat's best crib EV
    for seat, records in records_by_seat.items():
        side = side_of_seat[seat]
        for record in records:
            review = review_hand(record)
            if review.discard is None:
                continue
            row = per_hand.setdefault(record.number, [[0.0, 0.0, 0.0] for _ in range(sides)])[side]
            row[0] += float(review.discard.best_hand_ev)
            cribs.setdefault((record.number, side), []).append(float(review.discard.best_crib_ev))
            row[1] += starter_effect(record)
            row[2] -= float(review.discard.loss) + review.pegging_loss
    # Each seat's crib EV is a whole crib's (its own throw, the rest unseen): partners throw to
    # one crib, so a side counts the crib once, at the mean of its seats' estimates.
    for (number, side), evs in cribs.items():
        per_hand[number][side][0] += sum(evs) / len(evs)
    hands = []
    for number in sorted(set(per_hand) | set(points)):
        rows = per_hand.get(number, [[0.0, 0.0, 0.0] for _ in range(sides)])
        scored = points.get(number, [0] * sides)
        hands.append(
            HandLuck(
                number,
                tuple(
                    SideLuck(side, rows[side][0], rows[side][1], rows[side][2], scored[side]) for side in range(sides)
                ),
            )
        )
    totals = tuple(
        SideLuck(
            side,
            sum(h.sides[side].dealt_ev for h in hands),
            sum(h.sides[side].starter for h in hands),
            sum(h.sides[side].choices for h in hands),
            sum(h.sides[side].points for h in hands),
        )
        for side in range(sides)
    )
    return LuckAndSkill(tuple(hands), totals)
