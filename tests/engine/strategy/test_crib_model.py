"""The crib model against Craig Hessel's published tables (Schell, cribbageforum.com)."""

import math

import pytest

from games.cribbage.cards import parse_cards
from games.cribbage.strategy import crib_model
from games.cribbage.strategy.analysis import discard_options

from ..conftest import cards

# Rows A..K, columns A..K (symmetric). The dealer's crib when the pone throws the pair
# (http://cribbageforum.com/OppCrib.htm) and the dealer's own crib when he throws it
# (http://www.cribbageforum.com/YourCrib.htm); rank-only, crib flushes ignored.
HESSEL_PONE_THROWS = """
6.07 5.07 5.17 5.74 6.06 4.93 4.95 4.92 4.66 4.46 4.72 4.41 4.34
5.07 6.43 7.34 5.44 6.17 5.13 5.12 5.03 4.82 4.64 4.91 4.60 4.53
5.17 7.34 6.78 6.10 6.85 4.92 5.16 5.08 4.82 4.70 4.97 4.66 4.59
5.74 5.44 6.10 6.59 7.46 5.47 4.91 5.02 4.75 4.55 4.80 4.49 4.43
6.06 6.17 6.85 7.46 9.39 7.66 7.08 6.36 6.22 7.46 7.75 7.42 7.31
4.93 5.13 4.92 5.47 7.66 7.17 6.64 6.05 6.31 4.41 4.61 4.29 4.25
4.95 5.12 5.16 4.91 7.08 6.64 7.25 7.88 5.46 4.44 4.73 4.44 4.38
4.92 5.03 5.08 5.02 6.36 6.05 7.88 6.76 5.97 5.02 4.65 4.38 4.31
4.66 4.82 4.82 4.75 6.22 6.31 5.46 5.97 6.44 5.52 4.98 4.14 4.13
4.46 4.64 4.70 4.55 7.46 4.41 4.44 5.02 5.52 6.11 5.60 4.65 3.99
4.72 4.91 4.97 4.80 7.75 4.61 4.73 4.65 4.98 5.60 6.56 5.55 4.89
4.41 4.60 4.66 4.49 7.42 4.29 4.44 4.38 4.14 4.65 5.55 5.89 4.56
4.34 4.53 4.59 4.43 7.31 4.25 4.38 4.31 4.13 3.99 4.89 4.56 5.72
"""
HESSEL_OWN_CRIB = """
5.26 4.18 4.47 5.45 5.48 3.80 3.73 3.70 3.33 3.37 3.65 3.39 3.42
4.18 5.67 6.97 4.51 5.44 3.87 3.81 3.58 3.63 3.51 3.79 3.52 3.55
4.47 6.97 5.90 4.88 6.01 3.72 3.67 3.84 3.66 3.61 3.88 3.62 3.66
5.45 4.51 4.88 5.65 6.54 3.87 3.74 3.84 3.69 3.62 3.89 3.63 3.67
5.48 5.44 6.01 6.54 8.95 6.65 6.04 5.49 5.47 6.68 7.04 6.71 6.70
3.80 3.87 3.72 3.87 6.65 5.74 4.94 4.70 5.11 3.15 3.40 3.08 3.13
3.73 3.81 3.67 3.74 6.04 4.94 5.98 6.58 4.06 3.10 3.43 3.17 3.21
3.70 3.58 3.84 3.84 5.49 4.70 6.58 5.42 4.74 3.86 3.39 3.16 3.20
3.33 3.63 3.66 3.69 5.47 5.11 4.06 4.74 5.09 4.27 3.98 2.97 3.05
3.37 3.51 3.61 3.62 6.68 3.15 3.10 3.86 4.27 4.73 4.64 3.36 2.86
3.65 3.79 3.88 3.89 7.04 3.40 3.43 3.39 3.98 4.64 5.37 4.90 4.07
3.39 3.52 3.62 3.63 6.71 3.08 3.17 3.16 2.97 3.36 4.90 4.66 3.50
3.42 3.55 3.66 3.67 6.70 3.13 3.21 3.20 3.05 2.86 4.07 3.50 4.62
"""


def _table(text):
    rows = [[float(x) for x in line.split()] for line in text.strip().splitlines()]
    return {crib_model.pair_key((a, b)): rows[a - 1][b - 1] for a, b in crib_model.PAIRS}


def rms(model, published):
    return math.sqrt(sum((model[k] - v) ** 2 for k, v in published.items()) / len(published))


@pytest.mark.parametrize("side, published", [("pone", HESSEL_PONE_THROWS), ("dealer", HESSEL_OWN_CRIB)])
def test_shipped_model_meets_hessels_table(side, published):
    model = crib_model.load()["two"][side]
    assert len(model) == 91
    fit = rms(model, _table(published))
    print(f"RMS against Hessel ({side} throws): {fit:.3f}")
    assert fit < 0.15


def test_the_expert_opponent_changes_the_crib_the_right_way():
    two = crib_model.load()["two"]
    # A pone keeps the fives away from the dealer's crib, so a dealer's 5-5 is worth less
    # than against random throws; the dealer throws good cards to his own crib, so the pone's
    # balking 10-K still makes a crib worth more than random.
    assert two["dealer"]["5-5"] < two["random_dealer"]["5-5"]
    assert two["pone"]["10-13"] > two["random_pone"]["10-13"]
    assert two["pone"]["5-5"] > two["dealer"]["5-5"]


def test_the_analysis_uses_the_model_for_two_players():
    hand = cards("5H 5D JH 4S 6C KH")
    random_crib = {o.discard: o.crib_ev for o in discard_options(hand, True, crib="random")}
    for o in discard_options(hand, True):
        ranks = [c.rank for c in o.discard]
        correction = crib_model.model_correction(ranks, True)
        assert float(o.crib_ev) == pytest.approx(float(random_crib[o.discard]) + correction)


def test_the_one_card_model_shows_what_the_throwers_do():
    three, four = crib_model.load()["three"], crib_model.load()["four"]
    for table in (three, four):
        # A 5 makes any crib; a king thrown against the crib is the balk.
        assert table["pone"]["5"] > table["pone"]["13"] + 2
        assert table["dealer"]["5"] > table["dealer"]["13"] + 2
        # Seats against the crib keep their fives: almost never thrown there; kings often are.
        assert table["keep_pone"][4] > 0.95 and table["keep_pone"][12] < 0.6
    for rank in map(str, range(1, 14)):
        # Three players: both pones balk the dealer's crib, so it is worth less than random
        # whatever the dealer throws.
        assert three["dealer"][rank] < three["random_dealer"][rank]
        # Four players: a card thrown against the crib meets the dealer's side's two helpful
        # throws and one balk, the dealer's side's card one helpful throw and two balks.
        assert four["pone"][rank] >= four["dealer"][rank] - 0.02
    assert sum(four["pone"].values()) > sum(four["dealer"].values()) + 2


@pytest.mark.parametrize("players", [3, 4])
def test_the_analysis_uses_the_model_for_three_and_four_players(players):
    hand = parse_cards("5H 5D JH 4S KC")
    for is_dealer in (True, False):
        random_crib = {o.discard: o.crib_ev for o in discard_options(hand, is_dealer, players=players, crib="random")}
        sign = 1 if is_dealer else -1
        for o in discard_options(hand, is_dealer, players=players):
            correction = crib_model.model_correction([o.discard[0].rank], is_dealer, 5, players)
            assert correction != 0
            assert float(o.crib_ev) == pytest.approx(float(random_crib[o.discard]) + sign * correction)
