from ladders import rungs


def test_a_challenger_win_takes_the_place_and_those_between_move_down_one():
    assert rungs.fold([{"op": "promote", "winner": 5, "over": 2}], [1, 2, 3, 4, 5]) == [1, 5, 2, 3, 4]


def test_a_challenger_already_above_the_defender_stays_put():
    assert rungs.fold([{"op": "promote", "winner": 2, "over": 4}], [1, 2, 3, 4, 5]) == [1, 2, 3, 4, 5]


def test_results_on_overlapping_rungs_apply_in_order_to_the_positions_of_the_moment():
    start = [1, 2, 3, 4, 5]
    e_over_c = {"op": "promote", "winner": 5, "over": 3}
    d_over_c = {"op": "promote", "winner": 4, "over": 3}
    # E's match finished first: E to 3; then D (pushed to 5) takes C's new place 4.
    assert rungs.fold([e_over_c, d_over_c], start) == [1, 2, 5, 4, 3]
    # D's finished first: D to 3; then E takes C's new place 4.
    assert rungs.fold([d_over_c, e_over_c], start) == [1, 2, 4, 5, 3]


def test_remove_drop_and_order():
    order = rungs.fold([{"op": "append", "entrant": e} for e in (1, 2, 3, 4)])
    assert order == [1, 2, 3, 4]
    assert rungs.apply_op(order, {"op": "remove", "entrant": 2}) == [1, 3, 4]
    assert rungs.apply_op(order, {"op": "drop", "entrant": 1, "places": 2}) == [2, 3, 1, 4]
    assert rungs.apply_op(order, {"op": "drop", "entrant": 3, "places": 9}) == [1, 2, 4, 3]
    assert rungs.apply_op(order, {"op": "order", "order": [4, 3, 2, 1, 99]}) == [4, 3, 2, 1]
