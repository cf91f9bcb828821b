"""The crib model at play: what a crib is worth when the other thrower throws as the expert does.

``analysis.discard_options`` values a crib as if the other two cards were any
two unseen cards. Good players do not throw at random: the pone keeps fives
and connected cards away from the dealer's crib, the dealer throws them into
his own. The shipped table (``data/crib_model.json``) holds, for every rank
pair thrown (91 of them) and for either owner, the crib's expected show score
when the *other* side throws as an expert would, and the same figure under a
random other throw, so that the difference can be added to the exact (suits
included) random-crib figure of the analysis (``model_correction``). Three and
four players throw one card each: their tables are keyed by the thrown rank,
in the same file. Flushes are left out of the table, as in Hessel's; the
analysis adds them exactly.

``load_patterns`` reads what an expert keeps (``data/kept_patterns.json``): how much
more (or less) often each kept rank pattern is kept than a random four (three in
five-card), by role, for the pegging search's opponent.

How both are found, and the command that regenerates them: ``tables.crib_model``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

__all__ = [
    "PAIRS",
    "pair_key",
    "load",
    "crib_value",
    "model_correction",
    "load_patterns",
    "keep_rates",
    "DATA_PATH",
    "PATTERNS_PATH",
]

DATA_PATH = Path(__file__).parents[1] / "data" / "crib_model.json"
PATTERNS_PATH = DATA_PATH.with_name("kept_patterns.json")
#: The 91 rank pairs a player can throw, low rank first.
PAIRS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(1, 14) for b in range(a, 14))


def pair_key(ranks: Sequence[int]) -> str:
    """``"5-11"``: the JSON key of a thrown rank pair (``"5"`` of a one-card throw)."""
    return "-".join(str(r) for r in sorted(ranks))


@lru_cache(maxsize=1)
def load() -> dict:
    """The shipped tables, ``{"two": {...}, "five_card": {...}, "three": {...}, "four": {...}}``
    (see ``tables.crib_model``)."""
    with DATA_PATH.open() as f:
        return json.load(f)


def _variant_key(hand_size: int, players: int) -> str:
    if players != 2:
        return {3: "three", 4: "four"}[players]
    return "two" if hand_size == 6 else "five_card"


def crib_value(ranks: Sequence[int], dealer_throws: bool, hand_size: int = 6) -> float:
    """The crib's expected show (no flush) when this pair is thrown by the dealer (his own crib)
    or by the pone (the dealer's crib), the other side throwing as the expert does."""
    tables = load()[_variant_key(hand_size, 2)]
    return tables["dealer" if dealer_throws else "pone"][pair_key(ranks)]


def model_correction(ranks: Sequence[int], dealer_throws: bool, hand_size: int = 6, players: int = 2) -> float:
    """What the expert's other throws add to a random-throw crib for these thrown ranks (a pair
    of two players, one card of three or four; ``dealer_throws``: the dealer's side throws)."""
    tables = load()[_variant_key(hand_size, players)]
    k = pair_key(ranks)
    if dealer_throws:
        return tables["dealer"][k] - tables["random_dealer"][k]
    return tables["pone"][k] - tables["random_pone"][k]


@lru_cache(maxsize=1)
def load_patterns() -> dict:
    """The shipped ``kept_patterns``, ``{"two": {...}, "five_card": {...}}``."""
    with PATTERNS_PATH.open() as f:
        return json.load(f)


def keep_rates(variant: str, dealer_side: bool | None) -> list[float]:
    """How likely a dealt card of each rank is kept by a seat of the dealer's side (or against
    it; ``None``: not known, the two averaged), by rank (index 0 unused): the pegging searches
    weight a seat's unseen cards by it. ``variant``: ``"two"``, ``"five_card"``, ``"three"``,
    ``"four"``."""
    data = load()[variant]
    if dealer_side is None:
        rates = [(a + b) / 2 for a, b in zip(data["keep_dealer"], data["keep_pone"])]
    else:
        rates = data["keep_dealer" if dealer_side else "keep_pone"]
    return [1.0] + list(rates)
