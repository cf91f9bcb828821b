"""Luck and skill apart: the cards each side got, and what its choices cost (pure, no Django)."""

import random
from fractions import Fraction

import pytest

from games.cribbage.cards import FULL_DECK
from games.cribbage.coach.hand_review import HandRecord, review_hand
from games.cribbage.coach.luck import luck_and_skill, starter_effect
from games.cribbage.scoring import score_hand
from games.cribbage.strategy.analysis import discard_options, hand_ev

from ..conftest import card, cards


def _record(seat, dealt, discard, is_dealer, starter, shows, number=1):
    return HandRecord(
        number,
        seat,
        2,
        tuple(cards(dealt)),
        tuple(cards(discard)),
        is_dealer,
        card(starter) if starter else None,
        (),
        shows=tuple(shows),
    )


def test_the_starter_effect_is_the_show_against_its_average_and_averages_nothing():
    dealt, discard = "5H 5D JH 4S 6C KH", "JH KH"
    keep = cards("5H 5D 4S 6C")
    unseen = [c for c in FULL_DECK if c not in cards(dealt)]
    effects = []
    for starter in unseen:
        hand = _record(0, dealt, discard, False, starter.code, [{"seat": 0, "what": "hand", "cards": []}])
        effects.append(Fraction(starter_effect(hand)).limit_denominator(10_000))
        if starter == card("5S"):
            assert starter_effect(hand) == pytest.approx(float(score_hand(keep, starter).total - hand_ev(keep, unseen)))
    # Over every starter the seat could not see, the cut is worth nothing on average.
    assert float(sum(effects)) / len(effects) == pytest.approx(0, abs=1e-3)


def test_the_crib_counts_for_its_dealer_only_and_no_show_no_effect():
    dealt, discard = "5H 5D JH 4S 6C KH", "JH KH"
    shows = [{"seat": 0, "what": "hand", "cards": []}, {"seat": 0, "what": "crib", "cards": ["JH", "KH", "QC", "2D"]}]
    dealer = _record(0, dealt, discard, True, "5S", shows)
    pone = _record(1, "AC AD 2C 3C 9S TS", "9S TS", False, "5S", shows)
    crib = cards("JH KH QC 2D")
    starters = [c for c in FULL_DECK if c not in cards(dealt) and c not in crib]
    crib_part = score_hand(crib, card("5S"), crib=True).total - Fraction(
        sum(score_hand(crib, s, crib=True).total for s in starters), len(starters)
    )
    hand_only = _record(0, dealt, discard, True, "5S", shows[:1])
    assert starter_effect(dealer) == pytest.approx(starter_effect(hand_only) + float(crib_part))
    assert starter_effect(pone) == 0  # neither of the shows is seat 1's
    assert starter_effect(_record(0, dealt, discard, True, None, [])) == 0


def test_luck_and_skill_adds_up_per_hand_and_for_the_game():
    rng = random.Random(7)
    records = {0: [], 1: []}
    points = {}
    for number in (1, 2, 3):
        deck = rng.sample(FULL_DECK, 13)
        starter = deck[12]
        for seat in (0, 1):
            dealt = deck[6 * seat : 6 * seat + 6]
            is_dealer = (number + seat) % 2 == 0
            options = discard_options(dealt, is_dealer)
            throw = options[rng.randrange(len(options))].discard
            records[seat].append(
                HandRecord(
                    number,
                    seat,
                    2,
                    tuple(dealt),
                    tuple(throw),
                    is_dealer,
                    starter,
                    (),
                    shows=({"seat": seat, "what": "hand", "cards": []},),
                )
            )
        points[number] = [rng.randrange(20), rng.randrange(20)]
    found = luck_and_skill(records, [0, 1], points)
    assert [h.number for h in found.hands] == [1, 2, 3]
    for hand in found.hands:
        for side in (0, 1):
            record = records[side][hand.number - 1]
            review = review_hand(record)
            row = hand.sides[side]
            assert row.dealt_ev == pytest.approx(float(discard_options(record.dealt, record.is_dealer)[0].total_ev))
            assert row.choices == pytest.approx(-float(review.discard.loss))
            assert row.starter == pytest.approx(starter_effect(record))
            assert row.points == points[hand.number][side]
    for side in (0, 1):
        total = found.sides[side]
        assert total.cards == pytest.approx(sum(h.sides[side].cards for h in found.hands))
        assert total.points == sum(points[n][side] for n in points)
    assert found.margin(0) == -found.margin(1)
    assert found.from_cards(0) == pytest.approx(-found.from_cards(1))
    assert found.from_choices(0) == pytest.approx(-found.from_choices(1))
    assert found.from_cards(0) == pytest.approx(found.sides[0].cards - found.sides[1].cards)


def test_partners_count_their_crib_once():
    """Four players: each throws one card to the one crib; the dealer's side gains it once."""
    rng = random.Random(11)
    deck = rng.sample(FULL_DECK, 21)
    starter = deck[20]
    records, expected = {}, {0: 0.0, 1: 0.0}
    crib_evs = {0: [], 1: []}
    for seat in range(4):
        dealt = tuple(deck[5 * seat : 5 * seat + 5])
        is_dealer = seat == 3
        best = discard_options(dealt, is_dealer, players=4)[0]
        records[seat] = [HandRecord(1, seat, 4, dealt, best.discard, is_dealer, starter, (), shows=())]
        expected[seat % 2] += float(best.hand_ev)
        crib_evs[seat % 2].append(float(best.crib_ev))
    found = luck_and_skill(records, [0, 1, 0, 1], {1: [0, 0]})
    dealer_side, pone_side = found.hands[0].sides[1], found.hands[0].sides[0]
    assert dealer_side.dealt_ev == pytest.approx(expected[1] + sum(crib_evs[1]) / 2)
    assert pone_side.dealt_ev == pytest.approx(expected[0] + sum(crib_evs[0]) / 2)
    # One crib's worth, not two: a four-card crib of one card from each seat.
    assert 0 < dealt_crib(dealer_side, expected[1]) < 8 and -8 < dealt_crib(pone_side, expected[0]) < 0


def dealt_crib(side, hands):
    return side.dealt_ev - hands
