"""The table as one seat sees it (`view`): never a card or a count that seat could not see."""

from __future__ import annotations

from dataclasses import dataclass, fields

from .moves import (
    count_ahead_of,
    needs_chance,
    plan_of,
    result,
    show_cards,
    show_order,
    to_act,
)
from .pegging import playable
from .plans import plan_json
from .rules import Rules
from .scoring import Score, describe
from .snapshots import card_codes, item_json
from .state import (
    HandSummary,
    PlayEntry,
    ScoreRecord,
    ShowResult,
    State,
)


def _score_json(score: Score) -> dict:
    return {"total": score.total, "items": [item_json(i) for i in score.items], "text": describe(score)}


def _record_view(rec: ScoreRecord, hidden: bool) -> dict:
    d = {"seat": rec.seat, "side": rec.side, "phase": rec.phase, "points": rec.points}
    if not hidden:
        d["items"] = [item_json(i) for i in rec.items]
        d["missed"] = rec.missed
        if rec.past_target:
            d["past_target"] = rec.past_target
        if rec.phase != "muggins":
            d["text"] = describe(Score(rec.points, rec.items)) if not rec.missed else None
    return d


def _show_view(show: ShowResult, hidden: bool) -> dict:
    d = {"seat": show.seat, "what": show.what, "cards": card_codes(show.cards), "claimed": show.claimed}
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


@dataclass(frozen=True)
class SeatView:
    """What one seat may know at the table (`seat` None: a spectator), typed at the engine's
    boundary; `to_json()` is the plain data templates and scripts read (`view`). The nested
    parts (plays, records, shows, the previous hand, the result) are that JSON already.

    Never: other seats' hands, the undealt deck, the starter before it is turned, the crib
    before it is shown, or (under muggins) the true value of a claim whose muggins window is
    still open.
    """

    rules: dict
    seat: int | None
    side_of_seat: tuple[int, ...]
    phase: str
    hand_number: int
    dealer: int | None
    crib_owner: int | None
    scores: tuple[int, ...]
    previous_scores: tuple[int, ...]
    to_act: tuple[int, ...]
    turn: int | None
    needs_chance: str | None
    cuts: tuple[list[str], ...]
    starter: str | None
    count: int
    count_cards: tuple[str, ...]
    plays: tuple[dict, ...]
    cards_held: tuple[int, ...]
    discarded: tuple[bool, ...]
    records: tuple[dict, ...]
    shows: tuple[dict, ...]
    previous_hand: dict | None
    result: dict | None
    counting: dict | None
    # The seat's own (absent for a spectator).
    hand: tuple[str, ...] = ()
    kept: tuple[str, ...] = ()
    my_discards: tuple[str, ...] = ()
    playable: tuple[str, ...] = ()
    may_call_muggins: bool = False  # whether a call is possible, not whether anything was missed
    plan: dict | None = None  # the seat's own plan only: no other seat's, not even a partner's
    plan_played_last_hand: bool = False
    count_ahead: int | None = None

    @property
    def game_rules(self) -> Rules:
        """The variant's rules as a value (``rules`` is their JSON)."""
        return Rules.from_json(self.rules)

    def to_json(self) -> dict:
        """The view as JSON-able data, the same keys in the same order for every channel."""
        out: dict = {}
        for f in fields(self):
            if f.name in _OWN and self.seat is None:
                continue
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out


# The fields a seat sees of its own, left out of a spectator's view.
_OWN = frozenset(
    {"hand", "kept", "my_discards", "playable", "may_call_muggins", "plan", "plan_played_last_hand", "count_ahead"}
)


def seat_view(state: State, seat: int | None = None) -> SeatView:
    """What `seat` may know at the table (None: a spectator)."""
    rules = state.rules
    hidden_show = _hidden_show(state)
    own: dict = {}
    if seat is not None:
        own = {
            "hand": tuple(card_codes(state.hands[seat])),
            "kept": tuple(card_codes(state.kept[seat])),
            "my_discards": tuple(card_codes(state.discards[seat])),
            "playable": tuple(card_codes(playable(state.hands[seat], state.count)))
            if state.phase == "play" and seat == state.turn
            else (),
            "may_call_muggins": state.open_claim is not None and rules.side_of(seat) != state.open_claim.side,
            "plan": plan_json(plan_of(state, seat)),
            "plan_played_last_hand": seat in state.plan_played_before,
            "count_ahead": count_ahead_of(state, seat),
        }
    return SeatView(
        rules=rules.to_json(),
        seat=seat,
        side_of_seat=tuple(rules.side_of(s) for s in range(rules.players)),
        phase=state.phase,
        hand_number=state.hand_number,
        dealer=state.dealer,
        crib_owner=state.dealer,
        scores=tuple(state.scores),
        previous_scores=tuple(state.prev_scores),
        to_act=tuple(to_act(state)),
        turn=state.turn,
        needs_chance=needs_chance(state),
        cuts=tuple(card_codes(r) for r in state.cuts),
        starter=state.starter.code if state.starter else None,
        count=state.count,
        count_cards=tuple(card_codes(state.count_cards)),
        plays=tuple(_play_view(p) for p in state.plays),
        cards_held=tuple(len(h) for h in state.hands),
        discarded=tuple(bool(k) for k in state.kept),
        records=tuple(_records_view(state, state.records)),
        shows=tuple(_show_view(s, s is hidden_show) for s in state.shows),
        previous_hand=_summary_view(state, state.previous, hidden_show) if state.previous else None,
        result=result(state),
        counting=_counting_view(state),
        **own,
    )


def view(state: State, seat: int | None = None) -> dict:
    """What `seat` may know at the table (None: a spectator), as JSON-able data: `seat_view`'s JSON."""
    return seat_view(state, seat).to_json()


def _counting_view(state: State) -> dict | None:
    """Under muggins, the hand or crib being counted now: laid face up on the table."""
    if state.phase != "show":
        return None
    seat, what = show_order(state)[state.show_next]
    return {
        "seat": seat,
        "what": what,
        "cards": card_codes(show_cards(state, seat, what)),
        "starter": state.starter.code if state.starter else None,
    }


def _summary_view(state: State, h: HandSummary, hidden_show: ShowResult | None) -> dict:
    return {
        "number": h.number,
        "dealer": h.dealer,
        "starter": h.starter.code,
        "kept": [card_codes(k) for k in h.kept],
        "crib": card_codes(h.crib),
        "plays": [_play_view(p) for p in h.plays],
        "records": _records_view(state, h.records),
        "shows": [_show_view(s, s is hidden_show) for s in h.shows],
    }
