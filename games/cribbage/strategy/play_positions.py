"""Positions of the play as small integers, for the searches' memos (``peg_search``).

Suits never count in the play, so a hand is a rank multiset: ``hand_id`` numbers
each one (a sorted tuple of ranks), with the distinct ranks it can play, the value
of its lowest card and the hand left after each rank is played. A count is
numbered by ``count_id`` from its total and the cards at its end that a later card
can still score with (pairs and runs): two counts with the same total and the same
tail peg the same for every card laid on them, so a search meets them once.
``step(count_id, rank)`` is what the card pegs and the count it makes.

Memo keys built from these numbers are ints, and the values ints or floats: such
dicts are never tracked by the garbage collector, which otherwise walks every
memoised position at each full collection (tens of milliseconds at a time).
"""

from __future__ import annotations

from .knowledge import peg_points

__all__ = ["VALUE", "EMPTY", "HAND_BITS", "hand_id", "count_id", "step", "START"]

VALUE = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
HAND_BITS = 13  # a hand number fits in this many bits (hands of up to five cards: 8,567)
_HAND_IDS: dict[tuple[int, ...], int] = {}
#: By hand number: its distinct ranks, lowest first; the value of its lowest card (99 when
#: empty); the hand left when a card of rank r is played (-1: none held), by r.
HAND_RANKS: list[tuple[int, ...]] = []
HAND_LOW: list[int] = []
HAND_LESS: list[list[int]] = []


def hand_id(ranks: tuple[int, ...]) -> int:
    """The number of a hand (a sorted tuple of ranks); the hands it can become are numbered too."""
    hid = _HAND_IDS.get(ranks)
    if hid is None:
        less = [-1] * 14
        for i, r in enumerate(ranks):
            if less[r] < 0:
                less[r] = hand_id(ranks[:i] + ranks[i + 1 :])
        hid = len(HAND_RANKS)
        if hid >= 1 << HAND_BITS:
            raise ValueError("Too many hands to number: the play's hands hold five cards at most")
        _HAND_IDS[ranks] = hid
        HAND_RANKS.append(tuple(sorted(set(ranks))))
        HAND_LOW.append(VALUE[ranks[0]] if ranks else 99)
        HAND_LESS.append(less)
    return hid


EMPTY = hand_id(())

_COUNT_IDS: dict[tuple[int, tuple[int, ...]], int] = {}
#: By count number: the count's total (31 ends it), and the tail that can still score.
COUNT_TOTAL: list[int] = []
_COUNT_TAIL: list[tuple[int, ...]] = []
_STEPS: dict[
    int, int
] = {}  # count number * 16 + rank -> points + 64 * next count number (a deck has four of a rank: under 64 points)


def _tail(total: int, ranks: tuple[int, ...]) -> tuple[int, ...]:
    """The cards of a count that later cards can still score with (see the module docstring).

    When the last two pair: the trailing cards of that rank while another fits (a run cannot
    hold two of a rank). Else the longest stretch of distinct trailing ranks (the card before
    it repeats one of them, so no run reaches past it), less its first cards while no run can
    hold them (a run holding the first card holds the whole stretch, and the ranks missing
    around it must fit under 31); the last card stays while another of its rank fits."""
    n = len(ranks)
    if not n:
        return ranks
    room = 31 - total
    last_fits = VALUE[ranks[-1]] <= room
    same = 1
    while same < n and ranks[-1 - same] == ranks[-1]:
        same += 1
    if same > 1:
        if last_fits:
            return ranks[n - same :]
        k = 1
    else:
        seen: set[int] = set()
        k = 0
        while k < n and ranks[-1 - k] not in seen:
            seen.add(ranks[-1 - k])
            k += 1
    while k > last_fits and not _run_possible(ranks[n - k :], room):
        k -= 1
    return ranks[n - k :]


def _run_possible(tail: tuple[int, ...], room: int) -> bool:
    """Whether later cards worth at most ``room`` in all can make a run with these distinct ranks."""
    low, high = min(tail), max(tail)
    span = high - low + 1
    gaps = sum(VALUE[r] for r in range(low, high + 1) if r not in tail)
    if span > len(tail):
        return gaps <= room  # the run fills the gaps
    # No gap: one more rank below or above (two for a single card).
    below = VALUE[low - 1] if low > 1 else 99
    above = VALUE[high + 1] if high < 13 else 99
    if span >= 2:
        return min(below, above) <= room
    cheapest = below + above
    if low > 2:
        cheapest = min(cheapest, VALUE[low - 1] + VALUE[low - 2])
    if high < 12:
        cheapest = min(cheapest, VALUE[high + 1] + VALUE[high + 2])
    return cheapest <= room


def count_id(total: int, ranks: tuple[int, ...]) -> int:
    """The number of a count of this total whose cards were ``ranks``, in the order laid."""
    key = (total, _tail(total, ranks))
    cid = _COUNT_IDS.get(key)
    if cid is None:
        cid = _COUNT_IDS[key] = len(COUNT_TOTAL)
        COUNT_TOTAL.append(total)
        _COUNT_TAIL.append(key[1])
    return cid


def step(cid: int, rank: int) -> tuple[int, int]:
    """(points pegged, next count number) when a card of ``rank`` is laid on count ``cid``."""
    packed = _STEPS.get(cid * 16 + rank)
    if packed is None:
        tail = _COUNT_TAIL[cid] + (rank,)
        total = COUNT_TOTAL[cid] + VALUE[rank]
        # Pairs and runs from the tail as from the whole count; the fifteen and 31 by the total.
        points = peg_points(tail) - (2 if sum(VALUE[r] for r in tail) in (15, 31) else 0)
        points += 2 if total in (15, 31) else 0
        packed = _STEPS[cid * 16 + rank] = points + 64 * count_id(total, tail)
    return packed & 63, packed >> 6


START = count_id(0, ())
