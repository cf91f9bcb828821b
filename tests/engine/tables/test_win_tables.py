"""The win-chance table rebuilt from its shipped self-play deals."""

import json

import pytest

from games.cribbage.strategy import win_chance
from games.cribbage.tables.win_tables import SAMPLES_PATH, build_table


@pytest.fixture(scope="module")
def deals():
    with SAMPLES_PATH.open() as f:
        return json.load(f)


def test_the_shipped_table_is_rebuilt_from_its_deals(deals):
    shipped = win_chance.load()["five_card-61"]["pone_wins"]
    rebuilt = build_table(deals["five_card"], 61)
    assert max(abs(x - y) for r1, r2 in zip(shipped, rebuilt) for x, y in zip(r1, r2)) < 1e-4
