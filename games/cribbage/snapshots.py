"""Snapshots: the whole state as JSON-able data and back (`state_to_json`, `state_from_json`)."""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from .cards import BY_TOKEN, CODES, Card, card_from_code
from .plans import ASK, Plan, PlanRule
from .rules import Rules
from .scoring import Score, ScoreItem
from .state import (
    HandSummary,
    Outcome,
    PlayEntry,
    ScoreRecord,
    ShowResult,
    State,
)


def card_codes(cards) -> list[str]:
    return [c.code for c in cards]


def item_json(item: ScoreItem) -> dict:
    return {"kind": item.kind, "cards": [CODES[c] for c in item.cards], "points": item.points}


def _enc(v: Any) -> Any:
    """The JSON-able form of `v`: by its exact type first (`_ENCODERS`, each class's own way),
    then by what it is (`_enc_other`), so the same value gives the same JSON either way."""
    encode = _ENCODERS.get(type(v))
    if encode is not None:
        return encode(v)
    return _enc_other(v)


def _enc_other(v: Any) -> Any:
    if isinstance(v, Card):
        return v.code
    if isinstance(v, ScoreItem):
        return item_json(v)
    if isinstance(v, Score):
        return {"total": v.total, "items": [item_json(i) for i in v.items]}
    if isinstance(v, Rules):
        return v.to_json()
    if isinstance(v, frozenset):
        return sorted(v)
    if isinstance(v, (tuple, list)):
        return _enc_seq(v)
    if hasattr(v, "__dataclass_fields__"):
        return _dataclass_encoder(type(v))(v)
    return v


def _enc_seq(v) -> list:
    # A run of cards (most of a snapshot) by their codes at once; anything else item by item.
    if v and type(v[0]) is Card:
        try:
            return [CODES[c] for c in v]
        except KeyError:  # not cards all through (a plan's order holds ASK)
            pass
    return [x if type(x) in _PLAIN else _enc(x) for x in v]


def _identity(x):
    return x


def _dataclass_encoder(cls):
    """The encoder of the dataclass `cls`: its fields by name, in field order, each encoded."""
    encode = _ENCODERS.get(cls)
    if encode is None:
        names = tuple(cls.__dataclass_fields__)
        values = attrgetter(*names) if len(names) > 1 else lambda v: (getattr(v, names[0]),)

        def encode(v):
            return {name: x if type(x) in _PLAIN else _enc(x) for name, x in zip(names, values(v))}

        _ENCODERS[cls] = encode
    return encode


_PLAIN = frozenset({str, int, bool, float, type(None)})  # as they are in JSON

_ENCODERS: dict = {
    str: _identity,
    int: _identity,
    bool: _identity,
    float: _identity,
    type(None): _identity,
    Card: CODES.__getitem__,
    ScoreItem: item_json,
    Score: lambda v: {"total": v.total, "items": [item_json(i) for i in v.items]},
    Rules: lambda v: v.to_json(),
    frozenset: sorted,
    tuple: _enc_seq,
    list: _enc_seq,
}


def state_to_json(state: State) -> dict:
    """The whole state (hidden cards included) as JSON-able data; see `state_from_json`."""
    return _enc(state)


def _opt(f):
    return lambda x: None if x is None else f(x)


def _cards_dec(codes):
    try:  # the codes as snapshots write them
        return tuple(map(BY_TOKEN.__getitem__, codes))
    except KeyError:
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
    decoders = _DECODERS[State]
    values = {k: decoders.get(k, _identity)(v) for k, v in d.items()}
    if "rules" not in values or not values.keys() <= _STATE_DEFAULTS.keys():
        return State(**values)  # (refused as the dataclass refuses it)
    # As State(**values) makes it (a field left out has its default), without a frozen dataclass's
    # setting of each field in turn, as `replace_state` copies one.
    state = object.__new__(State)
    state.__dict__.update(_STATE_DEFAULTS)
    state.__dict__.update(values)
    return state


_STATE_DEFAULTS = {name: f.default for name, f in State.__dataclass_fields__.items()}
