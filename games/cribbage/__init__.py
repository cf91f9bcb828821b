"""Cribbage rules engine: pure Python, no Django. See README.md for the API."""
from .cards import FULL_DECK, Card, card_from_code, parse_cards
from .scoring import Score, ScoreItem, describe, score_hand, score_last_card, score_pegging

__all__ = [
    "Card", "FULL_DECK", "card_from_code", "parse_cards",
    "Score", "ScoreItem", "describe", "score_hand", "score_pegging", "score_last_card",
]
