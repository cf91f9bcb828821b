"""The round robin (circle method) and the knockout bracket, worked by hand."""

import itertools
from collections import Counter

import pytest

from tournaments import schedule


@pytest.mark.parametrize("n", [2, 3, 4, 5, 7, 8])
def test_everyone_meets_everyone_once_a_leg_with_a_bye_for_odd_numbers(n):
    players = list("ABCDEFGH"[:n])
    rounds = schedule.round_robin(players)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    met = Counter(frozenset((p.home, p.away)) for rnd in rounds for p in rnd if not p.is_bye)
    assert set(met) == {frozenset(pair) for pair in itertools.combinations(players, 2)}
    assert set(met.values()) == {1}
    for rnd in rounds:
        seen = [x for p in rnd for x in (p.home, p.away) if x is not None]
        assert sorted(seen) == sorted(players)  # everyone is at a table (or has the bye) each round
        assert [p.is_bye for p in rnd] == sorted(p.is_bye for p in rnd)  # the bye is the last table
    byes = Counter(p.home for rnd in rounds for p in rnd if p.is_bye)
    assert (set(byes.values()) == {1} and len(byes) == n) if n % 2 else not byes


def test_seat_zero_is_shared_out_and_the_second_leg_swaps_the_seats():
    players = list("ABCDEFGH")
    once = schedule.round_robin(players)
    homes = Counter(p.home for rnd in once for p in rnd)
    assert sorted(homes.values()) == [3, 3, 3, 3, 4, 4, 4, 4]  # seven games each: three or four in seat 0
    twice = schedule.round_robin(players, legs=2)
    assert len(twice) == 14
    for first, second in zip(twice[:7], twice[7:]):
        assert [(p.away, p.home) for p in first] == [(p.home, p.away) for p in second]


def test_an_entrant_listed_twice_is_refused():
    with pytest.raises(ValueError, match="twice"):
        schedule.round_robin(["A", "B", "A"])
    with pytest.raises(ValueError, match="twice"):
        schedule.first_round(["A", "A"])


def test_standard_seeding_one_against_sixteen_and_the_top_two_meet_only_in_the_final():
    assert schedule.seed_positions(4) == [1, 4, 2, 3]
    assert schedule.seed_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    positions = schedule.seed_positions(16)
    assert positions[:4] == [1, 16, 8, 9]
    assert positions.index(2) >= 8  # the other half


def test_a_knockout_of_twelve_gives_byes_to_the_top_four_seeds():
    seeds = list(range(1, 13))
    first = schedule.first_round(seeds)
    assert [(p.home, p.away) for p in first] == [
        (1, None),
        (8, 9),
        (4, None),
        (5, 12),
        (2, None),
        (7, 10),
        (3, None),
        (6, 11),
    ]
    assert schedule.round_count(12) == 4
    assert [schedule.round_name(n, 4) for n in (1, 2, 3, 4)] == ["Round 1", "Quarter-finals", "Semi-finals", "Final"]
    # The favourites win: the quarter-finals are 1 v 8, 4 v 5, 2 v 7, 3 v 6.
    winners = [min(p.home, p.away or 99) for p in first]
    assert [(p.home, p.away) for p in schedule.next_round(winners)] == [(1, 8), (4, 5), (2, 7), (3, 6)]


def test_a_knockout_needs_two_entrants():
    with pytest.raises(ValueError, match="at least two"):
        schedule.first_round(["A"])


def test_best_of_n_needs_a_majority():
    assert [schedule.wins_needed(n) for n in (1, 3, 5, 7)] == [1, 2, 3, 4]
