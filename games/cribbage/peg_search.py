"""The expert's pegging search: sample the hidden hand, then play the rest of the play exactly.

Two players only (three and four players keep ``players.evaluate_plays``).
At its turn the player knows its own cards, the cards played and how many
cards the opponent still holds; every go the opponent said puts a floor under
the values of the cards they hold. ``search_plays(table)`` draws opponent
hands consistent with that (exactly every rank combination when there are
few, else ``SAMPLES`` seeded draws), each card weighted by how often an
expert keeps its rank in their role (``crib_model`` keep rates), and for each one searches the rest of
the play to the end with both hands open (at most eight cards: a minimax over
ranks, memoised, since suits never count in the play). A card's worth is the
average over the hands of its points now plus the best line after it, as
points pegged by us minus points pegged by them. ``search_win`` does the same
for the win chance near the end of a game (see ``endgame``).

The draws are seeded from what the seat sees (``_seed``), so the same view
always gives the same move, and no hidden card can change it.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable
from itertools import combinations_with_replacement
from math import comb

from .crib_model import load as load_crib_model
from .knowledge import Table, peg_points

__all__ = ["SAMPLES", "search_plays", "search_win", "opponent_hands"]

SAMPLES = 40  # opponent hands per decision when they cannot all be listed...
FEWER_SAMPLES = {8: 12, 7: 24}  # ...fewer when more cards remain (longer searches)


def _seed(table: Table) -> int:
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


def opponent_hands(table: Table, opp: int, rng: random.Random) -> list[tuple[tuple[int, ...], float]]:
    """Rank tuples the opponent may hold now, each with its probability weight."""
    floor = table.floor[opp]
    pool = [0] * 14
    for c in table.unseen:
        if c.value > floor:
            pool[c.rank] += 1
    held = table.held[opp]
    n = sum(pool)
    held = min(held, n)
    if held <= 0:
        return [((), 1.0)]
    ranks = [r for r in range(1, 14) if pool[r]]
    keep = _keep_rates(table, opp)
    # Rank multisets of `held` cards and how many card sets give each.
    samples = FEWER_SAMPLES.get(held + len(table.hand), SAMPLES)
    multisets: list[tuple[tuple[int, ...], float]] = []
    if comb(len(ranks) + held - 1, held) <= samples * 4:
        for ms in combinations_with_replacement(ranks, held):
            ways = 1.0
            for r in set(ms):
                ways *= comb(pool[r], ms.count(r)) * keep[r] ** ms.count(r)
            if ways:
                multisets.append((ms, ways))
    if multisets and len(multisets) <= samples:  # every one, exactly weighted, if few enough
        total = sum(w for _, w in multisets)
        return [(ms, w / total) for ms, w in multisets]
    cards = [r for r in ranks for _ in range(pool[r])]
    draws = []
    for _ in range(samples):  # weighted draws without replacement (Efraimidis-Spirakis keys)
        keyed = sorted(cards, key=lambda r: rng.random() ** (1 / keep[r]), reverse=True)
        draws.append(tuple(sorted(keyed[:held])))
    return [(d, 1.0 / samples) for d in draws]


MEMO_LIMIT = 400_000  # positions kept between decisions (a few tens of megabytes at most)
_MEMOS: dict[bool, dict] = {False: {}, True: {}}
_VALUE = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)


def _keep_rates(table: Table, opp: int) -> list[float]:
    """How likely each rank is to be among the cards they kept (an expert keeps fives, the pone
    throws kings): the crib model's keep rates for their role, by rank (index 0 unused)."""
    data = load_crib_model()["five_card" if table.one_go else "two"]
    if table.dealer is None:
        rates = [(a + b) / 2 for a, b in zip(data["keep_dealer"], data["keep_pone"])]
    else:
        rates = data["keep_dealer" if table.dealer == opp else "keep_pone"]
    return [1.0] + list(rates)


class _Search:
    """Exact play-out of the rest of the play with both hands known (ranks only, sorted tuples).

    Lines are (our points, their points); we pick the line of best net points, they the
    worst for us."""

    def __init__(self, one_go: bool):
        self.one_go = one_go
        # Shared between decisions: the later plays of a deal meet the same positions again.
        self.memo = _MEMOS[one_go]
        if len(self.memo) > MEMO_LIMIT:
            self.memo.clear()

    def rest(self, mine: tuple, theirs: tuple, seq: tuple, count: int, turn: int, last: int):
        """(our points, their points) of the best line from here; `turn` 0 is us to play."""
        key = (mine, theirs, seq, turn, last)
        memo = self.memo
        hit = memo.get(key)
        if hit is not None:
            return hit
        hand = mine if turn == 0 else theirs
        room = 31 - count
        best = out = None
        prev = 0
        for r in hand:
            if r == prev or _VALUE[r] > room:
                continue
            prev = r
            line = self.after(mine, theirs, seq, count, turn, r)
            score = line[0] - line[1]
            if turn:
                score = -score
            if best is None or score > best:
                best, out = score, line
        if out is None:
            other = theirs if turn == 0 else mine
            if other and _VALUE[other[0]] <= room:  # hands are sorted: the lowest card decides
                out = self.rest(mine, theirs, seq, count, 1 - turn, last)
            else:
                out = self._count_over(mine, theirs, last, 1)
        memo[key] = out
        return out

    def after(self, mine, theirs, seq, count, turn, r):
        """(our points, their points) when `turn` plays rank r now and both play on best."""
        if turn == 0:
            i = mine.index(r)
            mine = mine[:i] + mine[i + 1 :]
        else:
            i = theirs.index(r)
            theirs = theirs[:i] + theirs[i + 1 :]
        s = seq + (r,)
        pts = peg_points(s)
        c = count + _VALUE[r]
        if c == 31:
            us, them = self._count_over(mine, theirs, turn, 0)
        else:
            us, them = self.rest(mine, theirs, s, c, 1 - turn, turn)
        return (us + pts, them) if turn == 0 else (us, them + pts)

    def _count_over(self, mine, theirs, last, go):
        """The count ends: `last` pegs the go (1, none at 31); the other side leads the next."""
        us, them = (go, 0) if last == 0 else (0, go)
        if self.one_go or not (mine or theirs):
            return us, them
        leader = 1 - last
        if not (mine if leader == 0 else theirs):
            leader = last
        a, b = self.rest(mine, theirs, (), 0, leader, leader)
        return us + a, them + b


def search_plays(table: Table) -> dict:
    """Each playable card's expected points net of the opponent's over the rest of the play,
    over the opponent hands we may face."""
    opp = 1 - table.seat
    rng = random.Random(_seed(table))
    count_ranks = tuple(c.rank for c in table.count_cards)
    count = sum(c.value for c in table.count_cards)
    mine = tuple(sorted(c.rank for c in table.hand))
    search = _Search(table.one_go)
    by_rank: dict[int, float] = {}
    playable = {c.rank for c in table.hand if count + c.value <= 31}
    for theirs, weight in opponent_hands(table, opp, rng):
        for r in playable:
            line = search.after(mine, theirs, count_ranks, count, 0, r)
            by_rank[r] = by_rank.get(r, 0.0) + weight * (line[0] - line[1])
    return {c: by_rank[c.rank] for c in table.hand if c.rank in by_rank}


class _EndSearch:
    """The same play-out for the win chance: the game ends the moment a side reaches the
    target in the play (``need``: points each side still needs), else ``worth(ours, theirs)``
    once the play is over; we maximise it, they minimise it."""

    def __init__(self, one_go: bool, need: tuple[int, int], worth: Callable[[int, int], float]):
        self.one_go = one_go
        self.need = need
        self.worth = worth
        self.memo: dict = {}

    def rest(self, mine, theirs, seq, count, turn, last, got):
        key = (mine, theirs, seq, turn, last, got)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        hand = mine if turn == 0 else theirs
        room = 31 - count
        best = None
        prev = 0
        for r in hand:
            if r == prev or _VALUE[r] > room:
                continue
            prev = r
            v = self.after(mine, theirs, seq, count, turn, r, got)
            if best is None or (v > best if turn == 0 else v < best):
                best = v
        if best is None:
            other = theirs if turn == 0 else mine
            if other and _VALUE[other[0]] <= room:
                best = self.rest(mine, theirs, seq, count, 1 - turn, last, got)
            else:
                best = self._count_over(mine, theirs, last, 1, got)
        self.memo[key] = best
        return best

    def _add(self, got, side, pts):
        if side == 0:
            return (got[0] + pts, got[1])
        return (got[0], got[1] + pts)

    def after(self, mine, theirs, seq, count, turn, r, got):
        if turn == 0:
            i = mine.index(r)
            mine = mine[:i] + mine[i + 1 :]
        else:
            i = theirs.index(r)
            theirs = theirs[:i] + theirs[i + 1 :]
        s = seq + (r,)
        got = self._add(got, turn, peg_points(s))
        if got[turn] >= self.need[turn]:
            return 1.0 if turn == 0 else 0.0
        c = count + _VALUE[r]
        if c == 31:
            return self._count_over(mine, theirs, turn, 0, got)
        return self.rest(mine, theirs, s, c, 1 - turn, turn, got)

    def _count_over(self, mine, theirs, last, go, got):
        if go:
            got = self._add(got, last, go)
            if got[last] >= self.need[last]:
                return 1.0 if last == 0 else 0.0
        if self.one_go or not (mine or theirs):
            return self.worth(got[0], got[1])
        leader = 1 - last
        if not (mine if leader == 0 else theirs):
            leader = last
        return self.rest(mine, theirs, (), 0, leader, leader, got)


def search_win(table: Table, need: tuple[int, int], worth: Callable[[int, int], float]) -> dict:
    """Each playable card's expected win chance near the end of a game: ``need`` is the points
    we and they still need, ``worth(ours, theirs)`` the chance once the play is over with
    those points pegged in it (``win_chance.after_play``)."""
    opp = 1 - table.seat
    rng = random.Random(_seed(table))
    count_ranks = tuple(c.rank for c in table.count_cards)
    count = sum(c.value for c in table.count_cards)
    mine = tuple(sorted(c.rank for c in table.hand))
    search = _EndSearch(table.one_go, need, worth)
    by_rank: dict[int, float] = {}
    playable = {c.rank for c in table.hand if count + c.value <= 31}
    for theirs, weight in opponent_hands(table, opp, rng):
        for r in playable:
            v = search.after(mine, theirs, count_ranks, count, 0, r, (0, 0))
            by_rank[r] = by_rank.get(r, 0.0) + weight * v
    return {c: by_rank[c.rank] for c in table.hand if c.rank in by_rank}
