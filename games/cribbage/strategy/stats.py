"""Show statistics, exact and fast: the score distribution and a table-driven scorer.

Everything here works on card *indexes* (0..51, ``(rank - 1) * 4 + suit``
with suits in the order S H D C, as ``Card.index``) and imports nothing else
from the package, so it is cheap to import and easy to reuse.

The show score of a hand splits into a suitless part (fifteens, pairs, runs),
which depends only on the multiset of the five ranks, and a suit part (flush,
nobs), which depends only on a few facts about the suits. ``SUITLESS`` holds
the suitless score of every multiset of 4 or 5 ranks, keyed by ``rank_code``
(the sum of ``RANK_WEIGHT[r]`` over the cards, i.e. the rank counts written
in base 5, so codes are unique and can be added). On top of it:

* ``fast_score(hand, starter, crib)`` scores one hand from indexes, the same
  number as ``scoring.score_hand``;
* ``show_distribution(crib)`` counts all 12,994,800 hand + starter
  combinations by visiting each (4-rank hand, starter rank) pattern once and
  counting its suit assignments combinatorially (flush and nobs in closed
  form), instead of scoring 13 million hands one by one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations_with_replacement
from math import comb, prod

__all__ = [
    "RANK_WEIGHT",
    "INDEX_WEIGHT",
    "SUITLESS",
    "JACK",
    "rank_code",
    "suitless_score",
    "fast_score",
    "show_distribution",
    "rank_pattern_distribution",
]

JACK = 11
#: Weight of a rank in a ``rank_code``: counts in base 5 (at most 4 of a rank).
RANK_WEIGHT: tuple[int, ...] = (0,) + tuple(5 ** (r - 1) for r in range(1, 14))
#: The same weight looked up by card index 0..51.
INDEX_WEIGHT: tuple[int, ...] = tuple(RANK_WEIGHT[i // 4 + 1] for i in range(52))


def rank_code(ranks: Iterable[int]) -> int:
    """Key of a multiset of ranks (1..13) in ``SUITLESS``; codes add like multisets."""
    return sum(RANK_WEIGHT[r] for r in ranks)


def suitless_score(ranks: Sequence[int]) -> int:
    """Fifteens, pairs and runs of a multiset of ranks (no flush, no nobs)."""
    ways = [1] + [0] * 15  # ways[s]: subsets of the cards with value sum s
    counts = [0] * 15  # by rank, with empty sentinels at 0 and 14
    for r in ranks:
        counts[r] += 1
        v = 10 if r > 10 else r
        for s in range(15, v - 1, -1):
            ways[s] += ways[s - v]
    points = 2 * ways[15]
    run = 0
    mult = 1
    for r in range(1, 15):
        c = counts[r]
        if c:
            points += c * (c - 1)  # 2 for each pair
            run += 1
            mult *= c
        else:
            if run >= 3:  # a maximal stretch of 3+ ranks, times its duplicates
                points += run * mult
            run = 0
            mult = 1
    return points


def _build_suitless() -> dict[int, int]:
    table = {}
    for n in (4, 5):
        for ranks in combinations_with_replacement(range(1, 14), n):
            if ranks[0] != ranks[-1] or n < 5:  # no five of a rank
                table[rank_code(ranks)] = suitless_score(ranks)
    return table


#: Suitless score of every multiset of 4 or 5 ranks (1,820 + 6,175 entries), by ``rank_code``.
SUITLESS: dict[int, int] = _build_suitless()


def fast_score(hand: Sequence[int], starter: int, crib: bool = False) -> int:
    """Show score of a hand (4 cards, or 3 in five-card cribbage) given as card indexes.

    Same rules and same number as ``scoring.score_hand``: flush one a card in
    hand plus one with a matching starter, a crib only with all cards matching;
    nobs for a hand jack of the starter's suit; heels not included.
    """
    w = INDEX_WEIGHT
    code = w[starter]
    for i in hand:
        code += w[i]
    total = SUITLESS[code]
    suit = starter & 3
    first = hand[0] & 3
    for i in hand:
        if i & 3 != first:
            break
    else:
        if first == suit:
            total += len(hand) + 1
        elif not crib:
            total += len(hand)
    for i in hand:
        if 40 <= i < 44 and i & 3 == suit:  # the jack of the starter's suit
            total += 1
    return total


def rank_pattern_distribution(crib: bool = False, ranks: Iterable[int] = range(1, 14)) -> dict[int, int]:
    """``{score: count}`` over every 4-card hand and starter drawn from the cards of ``ranks``.

    With all 13 ranks this is the full 12,994,800-combination distribution;
    a subset of ranks (every suit of each) gives a smaller deck that tests can
    enumerate with ``score_hand`` to check the counting below.

    For each multiset of hand ranks and each starter rank, the suit
    assignments number ``prod C(4, m) * (4 - m_starter)``; among them, by
    symmetry, a fraction ``jacks / 4`` has nobs (never with a starter jack), a
    flush needs four distinct hand ranks (4 of the 4**4 hand suit choices), and
    a five-card flush also needs the starter's rank absent from the hand.
    """
    ranks = sorted(set(ranks))
    dist: Counter[int] = Counter()
    for hand in combinations_with_replacement(ranks, 4):
        counts = Counter(hand)
        if max(counts.values()) > 4:
            continue
        hand_ways = prod(comb(4, m) for m in counts.values())
        distinct = len(counts) == 4
        jacks = counts[JACK]
        code = rank_code(hand)
        for r in ranks:
            in_hand = counts[r]
            if in_hand == 4:
                continue
            total = hand_ways * (4 - in_hand)
            base = SUITLESS[code + RANK_WEIGHT[r]]
            nobs = 0 if r == JACK else total * jacks // 4
            flush4 = flush5 = 0
            if distinct:
                if in_hand:  # starter's rank is in hand: it cannot match the flush suit
                    flush4 = 0 if crib else 4 * 3
                else:
                    flush5 = 4
                    flush4 = 0 if crib else 4 * 3
            # A five-card flush with a hand jack always has nobs too (same suit).
            flush5_nobs = flush5 if jacks and r != JACK else 0
            dist[base] += total - nobs - flush4 - flush5 + flush5_nobs
            dist[base + 1] += nobs - flush5_nobs
            dist[base + 4] += flush4
            dist[base + 5] += flush5 - flush5_nobs
            dist[base + 6] += flush5_nobs
    return {score: n for score, n in sorted(dist.items()) if n}


def show_distribution(crib: bool = False) -> dict[int, int]:
    """``{score: number of hands}`` over every four-card hand and every starter.

    12,994,800 combinations (C(52,4) x 48), scored as a hand, or with
    ``crib=True`` under the crib flush rule. Scores that never occur (19, 25,
    26, 27) are absent. Exact; takes a few hundredths of a second.
    """
    return rank_pattern_distribution(crib)
