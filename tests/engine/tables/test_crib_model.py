"""The crib model's generator: regenerating gives the shipped tables."""

import pytest

from games.cribbage.strategy import crib_model
from games.cribbage.tables import crib_model as crib_tables
from games.cribbage.tables import one_card_crib


def test_regenerating_gives_the_shipped_five_card_table():
    # The five-card game has far fewer rank-only hands (6,175): regenerate it whole.
    fresh = crib_tables.generate(5)
    shipped = crib_model.load()["five_card"]
    for side in ("dealer", "pone"):
        assert max(abs(fresh[side][k] - v) for k, v in shipped[side].items()) < 1e-3


@pytest.mark.parametrize("players, variant", [(3, "three"), (4, "four")])
def test_regenerating_gives_the_shipped_one_card_tables(players, variant):
    fresh = one_card_crib.generate(players)
    shipped = crib_model.load()[variant]
    for side in ("dealer", "pone", "random_dealer"):
        assert max(abs(fresh[side][k] - v) for k, v in shipped[side].items()) < 1e-3
    for side in ("keep_dealer", "keep_pone"):
        assert fresh[side] == pytest.approx(shipped[side], abs=1e-3)


def test_kept_patterns_say_what_an_expert_keeps():
    two = crib_model.load_patterns()["two"]
    # Fives and fifteens are kept together; a pone keeps the cards a dealer would throw.
    assert two["pone"]["5-5-10-10"] > 1 > two["pone"].get("1-2-12-13", 0)
    assert two["dealer"]["4-5-6-6"] > 1
    fresh = crib_tables.kept_patterns(5, crib_model.load()["five_card"])
    assert fresh == crib_model.load_patterns()["five_card"]
