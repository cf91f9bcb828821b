"""The game as immutable state plus events: `apply(state, event) -> state`.

Events are plain JSON-able dicts with a "kind" (see README.md). Randomness never
happens here: chance events (the cut for deal, the shuffled deck) are built by
`cut_for_deal_event` / `deal_event` from a caller-supplied `random.Random`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from .cards import FULL_DECK, Card, card_from_code
from .moves import (
    legal_moves,
    muggins_target,
    plan_of,
    planned_move,
    play_result,
    show_cards,
    show_order,
    show_score,
    table_result_problem,
    to_act,
)
from .pegging import playable
from .plans import Plan, PlanProblem, plan_from_event, without
from .rules import Rules
from .scoring import Score, ScoreItem, score_hand
from .state import (
    HandSummary,
    IllegalMove,
    Outcome,
    PlayEntry,
    ScoreRecord,
    ShowResult,
    State,
    replace_state,
    with_item,
)

# Moves only their own seat ever sees, not even that they were made: nobody else's table
# changes, so nothing another player is shown (a sequence number included) may move with them.


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
        state = _peg(state, pone, "start", bonus, (ScoreItem("pone_start", (), bonus),))
    return state


def _peg(state: State, seat: int, phase: str, points: int, items: Iterable[ScoreItem], missed: int = 0) -> State:
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


def _claim(state: State, seat: int, phase: str, true: Score, claimed: int) -> State:
    """Under muggins: peg what was claimed and open the muggins window on the rest."""
    state = _peg(state, seat, phase, claimed, true.items, true.total - claimed)
    return state if state.phase == "over" else replace_state(state, open_claim=state.records[-1])


def _close_window(state: State, seat: int) -> State:
    """An opponent of the last claimer moving on (without calling muggins) closes its window.

    The claimer's own side moving (e.g. discarding for the next hand) keeps it open,
    and the next claim replaces it. The deal does not close it, so the crib can be mugged.
    """
    claim = state.open_claim
    if claim is not None and state.rules.side_of(seat) != claim.side:
        return replace_state(state, open_claim=None)
    return state


def _seat_of(state: State, event: dict) -> int:
    seat = event.get("seat")
    if type(seat) is not int or seat not in range(state.rules.players):
        raise IllegalMove("no_such_seat", f"No such seat: {seat!r}", _all_legal(state), seat=seat)
    return seat


def _all_legal(state: State) -> list[dict]:
    return [m for s in range(state.rules.players) for m in legal_moves(state, s)]


def _require_turn(state: State, seat: int, kind: str) -> None:
    if seat not in to_act(state):
        legal = _all_legal(state)
        if state.phase in ("cut_for_deal", "deal"):
            raise IllegalMove(
                "waiting_for_chance",
                f"Waiting for the {state.phase.replace('_', ' ')} (a chance event)",
                legal,
                chance=state.phase,
            )
        raise IllegalMove(
            "not_your_turn", f"Seat {seat} cannot {kind} now (phase {state.phase})", legal, kind=kind, phase=state.phase
        )


def _wrong_phase(state: State, seat: int, kind: str) -> IllegalMove:
    """The seat is to act, but not with a move of this kind."""
    return IllegalMove("wrong_phase", f"Seat {seat} cannot {kind} now", _all_legal(state), kind=kind, phase=state.phase)


def _card(code: Any, legal: Sequence[dict] | Callable[[], Sequence[dict]]) -> Card:
    if not isinstance(code, str):
        raise IllegalMove("malformed", f"Not a card code: {code!r}", legal)
    try:
        return card_from_code(code)
    except ValueError as e:
        raise IllegalMove("not_a_card", str(e), legal, token=code) from None


def apply(state: State, event: dict) -> State:
    """The state after `event`; raises IllegalMove (with `.legal`) if the event is not allowed."""
    if not isinstance(event, dict) or "kind" not in event:
        raise IllegalMove("malformed", f"An event is a dict with a 'kind', not {event!r}", _all_legal(state))
    kind = event["kind"]
    if state.phase == "over":
        raise IllegalMove("game_over", "The game is over")
    handler = _HANDLERS.get(kind)
    if handler is None:
        raise IllegalMove("unknown_kind", f"Unknown event kind {kind!r}", _all_legal(state), kind=kind)
    return handler(state, event)


def _apply_cut(state: State, event: dict) -> State:
    if state.phase != "cut_for_deal":
        raise IllegalMove(
            "chance_not_due", "The dealer has already been decided", _all_legal(state), kind="cut_for_deal"
        )
    n = state.rules.players
    rounds = event.get("cuts")
    if not isinstance(rounds, list) or not rounds:
        raise IllegalMove("malformed", "A cut for deal needs 'cuts': a list of rounds of one card per seat")
    parsed = []
    for i, cuts in enumerate(rounds):
        if not isinstance(cuts, list) or len(cuts) != n:
            raise IllegalMove("bad_cut", f"Each round of the cut needs {n} cards, one per seat")
        cards = tuple(_card(c, []) for c in cuts)
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


def _summary(state: State) -> HandSummary:
    assert state.dealer is not None and state.starter is not None, "only a hand that was played is summed up"
    return HandSummary(
        state.hand_number, state.dealer, state.starter, state.kept, state.crib, state.plays, state.records, state.shows
    )


def _apply_deal(state: State, event: dict) -> State:
    if state.phase != "deal":
        raise IllegalMove("chance_not_due", "No deal is due now", _all_legal(state), kind="deal")
    codes = event.get("deck")
    if not isinstance(codes, list) or len(codes) != 52:
        raise IllegalMove("malformed", "A deal needs 'deck': the 52 card codes in shuffled order")
    deck = tuple(_card(c, []) for c in codes)
    if len(set(deck)) != 52:
        raise IllegalMove("bad_deck", "The deck must hold each of the 52 cards once")
    rules, n = state.rules, state.rules.players
    played_before = state.starter is not None
    assert state.dealer is not None, "the cut for deal comes before the deal"
    dealer = (state.dealer + 1) % n if played_before else state.dealer
    hands: list[list[Card]] = [[] for _ in range(n)]
    dealt = rules.hand_size * n
    for i, card in enumerate(deck[:dealt]):
        hands[(dealer + 1 + i) % n].append(card)
    crib_end = dealt + rules.deck_to_crib
    return replace_state(
        state,
        phase="discard",
        dealer=dealer,
        hand_number=state.hand_number + 1,
        deck=deck[crib_end:],
        starter=None,
        crib=deck[dealt:crib_end],
        hands=tuple(map(tuple, hands)),
        kept=((),) * n,
        discards=((),) * n,
        count=0,
        count_cards=(),
        round=0,
        turn=None,
        gone=frozenset(),
        plays=(),
        records=state.records if not played_before else (),
        shows=(),
        show_next=0,
        previous=_summary(state) if played_before else state.previous,
        plans=(),
        plan_played=frozenset(),
        plan_played_before=state.plan_played,
        counts_ahead=(),
    )


def _apply_discard(state: State, event: dict) -> State:
    seat = _seat_of(state, event)
    _require_turn(state, seat, "discard")
    if state.phase != "discard":
        raise _wrong_phase(state, seat, "discard")
    rules = state.rules
    legal = lambda: legal_moves(state, seat)  # noqa: E731
    codes = event.get("cards")
    if not isinstance(codes, list):
        raise IllegalMove("malformed", "A discard needs 'cards': a list of card codes", legal)
    cards = tuple(_card(c, legal) for c in codes)
    held = state.hands[seat]
    missing = [c.code for c in cards if c not in held]
    if missing:
        raise IllegalMove("not_held", f"Seat {seat} does not hold {' '.join(missing)}", legal, cards=missing)
    if len(set(cards)) != len(cards):
        raise IllegalMove(
            "same_card_twice",
            f"The same card twice: {' '.join(c.code for c in cards)}",
            legal,
            cards=[c.code for c in cards],
        )
    if len(cards) != rules.discard_count:
        raise IllegalMove(
            "wrong_throw_count",
            f"Lay away exactly {rules.discard_count} card(s) to the crib",
            legal,
            needed=rules.discard_count,
            given=len(cards),
        )
    rest = tuple(c for c in held if c not in cards)
    state = replace_state(
        _close_window(state, seat),
        hands=with_item(state.hands, seat, rest),
        kept=with_item(state.kept, seat, rest),
        discards=with_item(state.discards, seat, cards),
    )
    if plan_of(state, seat) is not None:
        state = _with_plan(state, seat, without(plan_of(state, seat), cards))
    if to_act(state):
        return state
    return _turn_starter(state)


def _turn_starter(state: State) -> State:
    crib = state.crib + tuple(c for cards in state.discards for c in cards)
    starter = state.deck[0]
    state = replace_state(state, crib=crib, starter=starter, deck=state.deck[1:])
    dealer = state.dealer
    assert dealer is not None, "the deal comes before the starter"
    if starter.rank == 11:
        # His heels pegs at once (never subject to muggins) and can win the game.
        state = _peg(state, dealer, "heels", 2, (ScoreItem("heels", (starter,), 2),))
        if state.phase == "over":
            return state
    return replace_state(state, phase="play", turn=(dealer + 1) % state.rules.players)


def _apply_play(state: State, event: dict) -> State:
    seat = _seat_of(state, event)
    if state.phase != "play" or seat != state.turn:
        _require_turn(state, seat, "play")
        raise _wrong_phase(state, seat, "play")
    legal = lambda: legal_moves(state, seat)  # noqa: E731
    card = _card(event.get("card"), legal)
    if card not in state.hands[seat]:
        raise IllegalMove("not_held", f"Seat {seat} does not hold {card.code}", legal, cards=[card.code])
    if state.count + card.value > 31:
        raise IllegalMove(
            "count_over_31",
            f"{card.code} would take the count past 31 (count is {state.count})",
            legal,
            card=card.code,
            count=state.count,
        )
    if event.get("plan"):
        chosen = planned_move(state)
        if chosen is None or chosen["seat"] != seat or chosen["card"] != card.code:
            raise IllegalMove(
                "not_the_plans_card", f"Seat {seat}'s plan does not play {card.code} now", legal, card=card.code
            )
    res, hands_after = play_result(state, seat, card)
    true = res.score
    if state.rules.muggins:
        claim = event.get("claim", 0)
        if type(claim) is not int or not 0 <= claim <= true.total:
            raise IllegalMove(
                "claim_out_of_range", f"Cannot claim {claim!r} for {card.code}", legal, card=card.code, claim=claim
            )
        points = claim
    else:
        points = true.total
    plays = state.plays + (PlayEntry(seat, card, res.count, points, state.round),)
    newly_gone = [s for s in res.went if s not in state.gone]
    plays += tuple(PlayEntry(s, None, res.count, 0, state.round) for s in newly_gone)
    state = replace_state(
        _close_window(state, seat),
        hands=hands_after,
        count=res.count,
        count_cards=state.count_cards + (card,),
        plays=plays,
        gone=state.gone.union(newly_gone),
    )
    if event.get("plan"):
        state = replace_state(state, plan_played=state.plan_played | {seat})
    if state.rules.muggins:
        state = _claim(state, seat, "play", true, points)
    elif points:
        state = _peg(state, seat, "play", points, true.items)
    if state.phase == "over":
        return state
    if not res.count_over:
        return replace_state(state, turn=res.next_seat)
    if not res.play_over:
        return replace_state(
            state, turn=res.next_seat, count=0, count_cards=(), gone=frozenset(), round=state.round + 1
        )
    # A plan ends with the hand's play.
    state = replace_state(state, count=0, count_cards=(), gone=frozenset(), turn=None, plans=())
    if state.rules.muggins:
        return replace_state(state, phase="show", show_next=0, turn=show_order(state)[0][0])
    return _show_all(state)


def _show_all(state: State) -> State:
    """Count every hand and the crib in order, stopping the moment someone wins."""
    assert state.starter is not None, "the starter is turned before the show"
    for seat, what in show_order(state):
        cards = show_cards(state, seat, what)
        score = score_hand(cards, state.starter, crib=what == "crib")
        state = replace_state(state, shows=state.shows + (ShowResult(seat, what, cards, score),))
        if score.total:
            state = _peg(state, seat, "show", score.total, score.items)
            if state.phase == "over":
                return state
    return replace_state(state, phase="deal", turn=None)


def _apply_count(state: State, event: dict) -> State:
    seat = _seat_of(state, event)
    if state.phase != "show" or seat != state.turn:
        _require_turn(state, seat, "count")
        raise _wrong_phase(state, seat, "count")
    legal = lambda: legal_moves(state, seat)  # noqa: E731
    points = event.get("points")
    score = show_score(state)
    if type(points) is not int or not 0 <= points <= score.total:
        what = show_order(state)[state.show_next][1]
        raise IllegalMove(
            "count_out_of_range", f"Cannot count {points!r} for this {what}", legal, points=points, what=what
        )
    if event.get("plan") and planned_move(state) != {"kind": "count", "seat": seat, "points": points, "plan": True}:
        raise IllegalMove("not_the_count_ahead", f"Seat {seat} said no count of {points} ahead", legal, points=points)
    seat, what = show_order(state)[state.show_next]
    cards = show_cards(state, seat, what)
    state = replace_state(
        _close_window(state, seat), shows=state.shows + (ShowResult(seat, what, cards, score, points),)
    )
    state = _claim(state, seat, "show", score, points)
    if state.phase == "over":
        return state
    nxt = state.show_next + 1
    if nxt == len(show_order(state)):
        return replace_state(state, phase="deal", turn=None, show_next=nxt)
    return replace_state(state, show_next=nxt, turn=show_order(state)[nxt][0])


def _apply_muggins(state: State, event: dict) -> State:
    seat = _seat_of(state, event)
    claim = state.open_claim
    if claim is None or state.rules.side_of(seat) == claim.side:
        raise IllegalMove("no_muggins", f"Seat {seat} has no muggins to call", legal_moves(state, seat))
    target = muggins_target(state)
    if target is None:
        raise IllegalMove(
            "muggins_nothing_missed",
            f"Seat {seat} has no muggins to call (nothing was missed)",
            legal_moves(state, seat),
        )
    state = replace_state(state, open_claim=None)
    return _peg(state, seat, "muggins", target.missed, target.items)


def _apply_go(state: State, event: dict) -> State:
    """ "go" is never a move: a seat that cannot play is skipped by the engine (see pegging)."""
    seat = _seat_of(state, event)
    _require_turn(state, seat, "go")
    cards = playable(state.hands[seat], state.count) if state.phase == "play" else []
    raise IllegalMove(
        "go_is_automatic",
        "Go is said for a seat that cannot play, never by it",
        lambda: legal_moves(state, seat),
        playable=[c.code for c in cards],
    )


def _apply_end(state: State, event: dict) -> State:
    seat = _seat_of(state, event)
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


def _with_plan(state: State, seat: int, plan: Plan | None) -> State:
    plans = state.plans or (None,) * state.rules.players
    plans = with_item(plans, seat, plan)
    return replace_state(state, plans=plans if any(p is not None for p in plans) else ())


def _apply_plan(state: State, event: dict) -> State:
    """Set (or, with no order and no rules, clear) the seat's plan; nothing public changes.

    A plan is private: it opens or closes no muggins window and moves no turn.
    """
    seat = _seat_of(state, event)
    if state.phase not in ("discard", "play") or not state.hands[seat]:
        raise IllegalMove(
            "plan_too_late",
            "The play of this hand is over: a plan can be set from the deal until your last card is played.",
        )
    played = [p.card for p in state.plays if p.seat == seat and p.card]
    try:
        plan = plan_from_event(event, state.hands[seat], state.discards[seat], played)
    except PlanProblem as problem:
        raise _plan_refused(problem) from None
    return _with_plan(state, seat, plan)


def _apply_count_ahead(state: State, event: dict) -> State:
    """Under muggins, hold the seat's count of its own hand until its show comes.

    It can be said once the starter is turned (the play), so a player whose play runs from a
    plan need not be asked again at the show. It is the player's own count, never checked
    against a true score they could not know; counted when due, it closes the muggins window
    of the count before it, as counting does.
    """
    seat = _seat_of(state, event)
    if not state.rules.muggins:
        raise IllegalMove("count_ahead_no_muggins", "Without muggins every show is counted for the players")
    if state.phase in ("deal", "discard"):
        raise IllegalMove("count_ahead_needs_starter", "A count ahead needs the starter, turned after the discard")
    if state.phase != "play":
        raise IllegalMove("count_ahead_too_late", "The show has begun: count when your turn comes")
    points = event.get("points")
    assert state.starter is not None, "the starter is turned before the play"
    true = score_hand(state.kept[seat], state.starter)
    if type(points) is not int or not 0 <= points <= true.total:
        raise IllegalMove("count_ahead_out_of_range", f"Cannot count {points!r} for this hand", points=points)
    counts = state.counts_ahead or (None,) * state.rules.players
    return replace_state(state, counts_ahead=with_item(counts, seat, points))


def _plan_refused(problem: PlanProblem) -> IllegalMove:
    return IllegalMove(problem.code, problem.reason, **problem.params)


_HANDLERS = {
    "cut_for_deal": _apply_cut,
    "deal": _apply_deal,
    "discard": _apply_discard,
    "play": _apply_play,
    "go": _apply_go,
    "count": _apply_count,
    "muggins": _apply_muggins,
    "resign": _apply_end,
    "forfeit": _apply_end,
    "plan": _apply_plan,
    "count_ahead": _apply_count_ahead,
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
