"""Win chances over the board, from the shipped table."""

import pytest

from games.cribbage.strategy.win_chance import after_play
from games.cribbage.strategy.win_chance import win_chance as chance


def test_the_first_dealer_wins_55_to_56_percent():
    first_dealer = chance(0, 0, True)
    print(f"first dealer wins {first_dealer:.4f} (121 up)")
    assert round(first_dealer, 2) in (0.55, 0.56)  # 55-56% to the whole percent


@pytest.mark.parametrize("variant, target", [("two", 121), ("two", 61), ("five_card", 61)])
def test_chances_are_probabilities_that_grow_with_the_score(variant, target):
    for mine in range(0, target, 7):
        for theirs in range(0, target, 7):
            for deal in (True, False):
                p = chance(mine, theirs, deal, variant, target)
                assert 0 <= p <= 1
                if mine + 1 < target:
                    assert chance(mine + 1, theirs, deal, variant, target) >= p - 1e-9
    # Both players at once: exactly one of them wins.
    assert chance(50, 60, True, variant, target) + chance(60, 50, False, variant, target) == pytest.approx(1)


def test_the_pone_counts_first():
    # Both need only a point after the play: the pone's hand is counted first.
    assert after_play(120, 120, False, 2) == 1.0
    assert after_play(120, 120, True, 29) < 0.2
    # A pone's hand that cannot reach 121 leaves the dealer to count out.
    assert after_play(100, 118, False, 0) < 0.2
