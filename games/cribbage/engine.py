"""The game as immutable state plus events: `apply(state, event) -> state`.

Events are plain JSON-able dicts with a "kind" (see README.md). Randomness never
happens here: chance events (the cut for deal, the shuffled deck) are built by
`cut_for_deal_event` / `deal_event` from a caller-supplied `random.Random`.

Here: the game's own events (the cut for deal, resigning or forfeiting, a result from the
table) and the one table of handlers; a hand's events are `hand_events`', a seat's private
declarations `plan_events`', the board `scoreboard`'s.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

from .cards import FULL_DECK
from .event_checks import all_legal, card_of, seat_of
from .hand_events import apply_count, apply_deal, apply_discard, apply_go, apply_muggins, apply_play
from .moves import table_result_problem
from .plan_events import apply_count_ahead, apply_plan
from .rules import Rules
from .scoreboard import peg
from .scoring import ScoreItem
from .state import IllegalMove, Outcome, State, replace_state

__all__ = ["new_game", "apply", "replay", "cut_for_deal_event", "deal_event"]


def new_game(rules: Rules, first_dealer: int | None = None) -> State:
    """A fresh game; without `first_dealer` the first event is a cut for deal."""
    n = rules.players
    state = State(
        rules=rules,
        scores=(0,) * rules.sides,
        prev_scores=(0,) * rules.sides,
        hands=((),) * n,
        kept=((),) * n,
        discards=((),) * n,
    )
    if first_dealer is None:
        return state
    if first_dealer not in range(n):
        raise ValueError(f"first_dealer must be a seat 0..{n - 1}")
    return _start(state, first_dealer)


def _start(state: State, dealer: int) -> State:
    state = replace_state(state, phase="deal", dealer=dealer)
    bonus = state.rules.pone_start_bonus
    if bonus:
        pone = (dealer + 1) % state.rules.players
        state = peg(state, pone, "start", bonus, (ScoreItem("pone_start", (), bonus),))
    return state


def apply(state: State, event: dict) -> State:
    """The state after `event`; raises IllegalMove (with `.legal`) if the event is not allowed."""
    if not isinstance(event, dict) or "kind" not in event:
        raise IllegalMove("malformed", f"An event is a dict with a 'kind', not {event!r}", all_legal(state))
    kind = event["kind"]
    if state.phase == "over":
        raise IllegalMove("game_over", "The game is over")
    handler = _HANDLERS.get(kind)
    if handler is None:
        raise IllegalMove("unknown_kind", f"Unknown event kind {kind!r}", all_legal(state), kind=kind)
    return handler(state, event)


def _apply_cut(state: State, event: dict) -> State:
    if state.phase != "cut_for_deal":
        raise IllegalMove(
            "chance_not_due", "The dealer has already been decided", all_legal(state), kind="cut_for_deal"
        )
    n = state.rules.players
    rounds = event.get("cuts")
    if not isinstance(rounds, list) or not rounds:
        raise IllegalMove("malformed", "A cut for deal needs 'cuts': a list of rounds of one card per seat")
    parsed = []
    for i, cuts in enumerate(rounds):
        if not isinstance(cuts, list) or len(cuts) != n:
            raise IllegalMove("bad_cut", f"Each round of the cut needs {n} cards, one per seat")
        cards = tuple(card_of(c, []) for c in cuts)
        if len(set(cards)) != n:
            raise IllegalMove("bad_cut", "The same card cannot be cut twice in one round")
        low = min(c.rank for c in cards)
        decided = sum(c.rank == low for c in cards) == 1
        if decided != (i == len(rounds) - 1):
            raise IllegalMove("bad_cut", "Only the last round of the cut may decide the dealer (ties cut again)")
        parsed.append(cards)
    last = parsed[-1]
    dealer = min(range(n), key=lambda s: last[s].rank)
    return _start(replace_state(state, cuts=tuple(parsed)), dealer)


def _apply_end(state: State, event: dict) -> State:
    seat = seat_of(state, event)
    rules, kind = state.rules, event["kind"]
    detail = None
    if kind == "forfeit":
        detail = event.get("reason", "forfeit")
        if not isinstance(detail, str):
            raise IllegalMove("malformed", "A forfeit's reason is a string")
    loser = rules.side_of(seat)
    # The best other side wins; ties go to the first side after the loser in rotation.
    others = [rules.side_of((seat + k) % rules.players) for k in range(1, rules.players)]
    others = [s for i, s in enumerate(others) if s != loser and s not in others[:i]]
    winner = max(others, key=lambda s: state.scores[s])
    return replace_state(state, phase="over", turn=None, open_claim=None, outcome=Outcome(winner, kind, seat, detail))


def _apply_table_result(state: State, event: dict) -> State:
    """A game played face to face: its final board, entered afterwards, as the game's only move.

    The outcome is a win at the target, so the skunk lines apply as at the board.
    """
    if state.hand_number or state.phase not in ("cut_for_deal", "deal") or any(state.scores):
        raise IllegalMove("malformed", "A result from the table is a game's only event")
    scores = event.get("scores")
    problem = table_result_problem(state.rules, scores)
    if problem or not isinstance(scores, list):
        raise IllegalMove("malformed", problem or "A result's scores are a list")
    winner = scores.index(state.rules.target)
    return replace_state(
        state, phase="over", turn=None, scores=tuple(scores), outcome=Outcome(winner, "target", None, "table")
    )


# The handler of each kind of event: the hand's (hand_events), a seat's own (plan_events), the game's (here).
_HANDLERS: dict[str, Callable[[State, dict], State]] = {
    "cut_for_deal": _apply_cut,
    "deal": apply_deal,
    "discard": apply_discard,
    "play": apply_play,
    "go": apply_go,
    "count": apply_count,
    "muggins": apply_muggins,
    "resign": _apply_end,
    "forfeit": _apply_end,
    "plan": apply_plan,
    "count_ahead": apply_count_ahead,
    "table_result": _apply_table_result,
}


def replay(rules: Rules, events: Iterable[dict], first_dealer: int | None = None) -> State:
    """The state after applying `events` in order to a new game."""
    state = new_game(rules, first_dealer)
    for event in events:
        state = apply(state, event)
    return state


def cut_for_deal_event(state: State, rng: random.Random) -> dict:
    """A cut for deal: rounds of one card per seat until the lowest rank is alone."""
    rounds = []
    while True:
        cards = rng.sample(FULL_DECK, state.rules.players)
        rounds.append([c.code for c in cards])
        low = min(c.rank for c in cards)
        if sum(c.rank == low for c in cards) == 1:
            return {"kind": "cut_for_deal", "cuts": rounds}


def deal_event(state: State, rng: random.Random) -> dict:
    """A deal carrying a freshly shuffled deck."""
    return {"kind": "deal", "deck": [c.code for c in rng.sample(FULL_DECK, 52)]}
