import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.cribbage.cards import FULL_DECK
from games.cribbage.scoring import describe, score_hand, score_last_card, score_pegging

from .conftest import card, cards

FAMOUS_HANDS = [
    # name, hand, starter, crib, total
    ("29", "5H 5C 5S JD", "5D", False, 29),
    ("28 with four fives", "5H 5C 5S 5D", "KD", False, 28),
    ("28 with the jack but no nobs", "5H 5C 5S 5D", "JD", False, 28),
    ("24 double-double run 44556", "4H 4C 5S 5D", "6D", False, 24),
    ("24 double-double run 44566", "4H 5C 6S 6D", "4D", False, 24),
    ("24 with A7777", "7H 7C 7S 7D", "AD", False, 24),
    ("24 with 33339", "3H 3C 3S 3D", "9D", False, 24),
    ("nineteen", "2H 4C 6S 8D", "TD", False, 0),
    ("nineteen with K Q 9 7 2", "KH QC 9S 7D", "2H", False, 0),
    ("double run of four", "3H 4C 5S 5D", "6D", False, 14),
    ("triple run", "7H 7C 7S 8D", "9D", False, 21),
    ("four-card flush without starter", "2H 4H 6H 8H", "TD", False, 4),
    ("five-card flush", "2H 4H 6H 8H", "TH", False, 5),
    ("crib four-card flush counts nothing", "2H 4H 6H 8H", "TD", True, 0),
    ("crib five-card flush", "2H 4H 6H 8H", "TH", True, 5),
    ("three hand cards plus starter is no flush", "2H 4H 6H 8C", "TH", False, 0),
    ("nobs", "JH 2C 4D 8S", "KH", False, 1),
    ("starter jack is heels, not nobs", "2C 4D 8S QH", "JH", False, 0),
    ("jack of another suit is not nobs", "JC 2S 4D 8S", "KH", False, 0),
    ("nobs in the crib", "JH 2C 4D 8S", "KH", True, 1),
    ("five-card: three-card hand flush", "2H 4H 8H", "TD", False, 3),
    ("five-card: three-card flush with starter", "2H 4H 8H", "TH", False, 4),
    ("five-card: 3-card hand, five starter, nobs", "5H 5C JS", "5S", False, 15),
    ("five-card: 3-card hand with a run", "AH 2C 3S", "KD", False, 5),
]


@pytest.mark.parametrize("name, hand, starter, crib, total", FAMOUS_HANDS, ids=[h[0] for h in FAMOUS_HANDS])
def test_famous_hands(name, hand, starter, crib, total):
    score = score_hand(cards(hand), card(starter), crib=crib)
    assert score.total == total
    assert score.total == sum(i.points for i in score.items)


def test_29_breakdown():
    score = score_hand(cards("5H 5C 5S JD"), card("5D"))
    kinds = [i.kind for i in score.items]
    assert kinds.count("fifteen") == 8
    assert kinds.count("double_pair_royal") == 1
    assert kinds.count("nobs") == 1
    assert describe(score).endswith("and one for his nob is twenty-nine")


def test_describe_counts_aloud():
    assert describe(score_hand(cards("7H 8C 3S 3D"), card("2C"))) == "fifteen two, fifteen four, and a pair is six"
    assert describe(score_hand(cards("2H 4C 6S 8D"), card("TD"))) == "nineteen"
    assert (
        describe(score_hand(cards("AH 2H 3H 9H"), card("KD")))
        == "fifteen two, fifteen four, a run of three is seven, and a four-card flush is eleven"
    )


def test_crib_flag_only_changes_four_card_flush():
    rng = random.Random(3)
    for _ in range(2000):
        five = rng.sample(FULL_DECK, 5)
        hand, starter = five[:4], five[4]
        a, b = score_hand(hand, starter), score_hand(hand, starter, crib=True)
        four_flush = len({c.suit for c in hand}) == 1 and starter.suit != hand[0].suit
        assert a.total - b.total == (4 if four_flush else 0)


@given(st.permutations(FULL_DECK).map(lambda d: d[:5]), st.randoms(use_true_random=False), st.booleans())
def test_scoring_invariants(five, rnd, crib):
    hand, starter = list(five[:4]), five[4]
    score = score_hand(hand, starter, crib)
    assert score.total == sum(i.points for i in score.items)
    assert 0 <= score.total <= 29 and score.total not in (19, 25, 26, 27)
    shuffled = hand[:]
    rnd.shuffle(shuffled)
    assert score_hand(shuffled, starter, crib) == score
    for item in score.items:
        assert set(item.cards) <= set(five)


@given(st.permutations(FULL_DECK).map(lambda d: d[:4]), st.randoms(use_true_random=False))
def test_three_card_invariants(four, rnd):
    hand, starter = list(four[:3]), four[3]
    score = score_hand(hand, starter)
    assert score.total == sum(i.points for i in score.items)
    shuffled = hand[:]
    rnd.shuffle(shuffled)
    assert score_hand(shuffled, starter) == score


def _brute_force(hand, starter, crib):
    """Independent slow scorer used to cross-check score_hand."""
    five = list(hand) + [starter]
    pts = 0
    for n in range(2, 6):
        for combo in itertools.combinations(five, n):
            if sum(c.value for c in combo) == 15:
                pts += 2
    pts += 2 * sum(1 for a, b in itertools.combinations(five, 2) if a.rank == b.rank)
    for n in (5, 4, 3):
        runs = [
            c
            for c in itertools.combinations(five, n)
            if len({x.rank for x in c}) == n and max(x.rank for x in c) - min(x.rank for x in c) == n - 1
        ]
        if runs:
            pts += n * len(runs)
            break
    if len({c.suit for c in hand}) == 1:
        if starter.suit == hand[0].suit:
            pts += len(five)
        elif not crib:
            pts += len(hand)
    pts += sum(1 for c in hand if c.rank == 11 and c.suit == starter.suit)
    return pts


def test_matches_brute_force_on_random_hands():
    rng = random.Random(7)
    for _ in range(3000):
        n = rng.choice((3, 4))
        dealt = rng.sample(FULL_DECK, n + 1)
        crib = rng.random() < 0.3
        assert score_hand(dealt[:n], dealt[n], crib).total == _brute_force(dealt[:n], dealt[n], crib)


@pytest.mark.parametrize(
    "seq, expected",
    [
        ("5H", 0),
        ("TH 5C", 2),
        ("5H 5C", 2),
        ("5H 5C 5S", 8),
        ("2H 2C 2S", 6),
        ("2H 2C 2S 2D", 12),
        ("4H 4C 4S 4D", 12),
        ("7H 6C 8D", 3),
        ("5H 2C 4D 3S", 4),
        ("7H 6C 8D 6S", 0),
        ("6H 7C 8D 6S", 3),
        ("2H 3C 5D 6S AH 7C 4D", 7),
        ("2H 3C 3D 4S", 0),
        ("3C 3D 4S 2H", 3),
        ("5H 5C 4D 6S", 3),
        ("KH QC JD", 3),
        ("QH KC AD", 0),
        ("TH TD JS", 0),
        ("KH JD", 0),
        ("TH TC 5D 6S", 2),  # thirty-one
        ("KH 6C 5D 5S", 2),  # pair; count 26
        ("TH 3C 9D 9S", 4),  # thirty-one with a pair: 2 + 2
        ("7H 7C 7S TD", 2),  # a ten after a pair royal: just thirty-one
        ("4H 5C 6D", 5),  # run of three and fifteen
        ("AH 2C 3D 4S 5H", 7),  # run of five and fifteen
        ("AH AC AS AD 2H 2C 2S 2D 3H", 2),  # count 15; no run (the 2s are paired)
        ("6H 4C 5D", 5),  # run 3 + fifteen
    ],
    ids=lambda x: str(x),
)
def test_pegging_table(seq, expected):
    score = score_pegging(cards(seq))
    assert score.total == expected
    assert score.total == sum(i.points for i in score.items)


def test_pegging_item_kinds():
    assert [i.kind for i in score_pegging(cards("TH 3C 9D 9S")).items] == ["thirty_one", "pair"]
    assert [i.kind for i in score_pegging(cards("5H 5C 5S")).items] == ["fifteen", "pair_royal"]
    assert [i.kind for i in score_pegging(cards("2H 2C 2S 2D")).items] == ["double_pair_royal"]
    assert describe(score_pegging(cards("TH 3C 9D 9S"))) == "thirty-one for two, and a pair is four"


def test_last_card_point():
    assert score_last_card(30).total == 1
    assert score_last_card(31).total == 0
    assert score_last_card(15, kind="go").items[0].kind == "go"


@given(st.permutations(FULL_DECK).map(lambda d: d[:8]))
def test_pegging_total_is_sum_of_items(seq):
    # trim to a legal count (<= 31) so the sequence could occur
    legal, count = [], 0
    for c in seq:
        if count + c.value > 31:
            break
        legal.append(c)
        count += c.value
    score = score_pegging(legal)
    assert score.total == sum(i.points for i in score.items)
    assert score.total <= 14
