"""Cribbage rules engine: pure Python, no Django. See README.md for the API."""

from .cards import FULL_DECK, Card, card_from_code, parse_cards
from .deal_records import DealRecord, SeatDeal, deal_records
from .engine import apply, cut_for_deal_event, deal_event, new_game, replay
from .move import Move, read_move
from .move import describe as describe_move
from .moves import (
    count_ahead_of,
    forced_move,
    is_over,
    is_simple_turn,
    legal_moves,
    moved_on_for,
    moves_to_offer,
    needs_chance,
    plan_of,
    planned_move,
    result,
    show_order,
    table_result_problem,
    to_act,
)
from .notation import INVALID, InvalidMove
from .plans import PlanProblem, plan_words, read_plan, read_standing_plan, standing_plan_words
from .rules import FULL_GAME, SHORT_GAME, TARGETS, VARIANTS, Rules, rules_for, skunk_lines
from .scoring import Score, ScoreItem, describe, score_hand, score_last_card, score_pegging
from .snapshots import state_from_json, state_to_json
from .state import PRIVATE_KINDS, REFUSALS, IllegalMove, State
from .table_view import SeatView, seat_view, view
from .tallies import ShowTally, show_tallies

__all__ = [
    "PRIVATE_KINDS",
    "DealRecord",
    "SeatDeal",
    "deal_records",
    "count_ahead_of",
    "Card",
    "FULL_DECK",
    "card_from_code",
    "parse_cards",
    "Score",
    "ScoreItem",
    "describe",
    "score_hand",
    "score_pegging",
    "score_last_card",
    "Rules",
    "rules_for",
    "skunk_lines",
    "VARIANTS",
    "TARGETS",
    "FULL_GAME",
    "SHORT_GAME",
    "IllegalMove",
    "REFUSALS",
    "InvalidMove",
    "Move",
    "read_move",
    "describe_move",
    "SeatView",
    "seat_view",
    "INVALID",
    "State",
    "new_game",
    "apply",
    "replay",
    "needs_chance",
    "to_act",
    "legal_moves",
    "moves_to_offer",
    "view",
    "is_over",
    "result",
    "state_to_json",
    "state_from_json",
    "show_order",
    "cut_for_deal_event",
    "deal_event",
    "forced_move",
    "is_simple_turn",
    "moved_on_for",
    "planned_move",
    "plan_of",
    "table_result_problem",
    "read_plan",
    "read_standing_plan",
    "standing_plan_words",
    "plan_words",
    "PlanProblem",
    "ShowTally",
    "show_tallies",
]
