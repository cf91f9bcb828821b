"""Cribbage rules engine: pure Python, no Django. See README.md for the API."""
from .cards import FULL_DECK, Card, card_from_code, parse_cards
from .engine import (
    REFUSALS, IllegalMove, State, apply, cut_for_deal_event, deal_event, forced_move, is_over, is_simple_turn,
    legal_moves, move_text, moved_on_for, moves_to_offer, needs_chance, new_game, replay, result,
    state_from_json, state_to_json, to_act, view, plan_of, planned_move,
)
from .notation import INVALID, InvalidMove
from .plans import PlanProblem, plan_words, read_plan
from .rules import FULL_GAME, SHORT_GAME, TARGETS, VARIANTS, Rules, rules_for, skunk_lines
from .scoring import Score, ScoreItem, describe, score_hand, score_last_card, score_pegging

__all__ = [
    "Card", "FULL_DECK", "card_from_code", "parse_cards",
    "Score", "ScoreItem", "describe", "score_hand", "score_pegging", "score_last_card",
    "Rules", "rules_for", "skunk_lines", "VARIANTS", "TARGETS", "FULL_GAME", "SHORT_GAME",
    "IllegalMove", "REFUSALS", "InvalidMove", "INVALID", "State", "new_game", "apply", "replay", "needs_chance", "to_act",
    "legal_moves", "moves_to_offer", "view", "is_over", "result", "state_to_json", "state_from_json",
    "move_text", "cut_for_deal_event", "deal_event", "forced_move", "is_simple_turn", "moved_on_for",
    "planned_move", "plan_of", "read_plan", "plan_words", "PlanProblem",
]
