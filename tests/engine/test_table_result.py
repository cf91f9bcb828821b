"""The engine's `table_result` event: a game played face to face, as the game's only event."""

import random

import pytest

from games import cribbage


def test_the_side_at_the_target_wins_and_the_skunk_lines_apply():
    state = cribbage.apply(cribbage.new_game(cribbage.rules_for("two")), {"kind": "table_result", "scores": [60, 121]})
    result = cribbage.result(state)
    assert cribbage.is_over(state)
    assert (result["winner"], result["skunk"], result["reason"], result["detail"]) == (
        1,
        "double_skunk",
        "target",
        "table",
    )
    assert cribbage.describe_move({"kind": "table_result", "scores": [60, 121]}) == "result at the table 60-121"


def test_a_table_result_after_a_deal_or_an_impossible_board_is_refused():
    rules = cribbage.rules_for("two")
    state = cribbage.new_game(rules)
    state = cribbage.apply(state, cribbage.cut_for_deal_event(state, random.Random(1)))
    state = cribbage.apply(state, cribbage.deal_event(state, random.Random(1)))
    with pytest.raises(cribbage.IllegalMove):
        cribbage.apply(state, {"kind": "table_result", "scores": [121, 100]})
    for scores in ([121, 121], [100, 90], [121, -1], [121], "121-90", [121.0, 90]):
        assert cribbage.table_result_problem(rules, scores)
        with pytest.raises(cribbage.IllegalMove):
            cribbage.apply(cribbage.new_game(rules), {"kind": "table_result", "scores": scores})
    assert cribbage.table_result_problem(rules, [121, 0]) is None
