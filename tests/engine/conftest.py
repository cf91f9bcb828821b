"""Shared helpers for the engine tests (no Django needed)."""

import pytest

from games.cribbage.cards import FULL_DECK, parse_cards


def cards(text):
    return parse_cards(text)


def card(text):
    (c,) = parse_cards(text)
    return c


def stacked_deck(rules, dealer, hands, crib="", starter=None):
    """52 codes that deal `hands` (one string per seat) one card at a time from left of the dealer,
    then `crib` (three-player deck card), then `starter`; the rest follow in deck order."""
    n = rules.players
    hands = [cards(h) for h in hands]
    order = []
    for i in range(rules.hand_size * n):
        seat = (dealer + 1 + i) % n
        order.append(hands[seat][i // n])
    order += cards(crib)
    if starter:
        order.append(card(starter))
    order += [c for c in FULL_DECK if c not in order]
    assert len(set(order)) == 52
    return [c.code for c in order]


@pytest.fixture
def hand():
    """parse_cards as a fixture, for brevity in parametrised tests."""
    return parse_cards
