"""The state of a game (immutable dataclasses) and why a move is refused (`IllegalMove`, `REFUSALS`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .cards import Card
from .move_words import write as move_text
from .plans import Plan
from .rules import Rules
from .scoring import Score, ScoreItem

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


@dataclass(frozen=True, slots=True)
class ScoreRecord:
    """Points pegged: phase is 'start' (five-card bonus), 'heels', 'play', 'show' or 'muggins'.

    Under muggins, `points` is what was claimed and `missed` what the claim left out.
    `past_target`: the points the cards made beyond the target, not pegged (the game ended).
    """

    seat: int
    side: int
    phase: str
    points: int
    items: tuple[ScoreItem, ...]
    missed: int = 0
    past_target: int = 0


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


def replace_state(state: State, **changes) -> State:
    """dataclasses.replace for State, many times faster (the engine copies state a lot)."""
    new = object.__new__(State)
    d = new.__dict__
    d.update(state.__dict__)
    d.update(changes)
    return new


def with_item(seq: tuple, i: int, value) -> tuple:
    return seq[:i] + (value,) + seq[i + 1 :]
