"""League and duplicate tables over chosen results, the expected tables worked by hand."""

from fractions import Fraction

import pytest

from events.standings import Result, Values, duplicate_table, league_table

GAMES = Values(win=1, skunk=2, double_skunk=2, forfeit=1)
DOUBLE = Values(win=1, skunk=2, double_skunk=3, forfeit=1)
ACC = Values(win=2, skunk=3, double_skunk=3, forfeit=2)

# A league of four, once round robin (six games), results chosen:
#   A beat B 121-80 (skunk)            A beat C 121-100
#   B beat C 121-50 (double skunk)     B beat D 121-110
#   C beat D 121-105                   D beat A 121-119
LEAGUE = [
    Result("A", "B", 121, 80, "A", "skunk"),
    Result("A", "C", 121, 100, "A", "win"),
    Result("B", "C", 121, 50, "B", "double_skunk"),
    Result("B", "D", 121, 110, "B", "win"),
    Result("C", "D", 121, 105, "C", "win"),
    Result("D", "A", 121, 119, "D", "win"),
]


def _table(rows):
    return [(r.place, r.player, r.points, r.spread, r.tie_break) for r in rows]


def test_game_points_with_skunks_at_two_and_a_double_skunk_also_two():
    # A: skunk 2 + win 1 = 3. B: double skunk counts as a skunk 2 + win 1 = 3. C: 1. D: 1.
    # A and B level on 3: head to head A beat B (A took 2 from B, B none from A): A first.
    # C and D level on 1: C beat D: C third.
    # Spreads: A +41 +21 -2 = +60; B -41 +71 +11 = +41; C -21 -71 +16 = -76; D -11 -16 +2 = -25.
    rows = league_table(list("ABCD"), LEAGUE, GAMES)
    assert _table(rows) == [
        (1, "A", 3, 60, "head to head"),
        (2, "B", 3, 41, ""),
        (3, "C", 1, -76, "head to head"),
        (4, "D", 1, -25, ""),
    ]
    b = rows[1]
    assert (b.played, b.won, b.lost, b.skunks_given, b.skunks_taken) == (3, 2, 1, 1, 1)


def test_with_the_double_skunk_rule_a_double_skunk_is_three_and_b_goes_top():
    # B: 3 + 1 = 4, A 3, C 1, D 1.
    rows = league_table(list("ABCD"), LEAGUE, DOUBLE)
    assert _table(rows)[:2] == [(1, "B", 4, 41, ""), (2, "A", 3, 60, "")]


def test_acc_match_points_win_two_skunk_three():
    # A: 3 + 2 = 5; B: 3 + 2 = 5 (A beat B: head to head); C 2; D 2 (C beat D).
    rows = league_table(list("ABCD"), LEAGUE, ACC)
    assert [(r.player, r.points) for r in rows] == [("A", 5), ("B", 5), ("C", 2), ("D", 2)]


def test_a_three_way_tie_level_head_to_head_goes_to_the_spread():
    # A beat B, B beat C, C beat A (each a plain win): all 1 point, 1 each head to head.
    # Spreads: A +10 -30 = -20; B -10 +20 = +10; C -20 +30 = +10; B and C level on spread too:
    # entry order puts B before C.
    results = [
        Result("A", "B", 121, 111, "A"),
        Result("B", "C", 121, 101, "B"),
        Result("C", "A", 121, 91, "C"),
    ]
    rows = league_table(list("ABC"), results, GAMES)
    assert _table(rows) == [(1, "B", 1, 10, "entry order"), (2, "C", 1, 10, "spread"), (3, "A", 1, -20, "")]


def test_a_forfeit_counts_its_value_and_unknown_players_are_refused():
    rows = league_table(list("AB"), [Result("A", "B", 40, 62, "B", "forfeit")], ACC)
    assert [(r.player, r.points, r.spread) for r in rows] == [("B", 2, 22), ("A", 0, -22)]
    with pytest.raises(ValueError):
        league_table(list("AB"), [Result("A", "Z", 121, 1, "A")], GAMES)
    with pytest.raises(ValueError):
        Result("A", "B", 121, 1, "C")


def test_duplicate_compares_each_player_with_the_field_on_the_same_cards():
    # Round 1, two tables on the same deals: A (seat 0) v B, C (seat 0) v D.
    #   A beat B 121-100 (A margin +21, B -21); D beat C 121-111 (C -10, D +10).
    # Seat 0's board: A +21 against C -10: A +31, C -31. Seat 1's: B -21 against D +10: B -31, D +31.
    # Round 2: A (seat 0) v C, B (seat 0) v D.
    #   C beat A 121-120 (A -1, C +1); B beat D 121-90 (B +31, D -31).
    # Seat 0: A -1 v B +31: A -32, B +32. Seat 1: C +1 v D -31: C +32, D -32.
    # Totals: A -1, B +1, C +1, D -1. Everyone won once (121-90 is a plain win: the loser is
    # past 90), so each pair level on the field goes by spread: B +10 before C -9, A +20 before D -21.
    results = [
        Result("A", "B", 121, 100, "A", deals=1),
        Result("C", "D", 111, 121, "D", deals=1),
        Result("A", "C", 120, 121, "C", deals=2),
        Result("B", "D", 121, 90, "B", deals=2),
    ]
    rows = duplicate_table(list("ABCD"), results, GAMES)
    assert [(r.player, r.field, r.boards, r.points, r.spread) for r in rows] == [
        ("B", Fraction(1), 2, 1, 10),
        ("C", Fraction(1), 2, 1, -9),
        ("A", Fraction(-1), 2, 1, 20),
        ("D", Fraction(-1), 2, 1, -21),
    ]
    assert [r.tie_break for r in rows] == ["spread", "", "spread", ""]
