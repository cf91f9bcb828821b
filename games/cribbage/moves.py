"""What a state allows: who is to act, the legal moves, what a plan plays, the result. Pure queries."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any

from .cards import Card
from .move_words import write as move_text
from .pegging import playable, resolve_play
from .plans import Plan, choose
from .rules import Rules
from .scoring import Score, score_hand
from .state import (
    PRIVATE_KINDS,
    ScoreRecord,
    State,
    with_item,
)


def is_over(state: State) -> bool:
    return state.phase == "over"


def needs_chance(state: State) -> str | None:
    """ "cut_for_deal" or "deal" when the next event must be a chance event, else None."""
    return state.phase if state.phase in ("cut_for_deal", "deal") else None


def show_order(state: State) -> list[tuple[int, str]]:
    """(seat, "hand"|"crib") in the order they are shown: left of the dealer first, crib last."""
    n, d = state.rules.players, state.dealer
    assert d is not None, "shows come after the deal"
    return [((d + k) % n, "hand") for k in range(1, n + 1)] + [(d, "crib")]


def to_act(state: State) -> tuple[int, ...]:
    """Seats that must act now (all undiscarded seats at once during the discard)."""
    if state.phase == "discard":
        return tuple(s for s in range(state.rules.players) if not state.kept[s])
    if state.phase in ("play", "show"):
        assert state.turn is not None, "someone is to play or show"
        return (state.turn,)
    return ()


def muggins_target(state: State) -> ScoreRecord | None:
    rec = state.open_claim
    return rec if rec is not None and rec.missed > 0 else None


def legal_moves(state: State, seat: int) -> list[dict]:
    """Every legal move event for `seat` now (resign and forfeit, always allowed, not listed)."""
    rules = state.rules
    if state.phase == "over" or seat not in range(rules.players):
        return []
    moves: list[dict] = []
    if state.phase == "discard" and not state.kept[seat]:
        for combo in itertools.combinations(state.hands[seat], rules.discard_count):
            moves.append({"kind": "discard", "seat": seat, "cards": [c.code for c in combo]})
    elif state.phase == "play" and seat == state.turn:
        for card in playable(state.hands[seat], state.count):
            if rules.muggins:
                points = play_result(state, seat, card)[0].score.total
                moves += [{"kind": "play", "seat": seat, "card": card.code, "claim": k} for k in range(points + 1)]
            else:
                moves.append({"kind": "play", "seat": seat, "card": card.code})
    elif state.phase == "show" and seat == state.turn:
        points = show_score(state).total
        moves += [{"kind": "count", "seat": seat, "points": k} for k in range(points + 1)]
    target = muggins_target(state)
    if target is not None and rules.side_of(seat) != target.side:
        moves.append({"kind": "muggins", "seat": seat})
    return moves


def moves_to_offer(state: State, seat: int) -> list[dict]:
    """The legal moves as a player may be shown them.

    Without muggins that is `legal_moves`. Under muggins the points of a claim
    are the player's own count: listing the claims the rules accept (0 up to
    the true score) would count for them, and listing "muggins" only when a
    claim fell short would tell what was missed. So plays carry no claim,
    a count carries no points, and muggins is offered whenever a call is possible.
    """
    if not state.rules.muggins:
        return legal_moves(state, seat)
    offered, seen = [], set()
    for move in legal_moves(state, seat):
        move = {k: v for k, v in move.items() if k not in ("claim", "points")}
        key = move_text(move)
        if move["kind"] != "muggins" and key not in seen:
            seen.add(key)
            offered.append(move)
    claim = state.open_claim
    if claim is not None and state.phase != "over" and state.rules.side_of(seat) != claim.side:
        offered.append({"kind": "muggins", "seat": seat})
    return offered


def forced_move(state: State, seat: int) -> dict | None:
    """The seat's only legal move when it is a play (nothing to decide), else None."""
    moves = legal_moves(state, seat)
    return moves[0] if len(moves) == 1 and moves[0]["kind"] == "play" else None


# A seat's moves of these kinds ask no judgement of the hand: pegging, counting, calling muggins.
_SIMPLE_KINDS = frozenset({"play", "count", "muggins"})


def is_simple_turn(state: State, seat: int) -> bool:
    """Whether the seat owes a move now and every one it may make is pegging, counting the
    show or calling muggins: not the discard, a real decision."""
    moves = legal_moves(state, seat)
    return bool(moves) and all(m["kind"] in _SIMPLE_KINDS for m in moves)


def moved_on_for(seat: int, events: Iterable[dict]) -> bool:
    """Whether any of `events` (made after a move was offered to `seat`) changed what that
    seat can see: every event does, except another seat's discard, which lies face down, and
    another seat's pegging plan, which nobody else sees."""
    return any(e.get("kind") not in PRIVATE_KINDS | {"discard"} or e.get("seat") == seat for e in events)


def play_result(state: State, seat: int, card: Card):
    hands_after = with_item(state.hands, seat, tuple(c for c in state.hands[seat] if c != card))
    return resolve_play(state.count_cards, card, hands_after, seat, state.rules.one_go), hands_after


def show_cards(state: State, seat: int, what: str) -> tuple[Card, ...]:
    return state.crib if what == "crib" else state.kept[seat]


def show_score(state: State) -> Score:
    seat, what = show_order(state)[state.show_next]
    assert state.starter is not None, "the starter is turned before the show"
    return score_hand(show_cards(state, seat, what), state.starter, crib=what == "crib")


def table_result_problem(rules: Rules, scores: Any) -> str | None:
    """Why `scores` (one per side, in side order) cannot be a game's final board, or None.

    A game played at the table ends when one side reaches the target: that side's
    score is the target, every other side's is below it and none is negative.
    """
    if not isinstance(scores, (list, tuple)) or len(scores) != rules.sides:
        return f"A result needs {rules.sides} scores, one per side."
    if any(not isinstance(s, int) or isinstance(s, bool) for s in scores):
        return "Scores are whole numbers."
    if any(s < 0 for s in scores):
        return "A score cannot be negative."
    at_target = [s for s in scores if s >= rules.target]
    if any(s > rules.target for s in scores):
        return f"The game ends when a side reaches {rules.target}: no score is above it."
    if not at_target:
        return f"The winner's score is the target, {rules.target}: nobody reached it."
    if len(at_target) > 1:
        return f"Only one side can reach {rules.target}: the game ends when the first does."
    return None


def plan_of(state: State, seat: int) -> Plan | None:
    """The seat's pegging plan for this hand; private to the seat (see `view`)."""
    return state.plans[seat] if state.plans else None


def count_ahead_of(state: State, seat: int) -> int | None:
    """Under muggins, the count of its hand the seat said ahead for this hand's show; private."""
    return state.counts_ahead[seat] if state.counts_ahead else None


def planned_move(state: State) -> dict | None:
    """The play the seat to move makes from its plan now (or, under muggins, the count it said
    ahead), or None when nothing it said answers.

    Pure: the move service plays it like any move (marked "plan": true, which
    `apply` checks against this function, so a replay plays the same cards).
    """
    if state.phase == "show" and state.counts_ahead and state.turn is not None:
        seat, what = show_order(state)[state.show_next]
        points = state.counts_ahead[seat]
        if what == "hand" and points is not None:
            return {"kind": "count", "seat": seat, "points": points, "plan": True}
        return None
    if state.phase != "play" or state.turn is None or not state.plans:
        return None
    seat = state.turn
    plan = plan_of(state, seat)
    if plan is None:
        return None
    last = state.count_cards[-1] if state.count_cards else None
    card = choose(plan, state.hands[seat], state.count, last, lambda c: play_result(state, seat, c)[0].score.total)
    if card is None:
        return None
    move = {"kind": "play", "seat": seat, "card": card.code, "plan": True}
    if state.rules.muggins:
        # A planned card claims exactly what it pegs: the player cannot count a card they do not see laid.
        move["claim"] = play_result(state, seat, card)[0].score.total
    return move


def result(state: State) -> dict | None:
    """Winner side and seats, final scores, skunk status and reason; None while playing."""
    out = state.outcome
    if out is None:
        return None
    rules = state.rules
    losers = [s for s in range(rules.sides) if s != out.winner]
    skunks = {s: (rules.skunk(state.scores[s]) if out.reason == "target" else None) for s in losers}
    best_loser = max(losers, key=lambda s: state.scores[s])
    if out.reason == "resign" and rules.resign_concedes_skunk:
        # Resigning concedes the game as the board stands: it cannot dodge a skunk.
        # A forfeit (timeout, adjudication), or resigning where the rules say so (practice), is a plain win.
        assert out.seat is not None, "a resignation names who resigned"
        best_loser = rules.side_of(out.seat)
        skunks[best_loser] = rules.skunk(state.scores[best_loser])
    return {
        "winner": out.winner,
        "winner_seats": list(rules.seats_of(out.winner)),
        "scores": list(state.scores),
        "skunk": skunks[best_loser],
        "skunks": {str(s): v for s, v in skunks.items()},
        "reason": out.reason,
        "seat": out.seat,
        "detail": out.detail,
    }
