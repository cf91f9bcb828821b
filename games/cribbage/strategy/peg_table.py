"""What the kept cards are worth in the play: expected net pegging by kept-hand rank pattern.

The discard analysis counts the show (hand and crib); the play is worth points
too, and the kept cards decide it: the pone wants low cards to lead and pairs
to answer with, the dealer cards that make fifteens and runs on the pone's.
``pegging_value(keep_ranks, is_dealer)`` is the expected points the seat pegs
in the play minus what the opponent pegs, for its kept ranks (suits never
count in the play), two players; ``players.choose_discard`` adds it to hand
plus crib for the expert. The values are centred (mean 0 over dealt hands):
only the differences between throws matter.

The shipped table is ``data/peg_table.json``; how it is found, and the command
that regenerates it: ``tables.peg_table``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

__all__ = ["DATA_PATH", "load", "pegging_value", "pattern_key"]

DATA_PATH = Path(__file__).parents[1] / "data" / "peg_table.json"


def pattern_key(ranks: Sequence[int]) -> str:
    """ "1-5-5-10": the JSON key of a kept rank pattern."""
    return "-".join(str(r) for r in sorted(ranks))


@lru_cache(maxsize=1)
def load() -> dict:
    """The shipped table, ``{"two": {"pone", "dealer"}, "five_card": {...}}``."""
    with DATA_PATH.open() as f:
        return json.load(f)


def pegging_value(keep_ranks: Sequence[int], is_dealer: bool, hand_size: int = 6) -> float:
    """Expected net pegging of these kept ranks against the average for the role (two players;
    ``hand_size`` 6, or 5 for five-card)."""
    table = load()["two" if hand_size == 6 else "five_card"]
    return table["dealer" if is_dealer else "pone"][pattern_key(keep_ranks)]
