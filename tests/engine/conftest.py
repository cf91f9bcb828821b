"""Shared helpers for the engine tests (no Django needed)."""
import pytest

from games.cribbage.cards import parse_cards


def cards(text):
    return parse_cards(text)


def card(text):
    (c,) = parse_cards(text)
    return c


@pytest.fixture
def hand():
    """parse_cards as a fixture, for brevity in parametrised tests."""
    return parse_cards
