"""The hand calculator: count any hand or crib with its starter.

One page, two GET forms (so a count can be bookmarked and works without
JavaScript): type the cards ("5H 5C 5S JD", starter "5D"), or pick each card
with a rank and a suit select. Either way the show is laid out as it is
counted aloud, every combination with its cards and points, and the total.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.shortcuts import render

from games.cribbage import Card, Score, score_hand
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


def calculator(request):
    count = count_from_query(request.GET)
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
    }
    return render(request, "games/calculator.html", context, status=400 if count.errors else 200)
