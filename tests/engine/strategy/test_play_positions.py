"""Numbered positions of the play score every card as the whole count does."""

import random

from games.cribbage.strategy.knowledge import peg_points
from games.cribbage.strategy.play_positions import (
    COUNT_TOTAL,
    EMPTY,
    HAND_LESS,
    HAND_LOW,
    HAND_RANKS,
    START,
    hand_id,
    step,
)


def test_a_count_number_pegs_each_card_as_the_whole_count_would():
    rng = random.Random(7)
    checked = 0
    for _ in range(4000):
        deck = [r for r in range(1, 14) for _ in range(4)]
        rng.shuffle(deck)
        cid, ranks, total = START, (), 0
        for r in deck:
            if total + min(r, 10) > 31:
                continue
            pts, cid = step(cid, r)
            ranks, total = ranks + (r,), total + min(r, 10)
            assert pts == peg_points(ranks), ranks
            assert COUNT_TOTAL[cid] == total
            checked += 1
            if total == 31 or rng.random() < 0.1:
                break
    assert checked > 10_000


def test_counts_that_differ_only_in_dead_cards_share_a_number():
    def number(ranks):
        cid = START
        for r in ranks:
            cid = step(cid, r)[1]
        return cid

    # At 21 only the 2 can still score (a pair, a run from it): a run back to the 9 or the
    # king would need the ranks between, worth more than the 10 left.
    assert number((13, 9, 2)) == number((10, 9, 2)) != number((9, 2, 10))
    assert number((5, 5)) != number((5, 10, 5))  # a third 5 pegs six after the pair only


def test_hand_numbers_know_their_ranks_and_what_is_left():
    h = hand_id((1, 5, 5, 12))
    assert HAND_RANKS[h] == (1, 5, 12) and HAND_LOW[h] == 1
    assert HAND_LESS[h][5] == hand_id((1, 5, 12)) and HAND_LESS[h][7] == -1
    assert HAND_LESS[HAND_LESS[HAND_LESS[HAND_LESS[h][1]][5]][5]][12] == EMPTY
