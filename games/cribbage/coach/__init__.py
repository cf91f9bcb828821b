"""The coach: what a seat's decisions cost, the luck of the deal, and the chance to win hand by hand.

It judges with the strategy below it (``games.cribbage.strategy``) on the rules below that,
and nothing in the rules or the strategy imports it. ``hand_review`` judges each discard and
play and reviews a hand or a game; ``luck`` splits a result into luck and skill;
``win_review`` follows the chance to win through a game and its costliest decisions.
"""

from .hand_review import (
    COSTLY_FROM,
    GameReview,
    HandRecord,
    HandReview,
    game_review,
    judge_discard,
    judge_plays,
    play_reasons,
    review_hand,
    verdict,
)
from .luck import luck_and_skill
from .win_review import ChanceReview, Decision, chance_chart_svg, chance_review

__all__ = [
    "COSTLY_FROM",
    "ChanceReview",
    "Decision",
    "GameReview",
    "HandRecord",
    "HandReview",
    "chance_chart_svg",
    "chance_review",
    "game_review",
    "judge_discard",
    "judge_plays",
    "luck_and_skill",
    "play_reasons",
    "review_hand",
    "verdict",
]
