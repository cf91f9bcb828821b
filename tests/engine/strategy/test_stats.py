"""Exact show statistics, and the table-driven scorer checked against score_hand."""

import random
from collections import Counter
from itertools import combinations

import pytest

from games.cribbage.cards import FULL_DECK
from games.cribbage.scoring import score_hand
from games.cribbage.strategy.stats import (
    SUITLESS,
    fast_score,
    rank_code,
    rank_pattern_distribution,
    show_distribution,
    suitless_score,
)

# /work/shared/notes/cribbage-rules.md section 3: hand column (Lumetta, WP), crib column.
PUBLISHED_HAND = {
    0: 1_009_008,
    1: 99_792,
    2: 2_813_796,
    3: 505_008,
    4: 2_855_676,
    5: 697_508,
    6: 1_800_268,
    7: 751_324,
    8: 1_137_236,
    9: 361_224,
    10: 388_740,
    11: 51_680,
    12: 317_340,
    13: 19_656,
    14: 90_100,
    15: 9_168,
    16: 58_248,
    17: 11_196,
    18: 2_708,
    20: 8_068,
    21: 2_496,
    22: 444,
    23: 356,
    24: 3_680,
    28: 76,
    29: 4,
}
PUBLISHED_CRIB = {
    0: 1_022_208,
    1: 99_792,
    2: 2_839_800,
    3: 508_908,
    4: 2_868_960,
    5: 703_496,
    6: 1_787_176,
    7: 755_320,
    8: 1_118_336,
    9: 358_368,
    10: 378_240,
    11: 43_880,
    12: 310_956,
    13: 16_548,
    14: 88_132,
    15: 9_072,
    16: 57_288,
    17: 11_196,
    18: 2_264,
    20: 7_828,
    21: 2_472,
    22: 444,
    23: 356,
    24: 3_680,
    28: 76,
    29: 4,
}
ALL_HANDS = 12_994_800  # C(52, 4) * 48


def _mean_sd(dist):
    n = sum(dist.values())
    mean = sum(s * c for s, c in dist.items()) / n
    var = sum(c * (s - mean) ** 2 for s, c in dist.items()) / n
    return mean, var**0.5


def test_hand_distribution_is_the_published_one():
    dist = show_distribution()
    assert dist == PUBLISHED_HAND
    assert sum(dist.values()) == ALL_HANDS
    assert not {19, 25, 26, 27} & dist.keys() and max(dist) == 29
    mean, sd = _mean_sd(dist)
    assert round(mean, 6) == 4.769152
    assert round(sd, 6) == 3.125437


def test_crib_distribution_is_the_published_one():
    dist = show_distribution(crib=True)
    assert dist == PUBLISHED_CRIB
    assert sum(dist.values()) == ALL_HANDS
    mean, sd = _mean_sd(dist)
    assert round(mean, 6) == 4.734819
    assert round(sd, 6) == 3.109185


@pytest.mark.parametrize("ranks", [(2, 5, 9, 11, 12), (1, 4, 5, 6, 11)])
def test_counting_by_rank_pattern_equals_score_hand_on_every_hand_of_some_ranks(ranks):
    """Every hand + starter from all 20 cards of five ranks, scored by score_hand and fast_score.

    Five ranks let four distinct hand ranks meet a starter of another rank, so
    five-card flushes, flushes with nobs, and starter jacks all occur.
    """
    deck = [c for c in FULL_DECK if c.rank in ranks]
    by_hand, by_crib = Counter(), Counter()
    for hand in combinations(deck, 4):
        hand_idx = [c.index for c in hand]
        for starter in deck:
            if starter in hand:
                continue
            h = score_hand(hand, starter).total
            k = score_hand(hand, starter, crib=True).total
            assert fast_score(hand_idx, starter.index) == h, (hand, starter)
            assert fast_score(hand_idx, starter.index, crib=True) == k, (hand, starter)
            by_hand[h] += 1
            by_crib[k] += 1
    assert rank_pattern_distribution(ranks=ranks) == dict(sorted(by_hand.items()))
    assert rank_pattern_distribution(crib=True, ranks=ranks) == dict(sorted(by_crib.items()))


@pytest.mark.parametrize("size", [4, 3])
@pytest.mark.parametrize("crib", [False, True])
def test_fast_score_equals_score_hand_on_random_hands(size, crib):
    rng = random.Random(20240 + size + 10 * crib)
    for _ in range(20_000):
        *hand, starter = rng.sample(FULL_DECK, size + 1)
        expected = score_hand(hand, starter, crib).total
        assert fast_score([c.index for c in hand], starter.index, crib) == expected, (hand, starter)


def test_fast_score_on_famous_hands(hand):
    def score(text, crib=False):
        *cards, starter = hand(text)
        return fast_score([c.index for c in cards], starter.index, crib)

    assert score("5C 5D 5H JS 5S") == 29
    assert score("5C 5D 5H 5S KD") == 28
    assert score("4C 4D 5H 6S 5S") == 24
    assert score("2C 4D 6H 8S TD") == 0
    assert score("2H 4H 6H 8H KS") == 4 and score("2H 4H 6H 8H KS", crib=True) == 0
    assert score("2H 4H 6H 8H KH", crib=True) == 5
    assert score("JD 2H 4C 7S KD") == 1  # nobs
    assert score("2H 4C 7S KD JD") == 0  # starter jack: heels, not nobs


def test_suitless_table_covers_every_rank_multiset():
    assert len(SUITLESS) == 1820 + 6175  # multisets of 4 and of 5 ranks, at most 4 of a rank
    assert SUITLESS[rank_code([5, 5, 5, 5, 10])] == 28
    assert suitless_score([1, 2, 3, 4, 5]) == 2 + 5  # A-2-3-4-5: one fifteen, a run of five
    assert suitless_score([3, 3, 4, 4, 5]) == 12 + 4 + 4  # double double run, two pairs, 3-3-4-5 twice
