"""The board: points pegged as records, the game won the moment a side reaches the target,
and under muggins a claim pegged as claimed with its window open on what it missed."""

from __future__ import annotations

from collections.abc import Iterable

from .scoring import Score, ScoreItem
from .state import Outcome, ScoreRecord, State, replace_state

__all__ = ["peg", "peg_claim", "close_window"]


def peg(state: State, seat: int, phase: str, points: int, items: Iterable[ScoreItem], missed: int = 0) -> State:
    """Add a score record; the game ends the moment a side reaches the target.

    As at a board, the winner's peg stops in the game hole: points past the target are not
    pegged (the record keeps them as `past_target`, its items what the cards made)."""
    rules = state.rules
    side = rules.side_of(seat)
    room = rules.target - state.scores[side]
    past = max(0, points - room)
    points -= past
    record = ScoreRecord(seat, side, phase, points, tuple(items), missed, past)
    scores, prev = state.scores, state.prev_scores
    if points:
        prev = prev[:side] + (scores[side],) + prev[side + 1 :]
        scores = scores[:side] + (scores[side] + points,) + scores[side + 1 :]
    state = replace_state(state, scores=scores, prev_scores=prev, records=state.records + (record,))
    if scores[side] >= rules.target:
        state = replace_state(state, phase="over", turn=None, open_claim=None, outcome=Outcome(side, "target"))
    return state


def peg_claim(state: State, seat: int, phase: str, true: Score, claimed: int) -> State:
    """Under muggins: peg what was claimed and open the muggins window on the rest."""
    state = peg(state, seat, phase, claimed, true.items, true.total - claimed)
    return state if state.phase == "over" else replace_state(state, open_claim=state.records[-1])


def close_window(state: State, seat: int) -> State:
    """An opponent of the last claimer moving on (without calling muggins) closes its window.

    The claimer's own side moving (e.g. discarding for the next hand) keeps it open,
    and the next claim replaces it. The deal does not close it, so the crib can be mugged.
    """
    claim = state.open_claim
    if claim is not None and state.rules.side_of(seat) != claim.side:
        return replace_state(state, open_claim=None)
    return state
