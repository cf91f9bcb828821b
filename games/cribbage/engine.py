"""The game as immutable state plus events: `apply(state, event) -> state`.

Events are plain JSON-able dicts with a "kind" (see README.md). Randomness never
happens here: chance events (the cut for deal, the shuffled deck) are built by
`cut_for_deal_event` / `deal_event` from a caller-supplied `random.Random`.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import FULL_DECK, Card, card_from_code
from .notation import write as move_text
from .pegging import playable, resolve_play
from .plans import ASK, Plan, PlanProblem, PlanRule, choose, plan_from_event, plan_json, without
from .rules import Rules
from .scoring import Score, ScoreItem, describe, score_hand

__all__ = [
    "IllegalMove",
    "REFUSALS",
    "State",
    "ScoreRecord",
    "ShowResult",
    "PlayEntry",
    "HandSummary",
    "Outcome",
    "new_game",
    "apply",
    "replay",
    "needs_chance",
    "to_act",
    "legal_moves",
    "view",
    "is_over",
    "result",
    "state_to_json",
    "state_from_json",
    "move_text",
    "cut_for_deal_event",
    "deal_event",
    "show_order",
    "forced_move",
    "moved_on_for",
    "is_simple_turn",
    "planned_move",
    "plan_of",
    "count_ahead_of",
    "table_result_problem",
    "PRIVATE_KINDS",
]

# Moves only their own seat ever sees, not even that they were made: nobody else's table
# changes, so nothing another player is shown (a sequence number included) may move with them.
PRIVATE_KINDS = frozenset({"plan", "count_ahead"})

# Why a move is refused: IllegalMove.code, with the parameters it carries in IllegalMove.params.
REFUSALS = {
    "game_over": (),
    "malformed": (),  # not an event the engine can read (a program's mistake)
    "unknown_kind": ("kind",),
    "no_such_seat": ("seat",),
    "waiting_for_chance": ("chance",),  # the cut for deal or the deal comes first
    "chance_not_due": ("kind",),  # a cut for deal or a deal when none is due
    "bad_cut": (),
    "bad_deck": (),  # a chance event that breaks the rules of the cut or the deck
    "not_your_turn": ("kind", "phase"),  # the seat is not to act now
    "wrong_phase": ("kind", "phase"),  # the seat is to act, but not with this kind of move
    "not_a_card": ("token",),
    "not_held": ("cards",),
    "same_card_twice": ("cards",),
    "wrong_throw_count": ("needed", "given"),
    "count_over_31": ("card", "count"),
    "claim_out_of_range": ("card", "claim"),
    "count_out_of_range": ("points", "what"),
    "no_muggins": (),  # no claim of another side is open to this seat
    "muggins_nothing_missed": (),  # a claim is open, and it missed nothing
    "go_is_automatic": ("playable",),  # "go" is said for a seat by the engine, never by the seat
    # Pegging plans (plans.py): a card of the plan that is not the seat's to plan, or a plan too late.
    "plan_not_held": ("card", "held"),
    "plan_thrown": ("card",),  # laid away to the crib
    "plan_twice": ("cards",),
    "plan_unknown_word": ("word",),  # an event whose order or rules a program got wrong
    "plan_unknown_rule": ("rule",),
    "plan_too_late": (),  # the play of the hand is over (or the seat holds no card)
    "not_the_plans_card": ("card",),  # a play marked as the plan's that the plan does not make
    # Under muggins, a hand's count said ahead, in the play (it needs the starter).
    "count_ahead_no_muggins": (),  # without muggins every show is counted for the players
    "count_ahead_needs_starter": (),  # the discard: the starter is not turned yet
    "count_ahead_too_late": (),  # the show has begun, or the hand is counted
    "count_ahead_out_of_range": ("points",),
    "not_the_count_ahead": ("points",),  # a count marked as said ahead that was not
}


class IllegalMove(ValueError):
    """A readable move that the rules refuse now.

    `code` (a key of REFUSALS) and `params` say why, for channels to put in their
    own words; `reason` and the message (which lists every seat's legal moves,
    true counts included) are for developers only. `.legal` lists the legal moves.
    """

    def __init__(self, code: str, reason: str, legal: Sequence[dict] | Callable[[], Sequence[dict]] = (), **params):
        # `legal` may be a function, so that the legal moves are only listed when needed.
        assert code in REFUSALS, code
        self.code, self.params = code, params
        self.reason = reason
        self.legal = list(legal() if callable(legal) else legal)
        if self.legal:
            shown = ", ".join(move_text(m) for m in self.legal[:20])
            more = f" (and {len(self.legal) - 20} more)" if len(self.legal) > 20 else ""
            message = f"{reason}. Legal moves: {shown}{more}"
        else:
            message = reason
        super().__init__(message)


# --- State -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ScoreRecord:
    """Points pegged: phase is 'start' (five-card bonus), 'heels', 'play', 'show' or 'muggins'.

    Under muggins, `points` is what was claimed and `missed` what the claim left out.
    """

    seat: int
    side: int
    phase: str
    points: int
    items: tuple[ScoreItem, ...]
    missed: int = 0


@dataclass(frozen=True, slots=True)
class ShowResult:
    """One hand (or the crib) shown: its cards, true score, and the claim under muggins."""

    seat: int
    what: str  # "hand" or "crib"
    cards: tuple[Card, ...]
    score: Score
    claimed: int | None = None


@dataclass(frozen=True, slots=True)
class PlayEntry:
    """A card played in the pegging (card None: the seat had to say go)."""

    seat: int
    card: Card | None
    count: int  # the count after this card
    points: int  # points pegged for it (claimed, under muggins)
    round: int  # which count of the hand, from 0


@dataclass(frozen=True, slots=True)
class HandSummary:
    """A finished hand, public after its show."""

    number: int
    dealer: int
    starter: Card
    kept: tuple[tuple[Card, ...], ...]
    crib: tuple[Card, ...]
    plays: tuple[PlayEntry, ...]
    records: tuple[ScoreRecord, ...]
    shows: tuple[ShowResult, ...]


@dataclass(frozen=True, slots=True)
class Outcome:
    winner: int  # side (seat, or team 0/1 in partnerships)
    reason: str  # "target", "resign" or "forfeit"
    seat: int | None = None  # who resigned or forfeited
    detail: str | None = None  # forfeit reason


@dataclass(frozen=True)
class State:
    rules: Rules
    phase: str = "cut_for_deal"  # cut_for_deal, deal, discard, play, show, over
    dealer: int | None = None
    hand_number: int = 0  # hands dealt so far
    scores: tuple[int, ...] = ()
    prev_scores: tuple[int, ...] = ()
    cuts: tuple[tuple[Card, ...], ...] = ()
    deck: tuple[Card, ...] = ()  # undealt cards; the first is the starter until it is turned
    starter: Card | None = None
    hands: tuple[tuple[Card, ...], ...] = ()  # cards each seat still holds
    kept: tuple[tuple[Card, ...], ...] = ()  # cards kept for the show (empty until discarded)
    discards: tuple[tuple[Card, ...], ...] = ()  # each seat's own cards laid away
    crib: tuple[Card, ...] = ()
    count: int = 0
    count_cards: tuple[Card, ...] = ()
    round: int = 0
    turn: int | None = None
    gone: frozenset[int] = frozenset()
    plays: tuple[PlayEntry, ...] = ()
    records: tuple[ScoreRecord, ...] = ()
    shows: tuple[ShowResult, ...] = ()
    show_next: int = 0
    open_claim: ScoreRecord | None = None  # muggins: the claim that can still be mugged
    previous: HandSummary | None = None
    outcome: Outcome | None = None
    # Each seat's pegging plan (None: none), private to the seat; () when no seat has one.
    plans: tuple[Plan | None, ...] = ()
    plan_played: frozenset[int] = frozenset()  # seats whose plan played a card this hand
    plan_played_before: frozenset[int] = frozenset()  # ... and in the hand before
    # Under muggins, each seat's hand count said ahead in the play (None: none), private; () when none.
    counts_ahead: tuple[int | None, ...] = ()


def _replace(state: State, **changes) -> State:
    """dataclasses.replace for State, many times faster (the engine copies state a lot)."""
    new = object.__new__(State)
    d = new.__dict__
    d.update(state.__dict__)
    d.update(changes)
    return new


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
    state = _replace(state, phase="deal", dealer=dealer)
    bonus = state.rules.pone_start_bonus
    if bonus:
        pone = (dealer + 1) % state.rules.players
        state = _peg(state, pone, "start", bonus, (ScoreItem("pone_start", (), bonus),))
    return state


# --- Queries ---------------------------------------------------------------


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


def _muggins_target(state: State) -> ScoreRecord | None:
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
                points = _play_result(state, seat, card)[0].score.total
                moves += [{"kind": "play", "seat": seat, "card": card.code, "claim": k} for k in range(points + 1)]
            else:
                moves.append({"kind": "play", "seat": seat, "card": card.code})
    elif state.phase == "show" and seat == state.turn:
        points = _show_score(state).total
        moves += [{"kind": "count", "seat": seat, "points": k} for k in range(points + 1)]
    target = _muggins_target(state)
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


# --- Scoring into the state ------------------------------------------------


def _peg(state: State, seat: int, phase: str, points: int, items: Iterable[ScoreItem], missed: int = 0) -> State:
    """Add a score record; the game ends the moment a side reaches the target."""
    rules = state.rules
    side = rules.side_of(seat)
    record = ScoreRecord(seat, side, phase, points, tuple(items), missed)
    scores, prev = state.scores, state.prev_scores
    if points:
        prev = prev[:side] + (scores[side],) + prev[side + 1 :]
        scores = scores[:side] + (scores[side] + points,) + scores[side + 1 :]
    state = _replace(state, scores=scores, prev_scores=prev, records=state.records + (record,))
    if scores[side] >= rules.target:
        state = _replace(state, phase="over", turn=None, open_claim=None, outcome=Outcome(side, "target"))
    return state


def _claim(state: State, seat: int, phase: str, true: Score, claimed: int) -> State:
    """Under muggins: peg what was claimed and open the muggins window on the rest."""
    state = _peg(state, seat, phase, claimed, true.items, true.total - claimed)
    return state if state.phase == "over" else _replace(state, open_claim=state.records[-1])


def _close_window(state: State, seat: int) -> State:
    """An opponent of the last claimer moving on (without calling muggins) closes its window.

    The claimer's own side moving (e.g. discarding for the next hand) keeps it open,
    and the next claim replaces it. The deal does not close it, so the crib can be mugged.
    """
    claim = state.open_claim
    if claim is not None and state.rules.side_of(seat) != claim.side:
        return _replace(state, open_claim=None)
    return state


# --- Applying events -------------------------------------------------------


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
    return _start(_replace(state, cuts=tuple(parsed)), dealer)


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
    return _replace(
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
    state = _replace(
        _close_window(state, seat),
        hands=_set(state.hands, seat, rest),
        kept=_set(state.kept, seat, rest),
        discards=_set(state.discards, seat, cards),
    )
    if plan_of(state, seat) is not None:
        state = _with_plan(state, seat, without(plan_of(state, seat), cards))
    if to_act(state):
        return state
    return _turn_starter(state)


def _turn_starter(state: State) -> State:
    crib = state.crib + tuple(c for cards in state.discards for c in cards)
    starter = state.deck[0]
    state = _replace(state, crib=crib, starter=starter, deck=state.deck[1:])
    dealer = state.dealer
    assert dealer is not None, "the deal comes before the starter"
    if starter.rank == 11:
        # His heels pegs at once (never subject to muggins) and can win the game.
        state = _peg(state, dealer, "heels", 2, (ScoreItem("heels", (starter,), 2),))
        if state.phase == "over":
            return state
    return _replace(state, phase="play", turn=(dealer + 1) % state.rules.players)


def _play_result(state: State, seat: int, card: Card):
    hands_after = _set(state.hands, seat, tuple(c for c in state.hands[seat] if c != card))
    return resolve_play(state.count_cards, card, hands_after, seat, state.rules.one_go), hands_after


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
    res, hands_after = _play_result(state, seat, card)
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
    state = _replace(
        _close_window(state, seat),
        hands=hands_after,
        count=res.count,
        count_cards=state.count_cards + (card,),
        plays=plays,
        gone=state.gone.union(newly_gone),
    )
    if event.get("plan"):
        state = _replace(state, plan_played=state.plan_played | {seat})
    if state.rules.muggins:
        state = _claim(state, seat, "play", true, points)
    elif points:
        state = _peg(state, seat, "play", points, true.items)
    if state.phase == "over":
        return state
    if not res.count_over:
        return _replace(state, turn=res.next_seat)
    if not res.play_over:
        return _replace(state, turn=res.next_seat, count=0, count_cards=(), gone=frozenset(), round=state.round + 1)
    # A plan ends with the hand's play.
    state = _replace(state, count=0, count_cards=(), gone=frozenset(), turn=None, plans=())
    if state.rules.muggins:
        return _replace(state, phase="show", show_next=0, turn=show_order(state)[0][0])
    return _show_all(state)


def _show_cards(state: State, seat: int, what: str) -> tuple[Card, ...]:
    return state.crib if what == "crib" else state.kept[seat]


def _show_score(state: State) -> Score:
    seat, what = show_order(state)[state.show_next]
    assert state.starter is not None, "the starter is turned before the show"
    return score_hand(_show_cards(state, seat, what), state.starter, crib=what == "crib")


def _show_all(state: State) -> State:
    """Count every hand and the crib in order, stopping the moment someone wins."""
    assert state.starter is not None, "the starter is turned before the show"
    for seat, what in show_order(state):
        cards = _show_cards(state, seat, what)
        score = score_hand(cards, state.starter, crib=what == "crib")
        state = _replace(state, shows=state.shows + (ShowResult(seat, what, cards, score),))
        if score.total:
            state = _peg(state, seat, "show", score.total, score.items)
            if state.phase == "over":
                return state
    return _replace(state, phase="deal", turn=None)


def _apply_count(state: State, event: dict) -> State:
    seat = _seat_of(state, event)
    if state.phase != "show" or seat != state.turn:
        _require_turn(state, seat, "count")
        raise _wrong_phase(state, seat, "count")
    legal = lambda: legal_moves(state, seat)  # noqa: E731
    points = event.get("points")
    score = _show_score(state)
    if type(points) is not int or not 0 <= points <= score.total:
        what = show_order(state)[state.show_next][1]
        raise IllegalMove(
            "count_out_of_range", f"Cannot count {points!r} for this {what}", legal, points=points, what=what
        )
    if event.get("plan") and planned_move(state) != {"kind": "count", "seat": seat, "points": points, "plan": True}:
        raise IllegalMove("not_the_count_ahead", f"Seat {seat} said no count of {points} ahead", legal, points=points)
    seat, what = show_order(state)[state.show_next]
    cards = _show_cards(state, seat, what)
    state = _replace(_close_window(state, seat), shows=state.shows + (ShowResult(seat, what, cards, score, points),))
    state = _claim(state, seat, "show", score, points)
    if state.phase == "over":
        return state
    nxt = state.show_next + 1
    if nxt == len(show_order(state)):
        return _replace(state, phase="deal", turn=None, show_next=nxt)
    return _replace(state, show_next=nxt, turn=show_order(state)[nxt][0])


def _apply_muggins(state: State, event: dict) -> State:
    seat = _seat_of(state, event)
    claim = state.open_claim
    if claim is None or state.rules.side_of(seat) == claim.side:
        raise IllegalMove("no_muggins", f"Seat {seat} has no muggins to call", legal_moves(state, seat))
    target = _muggins_target(state)
    if target is None:
        raise IllegalMove(
            "muggins_nothing_missed",
            f"Seat {seat} has no muggins to call (nothing was missed)",
            legal_moves(state, seat),
        )
    state = _replace(state, open_claim=None)
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
    return _replace(state, phase="over", turn=None, open_claim=None, outcome=Outcome(winner, kind, seat, detail))


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
    return _replace(
        state, phase="over", turn=None, scores=tuple(scores), outcome=Outcome(winner, "target", None, "table")
    )


# --- Pegging plans (see plans.py) -----------------------------------------------


def plan_of(state: State, seat: int) -> Plan | None:
    """The seat's pegging plan for this hand; private to the seat (see `view`)."""
    return state.plans[seat] if state.plans else None


def _with_plan(state: State, seat: int, plan: Plan | None) -> State:
    plans = state.plans or (None,) * state.rules.players
    plans = _set(plans, seat, plan)
    return _replace(state, plans=plans if any(p is not None for p in plans) else ())


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


def count_ahead_of(state: State, seat: int) -> int | None:
    """Under muggins, the count of its hand the seat said ahead for this hand's show; private."""
    return state.counts_ahead[seat] if state.counts_ahead else None


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
    return _replace(state, counts_ahead=_set(counts, seat, points))


def _plan_refused(problem: PlanProblem) -> IllegalMove:
    return IllegalMove(problem.code, problem.reason, **problem.params)


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
    card = choose(plan, state.hands[seat], state.count, last, lambda c: _play_result(state, seat, c)[0].score.total)
    if card is None:
        return None
    move = {"kind": "play", "seat": seat, "card": card.code, "plan": True}
    if state.rules.muggins:
        # A planned card claims exactly what it pegs: the player cannot count a card they do not see laid.
        move["claim"] = _play_result(state, seat, card)[0].score.total
    return move


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


def _set(seq: tuple, i: int, value) -> tuple:
    return seq[:i] + (value,) + seq[i + 1 :]


def replay(rules: Rules, events: Iterable[dict], first_dealer: int | None = None) -> State:
    """The state after applying `events` in order to a new game."""
    state = new_game(rules, first_dealer)
    for event in events:
        state = apply(state, event)
    return state


# --- Chance events ---------------------------------------------------------


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


# --- Results and text ------------------------------------------------------


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


# --- The table as one seat sees it -----------------------------------------


def _codes(cards) -> list[str]:
    return [c.code for c in cards]


def _item_json(item: ScoreItem) -> dict:
    return {"kind": item.kind, "cards": _codes(item.cards), "points": item.points}


def _score_json(score: Score) -> dict:
    return {"total": score.total, "items": [_item_json(i) for i in score.items], "text": describe(score)}


def _record_view(rec: ScoreRecord, hidden: bool) -> dict:
    d = {"seat": rec.seat, "side": rec.side, "phase": rec.phase, "points": rec.points}
    if not hidden:
        d["items"] = [_item_json(i) for i in rec.items]
        d["missed"] = rec.missed
        if rec.phase != "muggins":
            d["text"] = describe(Score(rec.points, rec.items)) if not rec.missed else None
    return d


def _show_view(show: ShowResult, hidden: bool) -> dict:
    d = {"seat": show.seat, "what": show.what, "cards": _codes(show.cards), "claimed": show.claimed}
    if not hidden:
        d["score"] = _score_json(show.score)
    return d


def _records_view(state: State, records) -> list[dict]:
    out = []
    for rec in records:
        hidden = rec == state.open_claim
        if rec.points or (rec.missed and not hidden) or not state.rules.muggins:
            out.append(_record_view(rec, hidden))
    return out


def _play_view(p: PlayEntry) -> dict:
    return {
        "seat": p.seat,
        "card": p.card.code if p.card else None,
        "go": p.card is None,
        "count": p.count,
        "points": p.points,
        "round": p.round,
    }


def _hidden_show(state: State) -> ShowResult | None:
    """The show whose true score is still secret (its muggins window is open): the latest."""
    if state.open_claim is None or state.open_claim.phase != "show":
        return None
    if state.shows:
        return state.shows[-1]
    return state.previous.shows[-1] if state.previous else None


def view(state: State, seat: int | None = None) -> dict:
    """What `seat` may know at the table (None: a spectator), as JSON-able data.

    Never: other seats' hands, the undealt deck, the starter before it is turned,
    the crib before it is shown, or (under muggins) the true value of a claim
    whose muggins window is still open.
    """
    rules = state.rules
    hidden_show = _hidden_show(state)
    v = {
        "rules": rules.to_json(),
        "seat": seat,
        "side_of_seat": [rules.side_of(s) for s in range(rules.players)],
        "phase": state.phase,
        "hand_number": state.hand_number,
        "dealer": state.dealer,
        "crib_owner": state.dealer,
        "scores": list(state.scores),
        "previous_scores": list(state.prev_scores),
        "to_act": list(to_act(state)),
        "turn": state.turn,
        "needs_chance": needs_chance(state),
        "cuts": [_codes(r) for r in state.cuts],
        "starter": state.starter.code if state.starter else None,
        "count": state.count,
        "count_cards": _codes(state.count_cards),
        "plays": [_play_view(p) for p in state.plays],
        "cards_held": [len(h) for h in state.hands],
        "discarded": [bool(k) for k in state.kept],
        "records": _records_view(state, state.records),
        "shows": [_show_view(s, s is hidden_show) for s in state.shows],
        "previous_hand": _summary_view(state, state.previous, hidden_show) if state.previous else None,
        "result": result(state),
        "counting": _counting_view(state),
    }
    if seat is not None:
        v["hand"] = _codes(state.hands[seat])
        v["kept"] = _codes(state.kept[seat])
        v["my_discards"] = _codes(state.discards[seat])
        v["playable"] = (
            _codes(playable(state.hands[seat], state.count)) if state.phase == "play" and seat == state.turn else []
        )
        # Whether a call is possible, not whether anything was missed (that would tell).
        v["may_call_muggins"] = state.open_claim is not None and rules.side_of(seat) != state.open_claim.side
        # The seat's own plan only: no other seat's, not even a partner's.
        v["plan"] = plan_json(plan_of(state, seat))
        v["plan_played_last_hand"] = seat in state.plan_played_before
        v["count_ahead"] = count_ahead_of(state, seat)
    return v


def _counting_view(state: State) -> dict | None:
    """Under muggins, the hand or crib being counted now: laid face up on the table."""
    if state.phase != "show":
        return None
    seat, what = show_order(state)[state.show_next]
    return {
        "seat": seat,
        "what": what,
        "cards": _codes(_show_cards(state, seat, what)),
        "starter": state.starter.code if state.starter else None,
    }


def _summary_view(state: State, h: HandSummary, hidden_show: ShowResult | None) -> dict:
    return {
        "number": h.number,
        "dealer": h.dealer,
        "starter": h.starter.code,
        "kept": [_codes(k) for k in h.kept],
        "crib": _codes(h.crib),
        "plays": [_play_view(p) for p in h.plays],
        "records": _records_view(state, h.records),
        "shows": [_show_view(s, s is hidden_show) for s in h.shows],
    }


# --- Snapshots -------------------------------------------------------------


def _enc(v: Any) -> Any:
    if isinstance(v, Card):
        return v.code
    if isinstance(v, ScoreItem):
        return _item_json(v)
    if isinstance(v, Score):
        return {"total": v.total, "items": [_item_json(i) for i in v.items]}
    if isinstance(v, Rules):
        return v.to_json()
    if isinstance(v, frozenset):
        return sorted(v)
    if isinstance(v, (tuple, list)):
        return [_enc(x) for x in v]
    if hasattr(v, "__dataclass_fields__"):
        return {name: _enc(getattr(v, name)) for name in v.__dataclass_fields__}
    return v


def state_to_json(state: State) -> dict:
    """The whole state (hidden cards included) as JSON-able data; see `state_from_json`."""
    return _enc(state)


def _opt(f):
    return lambda x: None if x is None else f(x)


def _cards_dec(codes):
    return tuple(map(card_from_code, codes))


def _cards2_dec(lists):
    return tuple(map(_cards_dec, lists))


def _items_dec(items):
    return tuple(ScoreItem(d["kind"], _cards_dec(d["cards"]), d["points"]) for d in items)


def _each(cls):
    return lambda rows: tuple(_dec(cls, d) for d in rows)


def _dec(cls, d: dict):
    decoders = _DECODERS[cls]
    return cls(**{k: decoders.get(k, _identity)(v) for k, v in d.items()})


def _identity(x):
    return x


_DECODERS = {
    ScoreRecord: {"items": _items_dec},
    ShowResult: {"cards": _cards_dec, "score": lambda d: Score(d["total"], _items_dec(d["items"]))},
    PlayEntry: {"card": _opt(card_from_code)},
    Outcome: {},
}
_DECODERS[HandSummary] = {
    "starter": card_from_code,
    "kept": _cards2_dec,
    "crib": _cards_dec,
    "plays": _each(PlayEntry),
    "records": _each(ScoreRecord),
    "shows": _each(ShowResult),
}
_DECODERS[State] = {
    "rules": Rules.from_json,
    "scores": tuple,
    "prev_scores": tuple,
    "cuts": _cards2_dec,
    "deck": _cards_dec,
    "starter": _opt(card_from_code),
    "hands": _cards2_dec,
    "kept": _cards2_dec,
    "discards": _cards2_dec,
    "crib": _cards_dec,
    "count_cards": _cards_dec,
    "gone": frozenset,
    "plays": _each(PlayEntry),
    "records": _each(ScoreRecord),
    "shows": _each(ShowResult),
    "previous": _opt(lambda d: _dec(HandSummary, d)),
    "outcome": _opt(lambda d: _dec(Outcome, d)),
    "open_claim": _opt(lambda d: _dec(ScoreRecord, d)),
    "plans": lambda plans: tuple(_opt(_plan_dec)(p) for p in plans),
    "plan_played": frozenset,
    "plan_played_before": frozenset,
    "counts_ahead": tuple,
}


def _plan_dec(d: dict) -> Plan:
    order = tuple(ASK if c == ASK else card_from_code(c) for c in d["order"])
    rules = tuple(PlanRule(r["rule"], r["rank"], _opt(card_from_code)(r["card"])) for r in d["rules"])
    return Plan(order, rules)


def state_from_json(d: dict) -> State:
    """The State saved by `state_to_json`."""
    return _dec(State, d)
