"""The table as one seat sees it (`view`): never a card or a count that seat could not see."""

from __future__ import annotations

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
        "cuts": [card_codes(r) for r in state.cuts],
        "starter": state.starter.code if state.starter else None,
        "count": state.count,
        "count_cards": card_codes(state.count_cards),
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
        v["hand"] = card_codes(state.hands[seat])
        v["kept"] = card_codes(state.kept[seat])
        v["my_discards"] = card_codes(state.discards[seat])
        v["playable"] = (
            card_codes(playable(state.hands[seat], state.count)) if state.phase == "play" and seat == state.turn else []
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
