"""The pure rating arithmetic: openskill's Plackett-Luce over frozen skills, and the shown scale."""

import pytest

from ratings.arithmetic import NEW, OVERALL, Result, Shown, Skill, after, ranks_of, rate, shown


def test_a_new_player_shows_1000_with_a_wide_uncertainty():
    assert (shown(NEW).value, shown(NEW).uncertainty) == (1000, 333)
    assert str(shown(NEW)) == "1000 ± 333"
    assert shown(Skill(25.0, 2.0)).value == 1000 + 40 * 19  # mu - 3 sigma, times 40
    assert shown(Skill(0.0, 9.0)).value == 0  # never below 0


def test_the_winner_gains_what_the_loser_loses_and_both_grow_surer():
    [[winner], [loser]] = rate([[NEW], [NEW]], [1, 2])
    assert winner.mu > NEW.mu > loser.mu
    assert winner.mu - NEW.mu == pytest.approx(NEW.mu - loser.mu)
    assert winner.sigma < NEW.sigma and loser.sigma < NEW.sigma


def test_beating_a_stronger_player_gains_more():
    strong = Skill(35.0, 3.0)
    [[upset], _] = rate([[NEW], [strong]], [1, 2])
    [[expected], _] = rate([[NEW], [Skill(15.0, 3.0)]], [1, 2])
    assert upset.mu - NEW.mu > expected.mu - NEW.mu


def test_three_players_in_their_finishing_order_and_partners_moving_together():
    [[first], [second], [third]] = rate([[NEW], [NEW], [NEW]], [1, 2, 3])
    assert first.mu > second.mu > third.mu
    [[a, c], [b, d]] = rate([[NEW, NEW], [NEW, NEW]], [1, 2])
    assert a == c and b == d and a.mu > NEW.mu > b.mu


@pytest.mark.parametrize(
    "scores, winner, last, ranks",
    [
        ([121, 90], 0, None, [1, 2]),
        ([100, 121, 70], 1, None, [2, 1, 3]),
        ([100, 121, 100], 1, None, [2, 1, 2]),  # equal scores share a place
        ([110, 121, 70], 1, 0, [3, 1, 2]),  # who resigned is behind the other loser
        ([50, 40], 0, 1, [1, 2]),
    ],
)
def test_finishing_places(scores, winner, last, ranks):
    assert ranks_of(scores, winner, last) == ranks


def test_a_result_moves_the_family_and_the_overall_rating():
    result = Result("three", ((1,), (2,), (3,)), (2, 1, 3))
    changed = after(result, {(2, OVERALL): Skill(30.0, 4.0)})
    assert set(changed) == {(p, f) for p in (1, 2, 3) for f in (OVERALL, "three")}
    assert changed[(2, OVERALL)] != changed[(2, "three")]  # the overall one started from 30, the family one new
    assert changed[(2, "three")].mu > NEW.mu > changed[(3, "three")].mu


def test_a_rating_in_plain_words():
    assert shown(NEW).words == "about 1000 (no rated game yet)"
    assert shown(NEW, games=3).words == "about 1000 (still settling after 3 games)"
    assert Shown(1500, 90, 40).words == "about 1500" and not Shown(1500, 90, 40).settling
