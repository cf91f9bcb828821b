"""The play (pegging): who plays next, when a count ends, and what a card pegs.

Pure helpers over plain data (tuples of cards per seat); `engine` keeps the state.
Going is automatic: a seat with no card that fits under 31 is skipped, and
when nobody can play the count ends, the player of the last card pegging 1 for
the go (or "last_card" when it was the last card of the play), nothing extra at 31.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .cards import Card
from .scoring import Score, score_last_card, score_pegging

__all__ = ["playable", "can_play", "next_to_play", "next_leader", "PlayResult", "resolve_play"]


def playable(hand: Sequence[Card], count: int) -> list[Card]:
    """Cards of `hand` that keep the count at 31 or under."""
    room = 31 - count
    return [c for c in hand if c.value <= room]


def can_play(hand: Sequence[Card], count: int) -> bool:
    room = 31 - count
    return any(c.value <= room for c in hand)


def _rotation_after(seat: int, players: int) -> list[int]:
    """Seats in playing order after `seat`, ending with `seat` itself."""
    return [(seat + k) % players for k in range(1, players + 1)]


def next_to_play(hands: Sequence[Sequence[Card]], count: int, last_seat: int) -> int | None:
    """The seat that plays next in this count after `last_seat` played, or None when nobody can."""
    for seat in _rotation_after(last_seat, len(hands)):
        if can_play(hands[seat], count):
            return seat
    return None


def next_leader(hands: Sequence[Sequence[Card]], last_seat: int) -> int | None:
    """Who leads a new count: the first seat after `last_seat` still holding cards."""
    for seat in _rotation_after(last_seat, len(hands)):
        if hands[seat]:
            return seat
    return None


class PlayResult(NamedTuple):
    score: Score  # everything the card pegs, the go / last-card point included
    count: int  # type: ignore[assignment]  # the count after the card (shadows tuple.count; callers read .count)
    count_over: bool  # nobody can play on (or 31): the count restarts
    play_over: bool  # the play of this hand is finished
    next_seat: int | None  # who plays next (leads the new count if count_over)
    went: tuple[int, ...]  # seats (holding cards) that had to say go after this card


def resolve_play(
    count_cards: Sequence[Card], card: Card, hands_after: Sequence[Sequence[Card]], seat: int, one_go: bool = False
) -> PlayResult:
    """What happens when `seat` plays `card` on `count_cards`; `hands_after` excludes the card."""
    cards = (*count_cards, card)
    count = sum(c.value for c in cards)
    score = score_pegging(cards)
    nxt = None if count == 31 else next_to_play(hands_after, count, seat)
    # At 31 the count is over: nobody says go.
    went = (
        ()
        if count == 31
        else tuple(
            s for s in range(len(hands_after)) if s != seat and hands_after[s] and not can_play(hands_after[s], count)
        )
    )
    if nxt is not None:
        return PlayResult(score, count, False, False, nxt, went)
    everyone_out = not any(hands_after)
    bonus = score_last_card(count, (card,), "last_card" if everyone_out else "go")
    if bonus.total:
        score = Score(score.total + bonus.total, score.items + bonus.items)
    play_over = everyone_out or one_go
    leader = None if play_over else next_leader(hands_after, seat)
    return PlayResult(score, count, True, play_over, leader, went)
