"""Discard analysis: exact expectations, equal to brute force over score_hand."""

import random
from fractions import Fraction
from itertools import combinations

import pytest

from games.cribbage.cards import FULL_DECK, parse_cards
from games.cribbage.scoring import score_hand
from games.cribbage.strategy.analysis import best_discard, crib_ev, discard_options, hand_ev, throw_count


def brute_hand_ev(keep, unseen):
    return Fraction(sum(score_hand(keep, s).total for s in unseen), len(unseen))


def brute_crib_ev(discard, unseen):
    """Every set of other crib cards from the unseen cards, then every starter left."""
    total = n = 0
    for others in combinations(unseen, 4 - len(discard)):
        crib = [*discard, *others]
        for s in unseen:
            if s not in others:
                total += score_hand(crib, s, crib=True).total
                n += 1
    return Fraction(total, n)


def brute_options(hand, is_dealer, players, unseen):
    sign = 1 if is_dealer else -1
    result = {}
    for discard in combinations(hand, throw_count(len(hand), players)):
        keep = [c for c in hand if c not in discard]
        result[discard] = (brute_hand_ev(keep, unseen), sign * brute_crib_ev(discard, unseen))
    return result


def as_dict(options):
    return {o.discard: (o.hand_ev, o.crib_ev) for o in options}


def _random_case(rng):
    """A dealt hand and a small unseen set rich in jacks and shared suits (flushes, nobs)."""
    players = rng.choice([2, 2, 3, 4])
    size = 6 if players == 2 and rng.random() < 0.6 else 5
    suits = rng.sample("SHDC", rng.choice([1, 2, 2, 3]))
    pool = [c for c in FULL_DECK if c.suit in suits or c.rank == 11]
    cards = rng.sample(pool, min(len(pool), size + rng.randint(10, 16)))
    return cards[:size], cards[size:], players, rng.random() < 0.5


@pytest.mark.parametrize("seed", range(16))
def test_options_equal_brute_force_on_small_unseen_sets(seed):
    hand, unseen, players, is_dealer = _random_case(random.Random(seed))
    options = discard_options(hand, is_dealer, players=players, unseen=unseen, crib="random")
    assert as_dict(options) == brute_options(hand, is_dealer, players, unseen)


@pytest.mark.parametrize(
    "text,thrown",
    [
        ("5H 5D JH 4S 6C KH", "JH KH"),  # six cards, full deck
        ("JC 2C 7C 9C QC 3D", "2C 7C"),  # a jack and a four-suited throw
        ("5S JS 6S 4D 9C", "JS 6S"),  # five-card cribbage
    ],
)
def test_one_choice_equals_brute_force_over_the_whole_deck(text, thrown):
    hand = parse_cards(text)
    discard = tuple(parse_cards(thrown))
    unseen = [c for c in FULL_DECK if c not in hand]
    keep = [c for c in hand if c not in discard]
    expected_crib = brute_crib_ev(discard, unseen)
    for is_dealer in (True, False):
        (option,) = [o for o in discard_options(hand, is_dealer, crib="random") if set(o.discard) == set(discard)]
        assert option.hand_ev == brute_hand_ev(keep, unseen)
        assert option.crib_ev == (expected_crib if is_dealer else -expected_crib)
        assert crib_ev(discard, unseen) == expected_crib


@pytest.mark.slow
def test_whole_analysis_equals_brute_force_over_the_whole_deck():
    hand = parse_cards("5H 5D JH 4S 6C KH")
    unseen = [c for c in FULL_DECK if c not in hand]
    assert as_dict(discard_options(hand, True, crib="random")) == brute_options(hand, True, 2, unseen)


@pytest.mark.parametrize(
    "text,players,count,kept",
    [
        ("AS 2H 7D 9C JS QH", 2, 15, 4),
        ("5S JS 6S 4D 9C", 2, 10, 3),
        ("5S JS 6S 4D 9C", 3, 5, 4),
        ("5S JS 6S 4D 9C", 4, 5, 4),
    ],
)
def test_every_choice_once_best_first(text, players, count, kept):
    hand = parse_cards(text)
    options = discard_options(hand, False, players=players)
    assert len(options) == count
    assert len({frozenset(o.discard) for o in options}) == count
    for o in options:
        assert len(o.keep) == kept and sorted(o.keep + o.discard) == sorted(hand)
        assert o.total_ev == o.hand_ev + o.crib_ev and o.crib_ev < 0
    assert [o.total_ev for o in options] == sorted((o.total_ev for o in options), reverse=True)
    assert best_discard(hand, False, players=players) == options[0]


def test_dealer_adds_the_crib_and_pone_subtracts_it():
    hand = parse_cards("AD 2S 3H 4C 5D 6S")
    mine = as_dict(discard_options(hand, True, crib="random"))
    theirs = as_dict(discard_options(hand, False, crib="random"))
    assert mine.keys() == theirs.keys()
    for d in mine:
        assert mine[d][0] == theirs[d][0] and mine[d][1] == -theirs[d][1] > 0


def test_hand_averages_match_schells_worked_examples():
    """cribbageforum.com AnalyzeDiscardsPart2/Part3 (notes section 6.3): average hands over 46 starters."""

    def hand_avg(text, thrown):
        options = discard_options(parse_cards(text), True)
        (o,) = [o for o in options if {c.code for c in o.discard} == set(thrown.split())]
        return round(float(o.hand_ev), 2)

    assert hand_avg("AS 2H 7D 9C JS QH", "7D 9C") == 2.85
    assert hand_avg("AS 2H 7D 9C JS QH", "JS QH") == 2.39
    assert hand_avg("AD 2S 3H 4C 5D 6S", "AD 6S") == 8.57
    assert hand_avg("AD 2S 3H 4C 5D 6S", "AD 2S") == 9.85


def test_the_obvious_choices():
    # Dealer keeps the 28-point-ready 5s and gives itself nothing it needs.
    best = best_discard(parse_cards("5S 5H 5D 5C KS 2H"), True)
    assert {c.rank for c in best.keep} == {5}
    # Pone does not throw a pair of fives to the dealer.
    best = best_discard(parse_cards("5S 5H 9D TC KS QH"), False)
    assert not any(c.rank == 5 for c in best.discard)


def test_hand_ev_and_crib_ev_with_a_given_unseen_set():
    hand = parse_cards("JH 5H 2H 7H 8C 9D")
    keep, discard = hand[:4], hand[4:]
    unseen = [c for c in FULL_DECK if c not in hand]
    assert hand_ev(keep, unseen) == brute_hand_ev(keep, unseen)
    assert hand_ev(keep) == brute_hand_ev(keep, [c for c in FULL_DECK if c not in keep])
    small = unseen[::4]
    assert crib_ev(discard, small) == brute_crib_ev(discard, small)
    assert crib_ev(parse_cards("JH 5H 2H"), small) == brute_crib_ev(parse_cards("JH 5H 2H"), small)


def test_bad_input_is_refused():
    with pytest.raises(ValueError):
        discard_options(parse_cards("5S 5H 5D 5C"), True)
    with pytest.raises(ValueError):
        discard_options(parse_cards("5S 5H 5D 5C KS 2H"), True, players=3)
    with pytest.raises(ValueError):
        discard_options(parse_cards("5S 5S 5D 5C KS"), True)
    with pytest.raises(ValueError):
        discard_options(parse_cards("5S 5H 5D 5C KS 2H"), True, unseen=parse_cards("5S 9D 9C"))
