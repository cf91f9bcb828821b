"""Win chances over the board: the probability of winning from every score, by who deals.

Two players, to 121 or 61 (six-card) and to 61 (five-card). A deal is
played out in the order that decides close games: the dealer's heels, the
play (each point pegged in turn, so whoever reaches the target first during
the play wins), then the pone's hand, then the dealer's hand and crib; the
game ends the moment the target is reached.

The table is dynamic programming over the distribution of a deal's points in
expert self-play (``tables.win_tables``: ``sample_deals`` and ``build_table``).
Shipped as ``data/win_chance.json``; regenerate with
``nice -n 10 python -m games.cribbage.tables.win_tables`` (self-play of a few
thousand deals, several minutes on one core).

``win_chance(mine, theirs, i_deal)`` reads the table (the chance at the start
of a deal); ``after_play(...)`` gives the chance once the play is over, from
one's own known show and the distribution of the other counts: the worth of
the points at stake in the play near the end of a game.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

__all__ = [
    "TABLES",
    "DATA_PATH",
    "win_chance",
    "after_play",
    "after_show",
    "show_chances",
    "has_table",
    "pegging_chances",
    "load",
]

DATA_PATH = Path(__file__).parents[1] / "data" / "win_chance.json"
#: (name, variant, target) of the shipped tables.
TABLES = (("two-121", "two", 121), ("two-61", "two", 61), ("five_card-61", "five_card", 61))


@lru_cache(maxsize=1)
def load() -> dict:
    with DATA_PATH.open() as f:
        return json.load(f)


def _name(variant: str, target: int) -> str:
    name = f"{'five_card' if variant == 'five_card' else 'two'}-{target}"
    if name not in {n for n, _, _ in TABLES}:
        raise ValueError(f"No win-chance table for {variant} to {target}")
    return name


def has_table(variant: str, target: int, players: int = 2) -> bool:
    return players == 2 and variant in ("two", "five_card") and f"{variant}-{target}" in {n for n, _, _ in TABLES}


def win_chance(mine: int, theirs: int, i_deal: bool, variant: str = "two", target: int = 121) -> float:
    """My chance to win at the start of a deal (scores before the deal, heels not yet turned)."""
    if mine >= target:
        return 1.0
    if theirs >= target:
        return 0.0
    table = _pone_wins(variant, target)
    if i_deal:
        return 1.0 - table[theirs][mine]
    return table[mine][theirs]


@lru_cache(maxsize=8)
def _pone_wins(variant: str, target: int) -> list[list[float]]:
    return load()[_name(variant, target)]["pone_wins"]


def show_chances(variant: str, target: int) -> dict:
    """The shipped distributions of the shows: ``{"pone_hand", "dealer_hand", "crib",
    "dealer_show"}`` each ``{points: probability}``."""
    return load()[_name(variant, target)]["shows"]


@lru_cache(maxsize=8)
def _int_shows(variant: str, target: int) -> dict:
    # Normalised again: the shipped probabilities are rounded.
    out = {}
    for k, d in show_chances(variant, target).items():
        total = sum(d.values())
        out[k] = [(int(p), w / total) for p, w in d.items()]
    return out


@lru_cache(maxsize=8)
def pegging_chances(variant: str, target: int) -> list[tuple[int, int, float]]:
    """The play's points in self-play, ``(pone's, dealer's, probability)``, heels included."""
    out = []
    for key, w in load()[_name(variant, target)]["pegging"].items():
        pone, dealer = key.split("-")
        out.append((int(pone), int(dealer), w))
    return sorted(out, key=lambda x: -x[2])


def after_play(
    mine: int, theirs: int, i_deal: bool, my_hand: int, variant: str = "two", target: int = 121, crib_shift: int = 0
) -> float:
    """My chance to win once the play is over, scores after it, my hand's show known
    (``my_hand``: its points with the starter; the crib and their show drawn from the
    self-play distributions, the crib moved by ``crib_shift`` points for the cards known to
    be in it), pone counting first."""
    if mine >= target:
        return 1.0
    if theirs >= target:
        return 0.0
    return after_show(mine + my_hand, theirs, i_deal, variant, target, crib_shift)


@lru_cache(maxsize=100_000)
def after_show(mine: int, theirs: int, i_deal: bool, variant: str, target: int, crib_shift: int = 0) -> float:
    """``after_play`` once my hand is added to my score (``mine``), both scores below the
    target before it: the chance depends on that sum alone, so one entry serves every split."""
    shows = _int_shows(variant, target)
    if not i_deal:
        if mine >= target:
            return 1.0
        pone_wins = _pone_wins(variant, target)  # read as win_chance does, here in the loop
        total = 0.0
        for pts, w in shows["dealer_show"]:
            t2 = theirs + max(0, pts + crib_shift)
            if t2 < target:  # else they counted out: nothing for me
                total += w * (1.0 - pone_wins[t2][mine])
        return total
    total = 0.0
    for pts, w in shows["pone_hand"]:
        t2 = theirs + pts
        if t2 < target:
            total += w * _dealer_counts(mine, t2, variant, target, crib_shift)
    return total


@lru_cache(maxsize=100_000)
def _dealer_counts(mine: int, theirs: int, variant: str, target: int, crib_shift: int) -> float:
    """The dealer's chance with his hand counted (``mine``), the crib still to count."""
    pone_wins = _pone_wins(variant, target)
    total = 0.0
    for crib, w in _int_shows(variant, target)["crib"]:
        m2 = mine + max(0, crib + crib_shift)
        total += w if m2 >= target else w * pone_wins[m2][theirs]
    return total
