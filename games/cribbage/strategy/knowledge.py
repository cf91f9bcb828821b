"""What a seat knows during the play, and what a card pegs by ranks alone.

``Table`` is one seat's knowledge at its turn (its own cards and everything
played in the open); ``table_from_plays`` rebuilds it from the public plays.
Shared by the computer player (``players``, ``peg_search``) and the coach.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import NamedTuple

from ..cards import FULL_DECK, Card, card_from_code
from ..table_view import SeatView

__all__ = ["peg_points", "rank_value", "Table", "table_from_plays", "table_from_view", "view_seed"]


def rank_value(rank: int) -> int:
    return 10 if rank > 10 else rank


# --- Pegging points on ranks -------------------------------------------------


@lru_cache(maxsize=200_000)
def peg_points(ranks: tuple[int, ...]) -> int:
    """Points the last card of a count pegs (fifteen, 31, pairs, runs), by ranks alone.

    The same numbers as ``scoring.score_pegging`` (suits never matter in the play).
    """
    if not ranks:
        return 0
    points = 0
    total = sum(rank_value(r) for r in ranks)
    if total == 15 or total == 31:
        points += 2
    last = ranks[-1]
    same = 1
    n = len(ranks)
    while same < n and ranks[-1 - same] == last:
        same += 1
    if same > 1:
        points += same * (same - 1)
    else:
        for length in range(n, 2, -1):
            tail = ranks[-length:]
            s = set(tail)
            if len(s) == length and max(s) - min(s) == length - 1:
                points += length
                break
    return points


# --- What a seat knows during the play -----------------------------------------


class Table(NamedTuple):
    """One seat's knowledge at its turn in the play (all public, plus its own cards)."""

    players: int
    seat: int
    hand: tuple[Card, ...]  # cards the seat still holds
    count_cards: tuple[Card, ...]  # the cards of this count
    unseen: tuple[Card, ...]  # cards the seat cannot place (others' hands, crib, deck)
    held: tuple[int, ...]  # cards each seat still holds
    gone: frozenset[int]  # seats that said go in this count
    floor: tuple[int, ...]  # per seat: their cards are all worth more than this
    partnerships: bool = False
    one_go: bool = False
    dealer: int | None = None  # the dealer's seat, when known
    played: tuple[tuple[int, ...], ...] = ()  # per seat: the ranks it has played this deal
    #: Every card laid this deal, in order: (seat, the ranks of its count before it, its rank).
    laid: tuple[tuple[int, tuple[int, ...], int], ...] = ()


def table_from_plays(
    *,
    players: int,
    seat: int,
    kept: Sequence[Card],
    known: Iterable[Card],
    plays: Sequence[dict],
    round: int,
    partnerships: bool = False,
    one_go: bool = False,
) -> Table:
    """Rebuild a seat's knowledge at a play from the public plays before it (view-style dicts).

    ``kept``: the seat's kept cards (all of them, played or not); ``known``:
    other cards it has seen that are out of play (its discards, the starter).
    ``plays``: the entries ``{"seat", "card" (code, or None for a go), "count",
    "round"}`` of this hand before the decision; ``round``: the count the
    decision is made in (the ``round`` of its own play entry).
    """
    held = [len(kept)] * players
    floor = [0] * players
    count_cards: list[Card] = []
    gone = set()
    mine_played = set()
    seen = set(kept) | set(known)
    for p in plays:
        s = p["seat"]
        if p["card"]:
            card = card_from_code(p["card"])
            held[s] -= 1
            seen.add(card)
            if s == seat:
                mine_played.add(card)
            if p["round"] == round:
                count_cards.append(card)
        else:
            floor[s] = max(floor[s], 31 - p["count"])
            if p["round"] == round:
                gone.add(s)
    hand = tuple(c for c in kept if c not in mine_played)
    unseen = tuple(c for c in FULL_DECK if c not in seen)
    laid = _laid(plays)
    return Table(
        players,
        seat,
        hand,
        tuple(count_cards),
        unseen,
        tuple(held),
        frozenset(gone),
        tuple(floor),
        partnerships,
        one_go,
        played=_played(laid, players),
        laid=laid,
    )


def table_from_view(v: SeatView, seat: int) -> Table:
    """The seat's knowledge at its turn in the play, from its view."""
    rules = v.game_rules
    kept = tuple(card_from_code(c) for c in v.kept)
    hand = tuple(card_from_code(c) for c in v.hand)
    known = [card_from_code(c) for c in v.my_discards]
    if v.starter:
        known.append(card_from_code(v.starter))
    count_cards = tuple(card_from_code(c) for c in v.count_cards)
    plays = v.plays
    played = {card_from_code(p["card"]) for p in plays if p["card"]}
    seen = set(kept) | set(known) | played
    floor = [0] * rules.players
    cur_round = plays[-1]["round"] if plays else 0
    gone = set()
    laid = _laid(plays)
    for p in plays:
        if p["card"] is None:
            floor[p["seat"]] = max(floor[p["seat"]], 31 - p["count"])
            if p["round"] == cur_round and count_cards:
                gone.add(p["seat"])
    return Table(
        rules.players,
        seat,
        hand,
        count_cards,
        tuple(c for c in FULL_DECK if c not in seen),
        tuple(v.cards_held),
        frozenset(gone),
        tuple(floor),
        rules.partnerships,
        rules.one_go,
        v.dealer,
        _played(laid, rules.players),
        laid,
    )


def _played(laid: Sequence[tuple[int, tuple[int, ...], int]], players: int) -> tuple[tuple[int, ...], ...]:
    """``Table.played`` from ``Table.laid``."""
    return tuple(tuple(rank for seat, _, rank in laid if seat == s) for s in range(players))


def _laid(plays: Sequence[dict]) -> tuple[tuple[int, tuple[int, ...], int], ...]:
    """``Table.laid`` from view-style play entries."""
    out = []
    count: list[int] = []
    last_round = None
    for p in plays:
        if p["round"] != last_round:
            count, last_round = [], p["round"]
        if p["card"]:
            rank = card_from_code(p["card"]).rank
            out.append((p["seat"], tuple(count), rank))
            count.append(rank)
    return tuple(out)


def view_seed(table: Table) -> int:
    """A seed from what the seat sees: the same view draws the same hands, whatever is hidden."""
    seen = (
        table.seat,
        tuple(c.index for c in table.hand),
        tuple(c.index for c in table.count_cards),
        tuple(c.index for c in table.unseen),
        table.held,
        table.floor,
        tuple(sorted(table.gone)),
    )
    return zlib.crc32(repr(seen).encode())
