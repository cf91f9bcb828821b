"""The coach in win chances: costs of decisions and the chart of a game."""

import random
import xml.etree.ElementTree as ET

import pytest

from games.cribbage import apply, deal_event, is_over, new_game, result, rules_for, to_act
from games.cribbage.coach.win_review import (
    biggest_swings,
    chance_chart_svg,
    chance_review,
    chance_series,
    discard_cost,
)
from games.cribbage.strategy.endgame import Board
from games.cribbage.strategy.players import choose_move

from ..conftest import cards


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


def _self_play(variant, seed):
    rules = rules_for(variant)
    rng = random.Random(seed)
    state = new_game(rules, first_dealer=0)
    moves = []
    while not is_over(state):
        if state.phase == "deal":
            move = deal_event(state, rng)
        else:
            seat = to_act(state)[0]
            move = {**choose_move(state, seat, "easy", rng), "seat": seat}
        moves.append(move)
        state = apply(state, move)
    return rules, moves, state


@pytest.mark.parametrize("variant", ["two", "five_card"])
def test_a_game_replayed_gives_every_decision_its_cost_and_the_series_its_result(variant):
    rules, moves, state = _self_play(variant, 11)
    winner = result(state)["winner"]
    for seat in (0, 1):
        review = chance_review(rules, 0, moves, seat)
        deals = sum(m["kind"] == "deal" for m in moves)
        assert len(review.series) == deals + 1 and review.series[-1] == (1.0 if winner == seat else 0.0)
        assert all(0 <= x <= 1 for x in review.series)
        mine = [m for m in moves if m.get("seat") == seat and m["kind"] in ("discard", "play")]
        assert len(review.decisions) == len(mine)
        assert all(d.cost.chance_lost >= 0 and 0 <= d.cost.best_chance <= 1 for d in review.decisions)
        swings = review.swings(3)
        assert swings and [d.cost.chance_lost for d in swings] == sorted(
            (d.cost.chance_lost for d in swings), reverse=True
        )
        # Only the hands asked for are judged.
        assert {d.hand for d in chance_review(rules, 0, moves, seat, hands=(2,)).decisions} == {2}


def test_no_review_in_chances_without_a_table():
    assert chance_review(rules_for("three"), 0, [], 0) is None
