"""The expert's pegging search for three and four players (``peg_search`` is the two-player one).

At its turn a seat knows its own cards, the cards played, how many cards each
other seat still holds and the goes they said (each go puts a floor under the
values of the cards that seat holds). Partners do not see each other's cards:
in the four-hand game the partner's hand is drawn like an opponent's.
``search_plays(table)`` draws the other hands together (``SAMPLES`` seeded
draws, the most constrained seat first, each card weighted by how often an
expert keeps its rank in that seat's role: ``crib_model`` keep rates of the
variant; each draw weighed by the points its seats' plays passed up, as in
``peg_search``), and for each draw searches the rest of the play to the end with
every hand open (ranks only, memoised on the positions numbered by
``play_positions``), as the engine plays it (``pegging``:
the next seat that can play, the go to the last card's player, the new
count led by the seat after it). Each seat plays to maximise its side's
points net of the others' (partnerships: our side's minus theirs; three
players: ours minus the average of the two others'). A card's worth is the
average over the draws of that net for our side.

``in_reach(table)``: the search is used while at most ``MAX_CARDS`` cards
remain in all hands (later than that the play is too long to search in time;
``players.evaluate_plays`` decides). The draws are seeded from what the seat
sees (``knowledge.view_seed``), so the same view always gives the same move, and
no hidden card can change it.

Worth, in duplicate deals against the same expert pegging by the one-reply
evaluation throughout (600 deals, 95% intervals): +0.05 +- 0.05 points a
deal for three players, +0.08 +- 0.09 for four. Averaging it with the
one-reply evaluation (as the two-player expert does) or searching from nine
cards left did no better (-0.01 +- 0.05 and -0.03 +- 0.05 for three,
-0.03 +- 0.06 and -0.06 +- 0.10 for four).

Why two searches and not one (two players in ``peg_search``): merging them would change
the expert's moves. The two-player search weighs the opponent's hand by the kept-pattern
table (shipped for two players only), lists every opponent hand exactly when they are few
and samples 40 otherwise, and also serves the win-chance search near the end
(``search_win``) and the pegging table's generator on two open hands; this one draws every
other hand together by the per-rank keep rates, 24 draws, and packs one score per side.
Given the same hands the two play-outs agree; the draws, and so the moves, do not. What
they share is shared: the seed (``knowledge.view_seed``), the points passed up
(``peg_search.passed_up``, ``as_played``), the keep rates (``crib_model.keep_rates``) and
the numbered positions (``play_positions``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .crib_model import keep_rates
from .knowledge import Table, view_seed
from .peg_search import as_played, passed_up
from .play_positions import (
    COUNT_TOTAL,
    EMPTY,
    HAND_BITS,
    HAND_LESS,
    HAND_LOW,
    HAND_RANKS,
    START,
    VALUE,
    count_id,
    hand_id,
    step,
)

__all__ = ["MAX_CARDS", "SAMPLES", "in_reach", "other_hands", "search_plays", "Search"]

MAX_CARDS = 8  # cards left in all hands, ours included, for the search to be used
SAMPLES = 24  # draws of the other hands per decision...
FEWER_SAMPLES = {8: 12}  # ...fewer when more cards remain (longer searches)
MEMO_LIMIT = 400_000  # positions kept between decisions
_MEMOS: dict[tuple, dict[int, int]] = {}
SIDE_BITS = 8  # a side's points in a packed line (a play pegs far fewer than 256)
SIDE_MASK = (1 << SIDE_BITS) - 1


def in_reach(table: Table) -> bool:
    return table.players in (3, 4) and sum(table.held) <= MAX_CARDS


def _keep_rates(table: Table, seat: int) -> list[float]:
    """How likely a rank is among the cards ``seat`` kept, by its role (index 0 unused)."""
    if table.dealer is None:
        return keep_rates("three" if table.players == 3 else "four", None)
    dealer_side = seat % 2 == table.dealer % 2 if table.partnerships else seat == table.dealer
    return keep_rates("three" if table.players == 3 else "four", dealer_side)


def other_hands(table: Table, rng: random.Random, samples: int) -> list[tuple[tuple[tuple[int, ...], ...], float]]:
    """Draws of every seat's hand (ours as it is; rank tuples, sorted), with their weights.

    Each other seat holds ``held`` unseen cards worth more than its floor; the seats with
    the highest floor draw first, so that a seat that said go is not left without cards
    it could hold. A draw is weighed by how likely each seat's plays so far are with its
    hand (``peg_search.as_played``). Equal draws are merged."""
    mine = tuple(sorted(c.rank for c in table.hand))
    order = sorted(
        (s for s in range(table.players) if s != table.seat and table.held[s]),
        key=lambda s: (-table.floor[s], s),
    )
    rates = {s: _keep_rates(table, s) for s in order}
    better = {s: passed_up(table, s) for s in order}
    draws: dict[tuple, float] = {}
    for _ in range(samples):
        pool = list(table.unseen)
        hands: list[tuple[int, ...]] = [()] * table.players
        hands[table.seat] = mine
        for s in order:
            floor = table.floor[s]
            fits = [c for c in pool if c.value > floor]
            keep = rates[s]
            # Weighted draw without replacement (Efraimidis-Spirakis keys).
            fits.sort(key=lambda c: rng.random() ** (1 / keep[c.rank]), reverse=True)
            chosen = fits[: table.held[s]]
            hands[s] = tuple(sorted(c.rank for c in chosen))
            taken = set(chosen)
            pool = [c for c in pool if c not in taken]
        key = tuple(hands)
        likely = 1.0
        for s in order:
            likely *= as_played(better[s], hands[s])
        draws[key] = draws.get(key, 0.0) + likely
    total = sum(draws.values())
    return [(hands, w / total) for hands, w in draws.items()]


class Search:
    """Exact play-out of the rest of the play with every hand known, on the positions numbered
    by ``play_positions`` (int keys and values: out of the garbage collector's walk).

    A line is the points of each side (partnerships: two sides, else one per seat), packed
    in an int, ``SIDE_BITS`` a side; the seat to play picks the line best for its side net
    of the others (the first, lowest rank, among equals)."""

    def __init__(self, players: int, partnerships: bool, one_go: bool = False):
        self.players = players
        self.partnerships = partnerships
        self.sides = 2 if partnerships else players
        self.one_go = one_go
        self.memo = _MEMOS.setdefault((players, partnerships, one_go), {})
        if len(self.memo) > MEMO_LIMIT:
            self.memo.clear()
        self._side = [s % 2 if partnerships else s for s in range(players)]
        self._shift = [SIDE_BITS * self._side[s] for s in range(players)]

    def side(self, seat: int) -> int:
        return seat % 2 if self.partnerships else seat

    def net(self, line: Sequence[int], seat: int) -> float:
        """A line's worth to ``seat``: its side's points less the others' average."""
        own = line[self.side(seat)]
        return own - (sum(line) - own) / (self.sides - 1)

    def line(self, hands: Sequence[tuple[int, ...]], count_ranks: tuple[int, ...], turn: int) -> tuple[int, ...]:
        """Points per side of the best line from here (sorted rank tuples; ``turn`` can play)."""
        cid = count_id(sum(VALUE[r] for r in count_ranks), count_ranks)
        return self.unpack(self.rest(tuple(hand_id(h) for h in hands), cid, turn))

    def unpack(self, packed: int) -> tuple[int, ...]:
        """A packed line as points per side."""
        return tuple((packed >> (SIDE_BITS * k)) & SIDE_MASK for k in range(self.sides))

    def _net_packed(self, packed: int, seat: int) -> float:
        """``net`` of a packed line."""
        total = own = 0
        side = self._side[seat]
        for k in range(self.sides):
            pts = (packed >> (SIDE_BITS * k)) & SIDE_MASK
            total += pts
            if k == side:
                own = pts
        return own - (total - own) / (self.sides - 1)

    def rest(self, hands: tuple[int, ...], cid: int, turn: int) -> int:
        """The packed line of the best play from here (hand numbers), ``turn`` to play (it can)."""
        key = cid
        for h in hands:
            key = key << HAND_BITS | h
        key = key << 2 | turn
        memo = self.memo
        out = memo.get(key)
        if out is not None:
            return out
        room = 31 - COUNT_TOTAL[cid]
        best = None
        for r in HAND_RANKS[hands[turn]]:
            if VALUE[r] > room:
                break  # ranks ascending: no higher one fits either
            line = self.after(hands, cid, turn, r)
            score = self._net_packed(line, turn)
            if best is None or score > best:
                best, out = score, line
        assert out is not None, "rest() is called for a seat that can play"
        memo[key] = out
        return out

    def after(self, hands: tuple[int, ...], cid: int, seat: int, r: int) -> int:
        """The packed line when ``seat`` plays rank ``r`` now and everyone plays on best."""
        pts, cid = step(cid, r)
        hands = hands[:seat] + (HAND_LESS[hands[seat]][r],) + hands[seat + 1 :]
        n = self.players
        c = COUNT_TOTAL[cid]
        if c < 31:
            room = 31 - c
            for k in range(1, n + 1):  # the next seat that can play, the player itself last
                nxt = (seat + k) % n
                if HAND_LOW[hands[nxt]] <= room:
                    line = self.rest(hands, cid, nxt)
                    break
            else:
                pts += 1  # the go, or the last card
                line = self._count_over(hands, seat)
        else:
            line = self._count_over(hands, seat)
        return line + (pts << self._shift[seat])

    def _count_over(self, hands: tuple[int, ...], last: int) -> int:
        """The count is over; the first seat after ``last`` still holding cards leads the next."""
        if self.one_go:
            return 0
        n = self.players
        for k in range(1, n + 1):
            leader = (last + k) % n
            if hands[leader] != EMPTY:
                return self.rest(hands, START, leader)
        return 0


def search_plays(table: Table) -> dict:
    """Each playable card's expected points for our side net of the others' over the rest of
    the play, over the draws of the other hands."""
    rng = random.Random(view_seed(table))
    count_ranks = tuple(c.rank for c in table.count_cards)
    count = sum(c.value for c in table.count_cards)
    cid = count_id(count, count_ranks)
    search = Search(table.players, table.partnerships, table.one_go)
    playable = sorted({c.rank for c in table.hand if count + c.value <= 31})
    samples = FEWER_SAMPLES.get(sum(table.held), SAMPLES)
    by_rank: dict[int, float] = {}
    for hands, weight in other_hands(table, rng, samples):
        numbered = tuple(hand_id(h) for h in hands)
        for r in playable:
            line = search.after(numbered, cid, table.seat, r)
            by_rank[r] = by_rank.get(r, 0.0) + weight * search._net_packed(line, table.seat)
    return {c: by_rank[c.rank] for c in table.hand if c.rank in by_rank}
