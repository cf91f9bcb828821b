"""The coach: discard verdicts, pegging lapses, game review (pure, no Django)."""

import random

import pytest

from games.cribbage.cards import FULL_DECK
from games.cribbage.coach.hand_review import (
    GOOD_BELOW,
    MISTAKE_FROM,
    HandRecord,
    game_review,
    judge_discard,
    judge_plays,
    pegging_lapses,
    verdict,
)
from games.cribbage.strategy.analysis import discard_options

from ..conftest import card, cards


def test_verdict_thresholds():
    assert verdict(0) == "good"
    assert verdict(GOOD_BELOW - 0.01) == "good"
    assert verdict(GOOD_BELOW) == "inaccuracy"
    assert verdict(MISTAKE_FROM - 0.01) == "inaccuracy"
    assert verdict(MISTAKE_FROM) == "mistake"


def test_the_best_discard_is_good():
    j = judge_discard(cards("5H 5D JH 4S 6C KH"), cards("JH KH"), is_dealer=True)
    assert j.verdict == "good" and j.loss == 0 and j.rank == 1 and j.choices == 15
    assert set(j.best_discard) == set(cards("JH KH"))
    assert j.ev == j.hand_ev + j.crib_ev


def test_breaking_up_the_fives_is_a_mistake():
    j = judge_discard(cards("5H 5D JH 4S 6C KH"), cards("5H 5D"), is_dealer=False)
    assert j.verdict == "mistake" and j.loss > 5
    assert j.crib_ev < 0  # the opponent's crib counts against the pone
    assert set(j.best_keep) == set(cards("5H 5D 4S 6C"))


@pytest.mark.parametrize("players,size", [(2, 6), (2, 5), (3, 5), (4, 5)])
def test_every_choice_is_judged_by_its_loss(players, size):
    hand = random.Random(size * players).sample(FULL_DECK, size)
    options = discard_options(hand, True, players=players)
    seen = set()
    for option in options:
        j = judge_discard(hand, option.discard, True, players)
        assert j.loss == options[0].total_ev - option.total_ev
        assert j.verdict == verdict(float(j.loss))
        seen.add(j.verdict)
    assert "good" in seen and "mistake" in seen


def test_a_discard_must_come_from_the_hand():
    with pytest.raises(ValueError):
        judge_discard(cards("5H 5D JH 4S 6C KH"), cards("5H 9C"), True)
    with pytest.raises(ValueError):
        judge_discard(cards("5H 5D JH 4S 6C KH"), cards("5H"), True)


def plays(*entries):
    """(seat, code or None, count, round) tuples as view-style play dicts."""
    return [{"seat": s, "card": c, "count": n, "round": r, "go": c is None} for s, c, n, r in entries]


def test_leaving_five_is_a_lapse_with_a_safer_card():
    hand = plays((1, "2S", 2, 0), (0, "3D", 5, 0), (1, "KS", 15, 0))
    (lapse,) = pegging_lapses(seat=0, players=2, kept=cards("3D 9C KH 7H"), known=cards("AS AD 4C"), plays=hand)
    assert lapse.card == card("3D") and lapse.safer is not None and lapse.safer != card("3D")
    assert lapse.loss >= 0.5
    assert any("count at 5" in r for r in lapse.reasons)


def test_leaving_twenty_one_is_a_lapse():
    hand = plays((1, "KS", 10, 0), (0, "AH", 11, 0), (1, "4S", 15, 0), (0, "6D", 21, 0))
    lapses = pegging_lapses(seat=0, players=2, kept=cards("AH 6D 2C 9H"), known=cards("QS QD 8C"), plays=hand)
    (six,) = [lapse for lapse in lapses if lapse.card == card("6D")]
    assert any("count at 21" in r for r in six.reasons)


def test_taking_fifteen_is_no_lapse():
    hand = plays((1, "KS", 10, 0), (0, "5D", 15, 0))
    (judged,) = judge_plays(seat=0, players=2, kept=cards("5D 9C 2S 3H"), known=cards("QS QD 8C"), plays=hand)
    assert judged.loss == 0 and judged.safer is None and judged.reasons == ()


def test_missing_points_is_named():
    hand = plays((1, "KS", 10, 0), (0, "9C", 19, 0))
    (lapse,) = pegging_lapses(seat=0, players=2, kept=cards("5D 9C 2S 3H"), known=cards("QS QD 8C"), plays=hand)
    assert lapse.safer == card("5D")
    assert any("pegged 2 at once" in r for r in lapse.reasons)


def test_game_review_adds_up_the_hands():
    good = HandRecord(
        1,
        0,
        2,
        tuple(cards("5H 5D JH 4S 6C KH")),
        tuple(cards("JH KH")),
        True,
        card("2C"),
        tuple(plays((1, "KS", 10, 0), (0, "5D", 15, 0))),
    )
    bad = HandRecord(
        2,
        0,
        2,
        tuple(cards("5H 5D JH 4S 6C KH")),
        tuple(cards("5H 5D")),
        False,
        card("2C"),
        tuple(plays((0, "4S", 4, 0), (1, "KS", 14, 0), (0, "JH", 24, 0))),
    )
    review = game_review([good, bad])
    assert review.discards == 2 and review.plays == 3
    assert review.verdicts == {"good": 1, "mistake": 1}
    assert review.discard_loss == pytest.approx(float(review.hands[1].discard.loss))
    assert review.pegging_loss == pytest.approx(sum(p.loss for h in review.hands for p in h.plays))
    assert review.total_loss == review.discard_loss + review.pegging_loss
