"""The computer player: discards, pegging, counting and muggins at three levels.

``choose_move(state, seat, level="standard", rng=None)`` returns one of
``legal_moves(state, seat)``. Levels (``LEVELS``):

* ``"expert"``: the best discard by the exact analysis
  (``analysis.discard_options``: kept hand plus or minus crib over every
  starter and every crib) and the full pegging evaluation below; claims the
  true count and calls muggins on every short claim. (No pegging tie-break
  between near-equal discards: a gain of a tenth of a point per hand could
  not be measured by a benchmark of a few thousand games, so the discard
  stays the exact best.)
* ``"standard"``: the same discards; pegging weighs points now against what
  the next player can score at once, without the lookahead or the
  inferences from their goes.
* ``"easy"``: kept hand plus half the crib, with noise; takes points when it
  sees them, otherwise plays a low-risk card half the time; sometimes
  under-claims and overlooks a short claim (muggins).

Baselines for the strength benchmark: ``"random"`` (any legal move) and
``"greedy"`` (keep the best four cards ignoring the crib, play the highest
legal card).

What the computer knows: only ``view(state, seat)`` (its own cards, the cards
played, the starter, how many cards each seat holds, who said go) and its
legal moves. It never reads another hand or the deck; ``tests/engine/
test_players.py`` checks that states differing only in hidden cards get the
same move. (Under muggins the true value of a claim is offered by the legal
moves; it depends only on cards on the table, which any player can count.)

Pegging evaluation (``evaluate_plays``): pegging depends only on ranks. For
each card it could play, the player adds the points it pegs now and subtracts
what the next player is expected to get in reply: every unseen rank they may
hold (cards they cannot hold after saying go are removed) is scored as their
points minus our best answer to it (a pair royal on their pair, a fifteen or
31 on their card); they are assumed to play their best card, and the
expectation of that best over their unknown hand is exact (hypergeometric
over the unseen cards). When they cannot play, we play on alone (best
sequence of our cards, plus the go). About a millisecond per decision.
"""

from __future__ import annotations

import random as _random
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import combinations
from math import comb
from typing import NamedTuple

from games.cribbage.cards import FULL_DECK, Card, card_from_code
from games.cribbage.moves import legal_moves
from games.cribbage.table_view import view

from .analysis import discard_options, hand_ev, throw_count

__all__ = [
    "LEVELS",
    "BASELINES",
    "choose_move",
    "choose_discard",
    "Table",
    "table_from_plays",
    "evaluate_plays",
    "choose_play",
]

LEVELS = ("easy", "standard", "expert")
BASELINES = ("random", "greedy")


def _value(rank: int) -> int:
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
    total = sum(_value(r) for r in ranks)
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


def _alone(mine: tuple[int, ...], count_ranks: tuple[int, ...], count: int) -> float:
    """Best points from playing on with nobody else able to play, the go included."""
    best = None
    for i, r in enumerate(mine):
        v = _value(r)
        if count + v <= 31:
            ranks = count_ranks + (r,)
            pts = peg_points(ranks) + _alone(mine[:i] + mine[i + 1 :], ranks, count + v)
            if best is None or pts > best:
                best = pts
    if best is None:
        return 0 if count == 31 else 1  # the go (or last card) for the card just played
    return best


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
    )


def _table_from_view(v: dict, seat: int) -> Table:
    rules = v["rules"]
    kept = tuple(card_from_code(c) for c in v["kept"])
    hand = tuple(card_from_code(c) for c in v["hand"])
    known = [card_from_code(c) for c in v["my_discards"]]
    if v["starter"]:
        known.append(card_from_code(v["starter"]))
    count_cards = tuple(card_from_code(c) for c in v["count_cards"])
    played = {card_from_code(p["card"]) for p in v["plays"] if p["card"]}
    seen = set(kept) | set(known) | played
    floor = [0] * rules["players"]
    cur_round = v["plays"][-1]["round"] if v["plays"] else 0
    gone = set()
    for p in v["plays"]:
        if p["card"] is None:
            floor[p["seat"]] = max(floor[p["seat"]], 31 - p["count"])
            if p["round"] == cur_round and count_cards:
                gone.add(p["seat"])
    return Table(
        rules["players"],
        seat,
        hand,
        count_cards,
        tuple(c for c in FULL_DECK if c not in seen),
        tuple(v["cards_held"]),
        frozenset(gone),
        tuple(floor),
        rules["partnerships"],
        rules["one_go"],
    )


def _side(table: Table, seat: int) -> int:
    return seat % 2 if table.partnerships else seat


def _next_opponent(table: Table) -> int | None:
    """The next seat after us that may still play in this count (None: none may)."""
    for k in range(1, table.players):
        s = (table.seat + k) % table.players
        if table.held[s] and s not in table.gone:
            return s
    return None


def evaluate_plays(table: Table, deep: bool = True) -> dict[Card, float]:
    """Expected net points of each playable card: pegged now minus the reply's worth.

    ``deep`` (expert): our best answer to each reply, plays on alone when the
    others cannot play, and their goes limit what they can hold. Without it
    (standard): only the next player's immediate points are weighed.
    """
    count_ranks = tuple(c.rank for c in table.count_cards)
    count = sum(c.value for c in table.count_cards)
    mine = tuple(c.rank for c in table.hand)
    nxt = _next_opponent(table)
    out: dict[Card, float] = {}
    for i, card in enumerate(table.hand):
        if count + card.value > 31:
            continue
        rest = mine[:i] + mine[i + 1 :]
        ranks = count_ranks + (card.rank,)
        c1 = count + card.value
        now = peg_points(ranks)
        if nxt is None:
            # Nobody else can play in this count: we play on alone.
            out[card] = now + (_alone(rest, ranks, c1) if deep else (0 if c1 == 31 else 1))
            continue
        if c1 == 31:
            out[card] = now
            continue
        if nxt is not None and _side(table, nxt) == _side(table, table.seat):
            out[card] = now
            continue
        out[card] = now - _expected_reply(table, nxt, rest, ranks, c1, deep)
    return out


def _expected_reply(
    table: Table, opp: int, rest: tuple[int, ...], ranks: tuple[int, ...], c1: int, deep: bool
) -> float:
    """Expected (their points - our answer) when `opp` replies at count c1; they play their best."""
    floor = table.floor[opp] if deep else 0
    pool = [0] * 14
    for c in table.unseen:
        if c.value > floor:
            pool[c.rank] += 1
    n = sum(pool)
    h = min(table.held[opp], n)
    if h <= 0:
        return 0.0
    values = []  # (worth to them, how many pool cards give it)
    playable = 0
    for r in range(1, 14):
        k = pool[r]
        if not k or c1 + _value(r) > 31:
            continue
        playable += k
        r_ranks = ranks + (r,)
        c2 = c1 + _value(r)
        theirs = peg_points(r_ranks)
        if deep and c2 < 31:
            best = None
            for _j, y in enumerate(rest):
                if c2 + _value(y) <= 31:
                    p = peg_points(r_ranks + (y,))
                    if best is None or p > best:
                        best = p
            theirs -= best if best is not None else -1  # we cannot answer: they likely get a go
        values.append((theirs, k))
    total = comb(n, h)
    no_play = comb(n - playable, h) / total
    if table.players == 2 and deep:
        none_worth = -_alone(rest, ranks, c1)
    else:
        none_worth = 0.0
    expected = no_play * none_worth
    # P(best >= v) = 1 - P(no card worth >= v in their hand).
    values.sort(reverse=True)
    covered = 0
    prev_p = 0.0
    i = 0
    while i < len(values):
        v = values[i][0]
        while i < len(values) and values[i][0] == v:
            covered += values[i][1]
            i += 1
        p = 1 - comb(n - covered, h) / total
        expected += v * (p - prev_p)
        prev_p = p
    return expected


def choose_play(table: Table, level: str = "expert", rng: _random.Random | None = None) -> Card:
    """The card to play at this level (see the module docstring)."""
    rng = rng or _random
    options = [c for c in table.hand if c.value + sum(x.value for x in table.count_cards) <= 31]
    if level == "greedy":
        return max(options, key=lambda c: (c.value, c.rank, c.index))
    if level == "random":
        return rng.choice(options)
    if level == "easy":
        ranks = tuple(c.rank for c in table.count_cards)
        now = {c: peg_points(ranks + (c.rank,)) for c in options}
        best = max(now.values())
        if best > 0:
            return max(options, key=lambda c: (now[c], -c.index))
        if rng.random() < 0.5:
            return rng.choice(options)
        level = "standard"
    scores = evaluate_plays(table, deep=level == "expert")
    # Exact ties (e.g. nothing to fear either way): see _keep_bias.
    return max(options, key=lambda c: (round(scores[c], 9), _keep_bias(table, c), -c.index))


def _keep_bias(table: Table, card: Card) -> float:
    """Tie-break: lead/play a card we hold a pair of (answers their pair), else a higher one."""
    same = sum(1 for c in table.hand if c.rank == card.rank)
    return (same > 1) * 0.5 + card.value / 100


# --- Discards ------------------------------------------------------------------


def choose_discard(
    hand: Sequence[Card], is_dealer: bool, players: int = 2, level: str = "expert", rng: _random.Random | None = None
) -> tuple[Card, ...]:
    """The cards to lay away at this level."""
    rng = rng or _random
    throw = throw_count(len(hand), players)
    if level == "random":
        return tuple(rng.sample(list(hand), throw))
    if level == "greedy":  # the best kept cards, the crib ignored
        best = max(combinations(hand, len(hand) - throw), key=hand_ev)
        return tuple(c for c in hand if c not in best)
    options = discard_options(hand, is_dealer, players=players)
    if level == "easy":
        return max(options, key=lambda o: float(o.hand_ev) + 0.5 * float(o.crib_ev) + rng.gauss(0, 0.75)).discard
    return options[0].discard  # standard and expert: the exact best hand plus (minus) crib


# --- Claims, muggins and the move ---------------------------------------------------


def _is_dealer_side(v: dict, seat: int) -> bool:
    rules = v["rules"]
    if rules["partnerships"]:
        return v["dealer"] % 2 == seat % 2
    return v["dealer"] == seat


def choose_move(state, seat: int, level: str = "standard", rng: _random.Random | None = None) -> dict:
    """One of ``legal_moves(state, seat)`` for the computer at ``level`` (see module docstring)."""
    if level not in LEVELS + BASELINES:
        raise ValueError(f"Unknown level {level!r}; choose one of {', '.join(LEVELS + BASELINES)}")
    rng = rng or _random.Random()
    legal = legal_moves(state, seat)
    if not legal:
        raise ValueError(f"Seat {seat} has no move to make now")
    if level == "random":
        return rng.choice(legal)
    mugg = [m for m in legal if m["kind"] == "muggins"]
    if mugg and (level != "easy" or rng.random() < 0.5):
        # The short claim was made on cards on the table: any player can count it.
        return mugg[0]
    legal = [m for m in legal if m["kind"] != "muggins"]
    if not legal:
        return mugg[0]  # nothing else to do (never reached: a muggins comes with a turn)
    kind = legal[0]["kind"]
    v = view(state, seat)
    if kind == "discard":
        hand = [card_from_code(c) for c in v["hand"]]
        discard = choose_discard(hand, _is_dealer_side(v, seat), v["rules"]["players"], level, rng)
        codes = sorted(c.code for c in discard)
        for m in legal:
            if sorted(m["cards"]) == codes:
                return m
        raise AssertionError("chosen discard is not legal")  # pragma: no cover
    if kind == "play":
        card = choose_play(_table_from_view(v, seat), level, rng).code
        options = [m for m in legal if m["card"] == card]
        return _claim(options, "claim", level, rng)
    if kind == "count":
        return _claim(legal, "points", level, rng)
    return legal[0]


def _claim(options: list[dict], key: str, level: str, rng) -> dict:
    """The true count (the highest claim offered), or under muggins at easy sometimes less."""
    if key not in options[0]:
        return options[0]
    options = sorted(options, key=lambda m: m[key])
    best = options[-1]
    if level == "easy" and best[key] >= 2 and rng.random() < 0.2:
        return options[max(0, len(options) - 1 - rng.choice((1, 2)))]
    return best
