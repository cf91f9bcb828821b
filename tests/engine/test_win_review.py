"""The coach in win chances: costs of decisions and the chart of a game."""

import xml.etree.ElementTree as ET

from games.cribbage.endgame import Board
from games.cribbage.win_review import (
    biggest_swings,
    chance_chart_svg,
    chance_series,
    discard_cost,
)

from .conftest import cards


def test_the_best_throw_costs_nothing_and_breaking_fives_costs_points_and_chance():
    hand = cards("5H 5D JH 4S 6C KH")
    board = Board(100, 105, True, "two", 121)
    best = discard_cost(hand, cards("JH KH"), True, board)
    assert best.points_lost == 0
    bad = discard_cost(hand, cards("5H 5D"), False, Board(100, 105, False, "two", 121))
    assert bad.points_lost > 3 and bad.chance_lost > 0.02


def test_the_series_starts_near_even_and_ends_with_the_result():
    deals = [((0, 0), 0), ((12, 7), 1), ((20, 30), 0)]
    series = chance_series(deals, 0, "two", 121, winner_side=1)
    assert 0.5 < series[0] < 0.6  # seat 0 deals first
    assert series[-1] == 0.0 and len(series) == 4
    assert biggest_swings(series, 1)[0][0] == 3


def test_the_chart_is_svg_without_script():
    svg = chance_chart_svg([0.55, 0.6, 0.4, 1.0], title="You <vs> them")
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    assert "script" not in svg.lower() and "&lt;vs&gt;" in svg
    assert len(root.findall("{http://www.w3.org/2000/svg}polyline")) == 1
