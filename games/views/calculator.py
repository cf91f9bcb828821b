"""The hand calculator: count any hand or crib with its starter.

One page, three GET forms (so a count can be bookmarked and works without
JavaScript): type the cards ("5H 5C 5S JD", starter "5D"), or pick each card
with a rank and a suit select. Either way the show is laid out as it is
counted aloud, every combination with its cards and points, and the total.
The third form takes a dealt hand of six and says which two to throw: each throw's
expected hand and crib (the engine's discard analysis), for the dealer and for the pone;
not for a hand of the player's own game in play where the engine's help is off.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.shortcuts import render

from games import selectors
from games.cribbage import Card, Score, parse_cards, score_hand
from games.cribbage.strategy import discard_options
from games.presentation import (
    RANK_CHOICES,
    SUIT_CHOICES,
    read_show,
    say_score,
    score_rows,
)

HAND_SLOTS = ("1", "2", "3", "4")
STARTER_SLOT = "s"
_SLOT_LABELS = {"1": "Card 1", "2": "Card 2", "3": "Card 3", "4": "Card 4", "s": "Starter"}
_RANK_CODE = {label: code for code, label in RANK_CHOICES} | {code: code for code, _ in RANK_CHOICES}


@dataclass
class Count:
    """What the calculator was asked and what it found."""

    asked: bool = False
    hand_text: str = ""
    starter_text: str = ""
    crib: bool = False
    picks: dict = field(default_factory=dict)  # slot -> (rank code, suit code)
    errors: list = field(default_factory=list)
    hand: list = field(default_factory=list)
    starter: Card | None = None
    score: Score | None = None


def _picked(params, slot: str, errors: list) -> tuple[str, str]:
    rank = params.get(f"r{slot}", "").strip().upper()
    suit = params.get(f"s{slot}", "").strip().upper()
    rank = _RANK_CODE.get(rank, rank)
    if bool(rank) != bool(suit):
        errors.append(f"{_SLOT_LABELS[slot]}: choose both a rank and a suit.")
    return rank, suit


def count_from_query(params) -> Count:
    """Read the calculator's GET parameters and count the show (a plain function)."""
    count = Count(crib=params.get("crib", "") not in ("", "0", "off", "false"))
    typed = "hand" in params or "starter" in params
    picked = any(f"{p}{slot}" in params for p in "rs" for slot in (*HAND_SLOTS, STARTER_SLOT))
    if not (typed or picked):
        return count
    count.asked = True
    if typed:
        count.hand_text = params.get("hand", "").strip()
        count.starter_text = params.get("starter", "").strip()
        hand, starter = count.hand_text, count.starter_text
    else:
        count.picks = {slot: _picked(params, slot, count.errors) for slot in (*HAND_SLOTS, STARTER_SLOT)}
        if count.errors:
            return count
        hand = " ".join(r + s for slot, (r, s) in count.picks.items() if slot != STARTER_SLOT and r)
        starter = "".join(count.picks[STARTER_SLOT])
    try:
        count.hand, count.starter = read_show(hand, starter, crib=count.crib)
    except ValueError as exc:
        count.errors.append(str(exc))
        return count
    count.score = score_hand(count.hand, count.starter, crib=count.crib)
    # Show the counted cards in both forms, ready to change one card.
    count.hand_text = " ".join(c.code for c in count.hand)
    count.starter_text = count.starter.code
    slots = dict(zip(HAND_SLOTS, count.hand))
    slots[STARTER_SLOT] = count.starter
    count.picks = {slot: (c.code[:-1], c.suit) for slot, c in slots.items()}
    return count


@dataclass
class Throws:
    """The discard analyser: a dealt hand of six and every throw of two, as dealer and as pone."""

    deal_text: str = ""
    deal: list = field(default_factory=list)
    rows: list = field(default_factory=list)
    error: str = ""
    refused: object = None  # the user's own game in play, without help, that holds this hand


def throws_from_query(params, user) -> Throws:
    """Read `deal` ("5H 5C 5S JD 4C 9H") and analyse each throw for the dealer and the pone."""
    throws = Throws(deal_text=params.get("deal", "").strip())
    if not throws.deal_text:
        return throws
    try:
        deal = parse_cards(throws.deal_text)
    except ValueError as exc:
        throws.error = f"Dealt hand: {exc}."
        return throws
    if len(deal) != 6 or len(set(deal)) != 6:
        throws.error = f"Dealt hand: six different cards, as dealt to each of two players; you gave {len(deal)}."
        return throws
    throws.deal = deal
    throws.deal_text = " ".join(c.code for c in deal)
    throws.refused = selectors.live_hand_without_help(user, [c.code for c in deal])
    if throws.refused is not None:
        return throws
    pone = {o.discard: o for o in discard_options(deal, False)}
    for mine in discard_options(deal, True):
        other = pone[mine.discard]
        throws.rows.append(
            {
                "discard": mine.discard,
                "keep": mine.keep,
                "hand": float(mine.hand_ev),
                "crib_dealer": float(mine.crib_ev),
                "crib_pone": float(other.crib_ev),
                "dealer": float(mine.total_ev),
                "pone": float(other.total_ev),
            }
        )
    for side in ("dealer", "pone"):
        best = max(throws.rows, key=lambda r: r[side])
        best[f"best_{side}"] = True
    throws.rows.sort(key=lambda r: -(r["dealer"] + r["pone"]))
    return throws


def calculator(request):
    count = count_from_query(request.GET)
    throws = throws_from_query(request.GET, request.user)
    pickers = [
        {
            "slot": slot,
            "label": _SLOT_LABELS[slot],
            "rank": count.picks.get(slot, ("", ""))[0],
            "suit": count.picks.get(slot, ("", ""))[1],
        }
        for slot in (*HAND_SLOTS, STARTER_SLOT)
    ]
    context = {
        "count": count,
        "rows": score_rows(count.score) if count.score else [],
        "spoken": say_score(count.score) if count.score else "",
        "pickers": pickers,
        "rank_choices": RANK_CHOICES,
        "suit_choices": SUIT_CHOICES,
        "throws": throws,
    }
    status = 403 if throws.refused else 400 if count.errors or throws.error else 200
    return render(request, "games/calculator.html", context, status=status)
