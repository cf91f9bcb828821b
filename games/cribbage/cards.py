"""Playing cards: the immutable `Card`, the full deck, and a forgiving parser.

A card is a `(rank, suit)` tuple: rank 1..13 (A=1, J=11, Q=12, K=13), suit one
of 'S', 'H', 'D', 'C'.  Cards compare by `.index`, i.e. by rank, then suit in
the order S, H, D, C, so `sorted(FULL_DECK) == list(FULL_DECK)`.
"""

from __future__ import annotations

import re
from collections import namedtuple

__all__ = ["Card", "FULL_DECK", "SUITS", "RANKS", "parse_cards", "card_from_code"]

SUITS = "SHDC"
RANKS = tuple(range(1, 14))

_RANK_CODES = {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K"}
_RANK_LABELS = {1: "A", 10: "10", 11: "J", 12: "Q", 13: "K"}
_SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def _rank_code(rank: int) -> str:
    return _RANK_CODES.get(rank, str(rank))


class Card(namedtuple("_Card", "rank suit")):
    """An immutable card; `str(card)` is its canonical code, e.g. "TD"."""

    __slots__ = ()

    def __new__(cls, rank: int, suit: str) -> Card:
        if type(rank) is not int or not 1 <= rank <= 13 or suit not in _SUIT_INDEX:
            raise ValueError(f"Not a card: rank={rank!r}, suit={suit!r}")
        return super().__new__(cls, rank, suit)

    @property
    def value(self) -> int:
        """Counting value: ace 1, pips at face value, ten and faces 10."""
        return 10 if self[0] > 10 else self[0]

    @property
    def index(self) -> int:  # type: ignore[override]  # shadows tuple.index; every caller means the deck position
        """Position 0..51 in `FULL_DECK`: (rank - 1) * 4 + 'SHDC'.index(suit)."""
        return (self[0] - 1) * 4 + _SUIT_INDEX[self[1]]

    @property
    def code(self) -> str:
        """ASCII code such as "5H", "TD", "AS"."""
        return CODES[self]

    @property
    def label(self) -> str:
        """Human form such as "5♥", "10♦"."""
        return _RANK_LABELS.get(self[0], str(self[0])) + _SUIT_SYMBOLS[self[1]]

    @classmethod
    def from_index(cls, i: int) -> Card:
        return FULL_DECK[i]

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"

    # Order by deck index (rank, then S H D C) rather than by the suit letter.
    def __lt__(self, other):
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def __le__(self, other):
        if not isinstance(other, Card):
            return NotImplemented
        return self.index <= other.index

    def __gt__(self, other):
        if not isinstance(other, Card):
            return NotImplemented
        return self.index > other.index

    def __ge__(self, other):
        if not isinstance(other, Card):
            return NotImplemented
        return self.index >= other.index

    __hash__ = tuple.__hash__
    __eq__ = tuple.__eq__
    __ne__ = tuple.__ne__


_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}

FULL_DECK: tuple[Card, ...] = tuple(Card(r, s) for r in RANKS for s in SUITS)
# Read-only: each card's code ("TD"), and each token read as a card ("10d", "T♦" upper-cased).
CODES: dict[Card, str] = {c: _rank_code(c.rank) + c.suit for c in FULL_DECK}

_RANK_TOKENS = {"A": 1, "T": 10, "10": 10, "J": 11, "Q": 12, "K": 13}
_RANK_TOKENS.update({str(r): r for r in range(2, 10)})
_SUIT_TOKENS = {
    "S": "S",
    "H": "H",
    "D": "D",
    "C": "C",
    "♠": "S",
    "♥": "H",
    "♦": "D",
    "♣": "C",
    "♤": "S",
    "♡": "H",
    "♢": "D",
    "♧": "C",
}
BY_TOKEN: dict[str, Card] = {}
for _card in FULL_DECK:
    for _rt, _r in _RANK_TOKENS.items():
        if _r == _card.rank:
            for _st, _s in _SUIT_TOKENS.items():
                if _s == _card.suit:
                    BY_TOKEN[_rt + _st] = _card
# Variation selectors (emoji U+FE0F, text U+FE0E) may follow a suit symbol.
_IGNORED = dict.fromkeys(map(ord, "\ufe0f\ufe0e"))
_SEPARATORS = re.compile(r"[\s,]+")


def card_from_code(code: str) -> Card:
    """The card named by one token such as "10h", "TD", "5♥"; ValueError otherwise."""
    card = BY_TOKEN.get(code) or BY_TOKEN.get(code.translate(_IGNORED).strip().upper())
    if card is None:
        raise ValueError(f"Cannot read {code!r} as a card")
    return card


def parse_cards(text: str) -> list[Card]:
    """Cards named in `text`, in order, separated by spaces and/or commas.

    Duplicates are returned as given; empty text gives []. A bad token raises
    ValueError naming it, e.g. "Cannot read '5X' as a card".
    """
    return [card_from_code(tok) for tok in _SEPARATORS.split(text) if tok]
