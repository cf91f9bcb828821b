"""Rank-only hands for the crib models: every hand of a size with its suit-assignment weight,
rank counts, their ``SUITLESS`` code, the starter average.

Shared by ``crib_model`` (two players) and ``one_card_crib`` (three and four), which would
otherwise import each other, and by ``peg_table``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations_with_replacement
from math import comb

from ..strategy.stats import RANK_WEIGHT, SUITLESS

__all__ = [
    "RANKS",
    "JACK",
    "NOBS_PER_JACK",
    "rank_hands",
    "suit_ways",
    "rank_counts",
    "counts_code",
    "starter_average",
    "show_average",
]

RANKS = range(1, 14)
JACK = 11
#: Expected nobs per jack in a hand or crib: a starter of its suit among the other cards.
NOBS_PER_JACK = 12 / 47 - 1 / 47  # about a quarter: twelve of its suit, less one seen on average


def rank_hands(size: int) -> Iterator[tuple[tuple[int, ...], tuple[int, ...], int]]:
    """Every rank-only hand of ``size`` cards: its ranks (sorted), rank counts, and how many
    suited hands it stands for."""
    for ranks in combinations_with_replacement(RANKS, size):
        counts = rank_counts(ranks)
        if max(counts) > 4:
            continue
        yield ranks, counts, suit_ways(counts)


def suit_ways(counts: Sequence[int]) -> int:
    """How many suited hands have these rank counts."""
    ways = 1
    for r in RANKS:
        ways *= comb(4, counts[r])
    return ways


def rank_counts(ranks: Sequence[int]) -> tuple[int, ...]:
    """How many cards of each rank (index 1..13)."""
    c = [0] * 14
    for r in ranks:
        c[r] += 1
    return tuple(c)


def counts_code(counts: Sequence[int]) -> int:
    """The ``SUITLESS`` key of rank counts."""
    return sum(RANK_WEIGHT[r] * counts[r] for r in RANKS)


def starter_average(code: int, counts: Sequence[int], extra: float = 0.0) -> float:
    """Average suitless score of the cards ``code`` plus a starter from the rest of the deck
    (``counts``: the cards out of it)."""
    total = ways = 0
    for z in RANKS:
        left = 4 - counts[z]
        if left > 0:
            total += left * SUITLESS[code + RANK_WEIGHT[z]]
            ways += left
    return total / ways + extra


def show_average(cards: Sequence[int], out: Sequence[int]) -> float:
    """Average score, nobs included, of the cards with rank counts ``cards`` plus a starter from
    the rest of the deck (``out``: the rank counts of the cards out of it)."""
    return starter_average(counts_code(cards), out, NOBS_PER_JACK * cards[JACK])


def best_throws(options: Sequence[Sequence[tuple[int, float]]], crib: Sequence[float], sign: int) -> list[int]:
    """What each hand throws (a pair's index, or a rank): of its ``options`` (what it throws, the
    kept hand's value), the best kept hand plus ``sign`` times the crib value of the throw."""
    out = []
    for opts in options:
        best_i, best_v = -1, float("-inf")
        for i, v in opts:
            total = v + sign * crib[i]
            if total > best_v + 1e-12:
                best_i, best_v = i, total
        out.append(best_i)
    return out
