"""The ACC club night's points and season table (tournaments.grass_roots), against a season worked
by hand below: two nights of four players, each pair meeting three times a night (nine games each).

Every win is 121-100 (a margin of 21) and every skunk 121-80 (41). Game points: 2 a win, 3 a skunk.

Night 1                                  wins (skunks)  game points  GRPs
  A-B: A, A, B                           A 7 (1)        15           19
  A-C: A, A, C                           B 6 (2)        14           11
  A-D: A (skunk), A, A                   C 5 (2)        12            3
  B-C: B, B, C                           D 0             0            0
  B-D: B (skunk), B (skunk), B
  C-D: C (skunk), C (skunk), C
Night 2
  A-B: A, A, B                           A 6            12            3
  A-C: A, A, A                           B 6 (2)        14           11
  A-D: A, D, D                           C 0             0            0
  B-C: B (skunk), B (skunk), B           D 6            12            3
  B-D: B, B, D
  C-D: D, D, D

Season: A 22 GRPs, 27 game points; B 22 GRPs, 28 game points; C and D 3 GRPs and 12 game points.
Spreads: A +125 and +63, season +188; B +103 and +103, season +206. C night 1: +41+41+21+21+21 -21-21-21-21 = +61; night 2: -21x3 (A) -41-41-21 (B) -21x3 (D)
= -229; season -168. D night 1: -41-21-21 (A) -41-41-21 (B) -41-41-21 (C) = -289; night 2: +21x6
-21x3 = +63; season -226.
The table: B (level with A on GRPs, ahead on game points), A, C (level with D on GRPs and game
points, ahead on spread, though D won more games), D.
"""

from events.standings import Result
from tournaments.grass_roots import grand_slams, grass_roots_points, night_table, season_table

WIN, SKUNK = (121, 100), (121, 80)


def games(first, second, *winners):
    """Three games of `first` and `second`: each winner's name, lower case for a skunk."""
    out = []
    for w in winners:
        score = SKUNK if w.islower() else WIN
        winner = w.upper()
        loser = second if winner == first else first
        out.append(Result(winner, loser, score[0], score[1], winner, "skunk" if w.islower() else "win"))
    return out


NIGHT_1 = (
    games("A", "B", "A", "A", "B")
    + games("A", "C", "A", "A", "C")
    + games("A", "D", "a", "A", "A")
    + games("B", "C", "B", "B", "C")
    + games("B", "D", "b", "b", "B")
    + games("C", "D", "c", "c", "C")
)
NIGHT_2 = (
    games("A", "B", "A", "A", "B")
    + games("A", "C", "A", "A", "A")
    + games("A", "D", "A", "D", "D")
    + games("B", "C", "b", "b", "B")
    + games("B", "D", "B", "B", "D")
    + games("C", "D", "D", "D", "D")
)


def test_grass_roots_points_from_twelve_game_points():
    assert [grass_roots_points(gp) for gp in (0, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21)] == [
        0,
        0,
        3,
        6,
        11,
        19,
        27,
        39,
        53,
        69,
        87,
        107,
    ]
    # Beyond the table (a 9-0 night with skunks): 21's points, the documented assumption.
    assert grass_roots_points(27) == 107


def test_each_night_has_nine_games_a_player_and_its_grass_roots_points():
    for night in (NIGHT_1, NIGHT_2):
        assert all(sum(p in (r.seat0, r.seat1) for r in night) == 9 for p in "ABCD")
    rows = night_table(list("ABCD"), NIGHT_1)
    assert [(r.place, r.player, r.won, r.points, r.grass_roots) for r in rows] == [
        (1, "A", 7, 15, 19),
        (2, "B", 6, 14, 11),
        (3, "C", 5, 12, 3),
        (4, "D", 0, 0, 0),
    ]
    rows = night_table(list("ABCD"), NIGHT_2)
    # A and D level on GRPs, game points and spread (+21x6 -21x3 = +63 each): entry order (A
    # entered first) decides, and the row says so (a row ahead on GRPs, the first rule, says nothing).
    assert [(r.place, r.player, r.points, r.grass_roots, r.spread, r.tie_break) for r in rows] == [
        (1, "B", 14, 11, 103, ""),
        (2, "A", 12, 3, 63, "entry order"),
        (3, "D", 12, 3, 63, ""),
        (4, "C", 0, 0, -229, ""),
    ]


def test_the_season_table_is_the_hand_worked_one_ties_broken_by_game_points_then_spread():
    rows = season_table(list("ABCD"), [NIGHT_1, NIGHT_2])
    assert [(r.place, r.player, r.grass_roots, r.points, r.won, r.spread, r.nights, r.tie_break) for r in rows] == [
        (1, "B", 22, 28, 12, 206, 2, "game points"),
        (2, "A", 22, 27, 13, 188, 2, ""),
        (3, "C", 3, 12, 5, -168, 2, "spread"),
        (4, "D", 3, 12, 6, -226, 2, ""),
    ]


def test_nights_add_grass_roots_points_not_game_points():
    # 15 and 9 game points earn 19 GRPs; 12 and 12 earn 6 though they are more game points.
    assert grass_roots_points(15) + grass_roots_points(9) == 19
    assert grass_roots_points(12) + grass_roots_points(12) == 6


def test_a_nine_and_oh_night_is_a_grand_slam():
    night = games("A", "B", "A", "A", "a") + games("A", "C", "A", "A", "A") + games("A", "D", "A", "A", "A")
    night += games("B", "C", "B", "C", "C") + games("B", "D", "B", "D", "D") + games("C", "D", "C", "D", "D")
    assert grand_slams(list("ABCD"), night) == ["A"]
    assert grand_slams(list("ABCD"), NIGHT_1) == []
