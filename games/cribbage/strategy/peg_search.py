"""The expert's pegging search: sample the hidden hand, then play the rest of the play exactly.

Two players (three and four: ``peg_search_multi``).
At its turn the player knows its own cards, the cards played and how many
cards the opponent still holds; every go the opponent said puts a floor under
the values of the cards they hold. ``search_plays(table)`` draws opponent
hands consistent with that (exactly every rank combination when there are
few, else ``SAMPLES`` seeded systematic draws), each weighted by how much
more often an expert in their role keeps the whole pattern, the cards they
hold with those they have played, than a random four
(``crib_model.kept_patterns``: a pone keeps 5-5 and 7-8 together, never
throws both; per-card keep rates where the dealer is not known). In 1000
duplicate deals the pattern weights pegged +0.10 +- 0.06 a deal more than
per-card keep rates. Each hand is also weighed by the points the opponent's
plays passed up (``passed_up``, ``as_played``): one that held a card that
would have pegged more where they laid a card that pegged less is
``PASSED_UP`` times as likely (in 4000 duplicate deals +0.019 +- 0.012 a deal
against no such weight). For each hand it searches the rest of the play to the end
with both hands open (at most eight cards: a minimax over
ranks, since suits never count in the play, memoised between decisions on the
positions numbered by ``play_positions``). A card's worth is the
average over the hands of its points now plus the best line after it, as
points pegged by us minus points pegged by them. ``search_win`` does the same
for the win chance near the end of a game (see ``endgame``).

The draws are seeded from what the seat sees (``knowledge.view_seed``), so the same view
always gives the same move, and no hidden card can change it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from functools import lru_cache
from itertools import combinations_with_replacement
from math import comb

from .crib_model import keep_rates, load_patterns
from .knowledge import Table, peg_points, view_seed
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

__all__ = [
    "SAMPLES",
    "PASSED_UP",
    "search_plays",
    "search_win",
    "opponent_hands",
    "passed_up",
    "as_played",
    "play_out",
    "forget_positions",
]

SAMPLES = 40  # opponent hands per decision when they cannot all be listed...
FEWER_SAMPLES = {8: 12, 7: 24}  # ...fewer when more cards remain (longer searches)


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
    samples = FEWER_SAMPLES.get(held + len(table.hand), SAMPLES)
    played = table.played[opp] if table.played else ()
    if table.dealer is not None and table.players == 2 and len(played) + table.held[opp] == (3 if table.one_go else 4):
        return _by_patterns(table, opp, pool, ranks, held, samples, rng)
    keep = _keep_rates(table, opp)
    better = passed_up(table, opp)
    # Rank multisets of `held` cards and how many card sets give each.
    multisets: list[tuple[tuple[int, ...], float]] = []
    if comb(len(ranks) + held - 1, held) <= samples * 4:
        for ms in combinations_with_replacement(ranks, held):
            ways = 1.0
            for r in set(ms):
                ways *= comb(pool[r], ms.count(r)) * keep[r] ** ms.count(r)
            if ways:
                multisets.append((ms, ways * as_played(better, ms)))
    if multisets and len(multisets) <= samples:  # every one, exactly weighted, if few enough
        total = sum(w for _, w in multisets)
        return [(ms, w / total) for ms, w in multisets]
    cards = [r for r in ranks for _ in range(pool[r])]
    draws = []
    for _ in range(samples):  # weighted draws without replacement (Efraimidis-Spirakis keys)
        keyed = sorted(cards, key=lambda r: rng.random() ** (1 / keep[r]), reverse=True)
        draws.append(tuple(sorted(keyed[:held])))
    weights = [as_played(better, d) for d in draws]
    total = sum(weights)
    return [(d, w / total) for d, w in zip(draws, weights)]


#: How much less likely a hand is for each card they laid that pegged less than a card of that
#: hand would have: an expert takes the most points in sight (the frozen expert passed them up
#: in 7 of 551 plays where its cards differed in points), but an opponent may not.
PASSED_UP = 0.1


def passed_up(table: Table, opp: int) -> list[frozenset[int]]:
    """For each card the opponent laid on a count this deal: the ranks that would have pegged
    more there. Those they laid later were in their hand then: where one of them would have,
    the choice says nothing of the rest."""
    laid = [(count, rank) for seat, count, rank in table.laid if seat == opp]
    out = []
    for k, (count, rank) in enumerate(laid):
        if not count:
            continue
        room = 31 - sum(VALUE[r] for r in count)
        pegged = peg_points(count + (rank,))
        better = frozenset(x for x in range(1, 14) if VALUE[x] <= room and peg_points(count + (x,)) > pegged)
        if better and not better.intersection(r for _, r in laid[k + 1 :]):
            out.append(better)
    return out


def as_played(better: list[frozenset[int]], hand: tuple[int, ...]) -> float:
    """How likely the opponent's plays so far are with ``hand`` left, against a hand that would
    have pegged no more than they did at each."""
    w = 1.0
    for ranks in better:
        if not ranks.isdisjoint(hand):
            w *= PASSED_UP
    return w


#: Every kept pattern is given at least this share of its random weight: the opponent
#: may not be the model's expert (suits, the exact crib, another player).
PATTERN_FLOOR = 0.1


def _by_patterns(
    table: Table, opp: int, pool: list[int], ranks: list[int], held: int, samples: int, rng: random.Random
) -> list[tuple[tuple[int, ...], float]]:
    """Every rank multiset they may hold, weighted by how many card sets give it times how much
    more (or less) often an expert keeps the whole pattern (these cards and those played) than
    a random four; systematic draws when there are more than ``samples``."""
    lik = _pattern_ratios("five_card" if table.one_go else "two", "dealer" if table.dealer == opp else "pone")
    played = table.played[opp] if table.played else ()
    better = passed_up(table, opp)
    out: list[tuple[tuple[int, ...], float]] = []
    for ms in combinations_with_replacement(ranks, held):
        ways = 1.0
        for r in set(ms):
            ways *= comb(pool[r], ms.count(r))
        if not ways:
            continue
        kept = PATTERN_FLOOR + (1 - PATTERN_FLOOR) * lik.get(tuple(sorted(ms + played)), 0.0)
        out.append((ms, ways * kept * as_played(better, ms)))
    total = sum(w for _, w in out)
    if len(out) <= samples:
        return [(ms, w / total) for ms, w in out]
    step = total / samples
    at = rng.random() * step
    acc = 0.0
    picked: dict[tuple[int, ...], int] = {}
    for ms, w in out:
        acc += w
        while at < acc:
            picked[ms] = picked.get(ms, 0) + 1
            at += step
    n = sum(picked.values())
    return [(ms, k / n) for ms, k in picked.items()]


@lru_cache(maxsize=4)
def _pattern_ratios(variant: str, role: str) -> dict[tuple[int, ...], float]:
    """``crib_model.kept_patterns`` by sorted rank tuple (no key text to build per hand)."""
    return {tuple(int(r) for r in k.split("-")): v for k, v in load_patterns()[variant][role].items()}


MEMO_LIMIT = 400_000  # positions kept between decisions (ints: some 40 MB at most)
_MEMOS: dict[bool, dict[int, int]] = {False: {}, True: {}}


def forget_positions(one_go: bool, over: int) -> None:
    """Forget the play-out positions kept between searches once there are more than ``over``
    (a long run of play-outs, as the pegging table's generator makes, bounds its memory)."""
    if len(_MEMOS[one_go]) > over:
        _MEMOS[one_go].clear()


def _keep_rates(table: Table, opp: int) -> list[float]:
    """How likely each rank is to be among the cards they kept (an expert keeps fives, the pone
    throws kings): the crib model's keep rates for their role."""
    return keep_rates("five_card" if table.one_go else "two", None if table.dealer is None else table.dealer == opp)


class _Search:
    """Exact play-out of the rest of the play with both hands known, as our points minus theirs
    (we play for the most, they for the least): positions numbered by ``play_positions``."""

    def __init__(self, one_go: bool):
        self.one_go = one_go
        # Shared between decisions: the later plays of a deal meet the same positions again.
        self.memo = _MEMOS[one_go]
        if len(self.memo) > MEMO_LIMIT:
            self.memo.clear()

    def rest(self, mine: int, theirs: int, cid: int, turn: int, last: int) -> int:
        """Net points of the best line from here (hand and count numbers); ``turn`` 0 is us to
        play, ``last`` who laid the count's last card."""
        key = (((cid << HAND_BITS | mine) << HAND_BITS | theirs) << 1 | turn) << 1 | last
        memo = self.memo
        best = memo.get(key)
        if best is not None:
            return best
        room = 31 - COUNT_TOTAL[cid]
        for r in HAND_RANKS[theirs if turn else mine]:
            if VALUE[r] > room:
                break  # ranks ascending: no higher one fits either
            v = self.after(mine, theirs, cid, turn, r)
            if best is None or (v < best if turn else v > best):
                best = v
        if best is None:
            if HAND_LOW[mine if turn else theirs] <= room:  # the other plays on
                best = self.rest(mine, theirs, cid, 1 - turn, last)
            else:
                best = self.count_over(mine, theirs, last, 1)
        memo[key] = best
        return best

    def after(self, mine: int, theirs: int, cid: int, turn: int, r: int) -> int:
        """Net points when ``turn`` lays rank r now and both play on best."""
        pts, cid = step(cid, r)
        if turn:
            theirs = HAND_LESS[theirs][r]
            pts = -pts
        else:
            mine = HAND_LESS[mine][r]
        if COUNT_TOTAL[cid] == 31:
            return pts + self.count_over(mine, theirs, turn, 0)
        return pts + self.rest(mine, theirs, cid, 1 - turn, turn)

    def count_over(self, mine: int, theirs: int, last: int, go: int) -> int:
        """The count ends: ``last`` pegs the go (1, none at 31); the other side leads the next."""
        got = -go if last else go
        if self.one_go or mine == theirs == EMPTY:
            return got
        leader = 1 - last
        if (theirs if leader else mine) == EMPTY:
            leader = last
        return got + self.rest(mine, theirs, START, leader, leader)


def play_out(mine: tuple[int, ...], theirs: tuple[int, ...], count_ranks: tuple[int, ...], r: int, one_go: bool) -> int:
    """Our points minus theirs over the rest of the play, both hands open (sorted ranks), when we
    lay rank r on the count ``count_ranks`` and both play on best."""
    cid = count_id(sum(VALUE[x] for x in count_ranks), count_ranks)
    return _Search(one_go).after(hand_id(mine), hand_id(theirs), cid, 0, r)


def search_plays(table: Table) -> dict:
    """Each playable card's expected points net of the opponent's over the rest of the play,
    over the opponent hands we may face."""
    search = _Search(table.one_go)
    return _over_hands(table, lambda mine, theirs, cid, r: search.after(mine, theirs, cid, 0, r))


def _over_hands(table: Table, value: Callable[[int, int, int, int], float]) -> dict:
    """Each playable card's ``value(mine, theirs, count, rank)`` (hand and count numbers of
    ``play_positions``: we lay that rank now) weighted over the opponent hands we may face."""
    rng = random.Random(view_seed(table))
    count_ranks = tuple(c.rank for c in table.count_cards)
    count = sum(c.value for c in table.count_cards)
    cid = count_id(count, count_ranks)
    mine = hand_id(tuple(sorted(c.rank for c in table.hand)))
    by_rank: dict[int, float] = {}
    playable = sorted({c.rank for c in table.hand if count + c.value <= 31})
    for theirs, weight in opponent_hands(table, 1 - table.seat, rng):
        t = hand_id(theirs)
        for r in playable:
            by_rank[r] = by_rank.get(r, 0.0) + weight * value(mine, t, cid, r)
    return {c: by_rank[c.rank] for c in table.hand if c.rank in by_rank}


class _EndSearch:
    """The same play-out for the win chance, scores in the position: the game ends the moment a
    side reaches the target in the play, else ``worth(ours, theirs)`` once the play is over;
    we maximise it, they minimise it. Kept between decisions by what ``worth`` depends on
    (``_end_search``): at every play of a deal it is the same function of the scores."""

    def __init__(self, one_go: bool, target: int, worth: Callable[[int, int], float]):
        self.one_go = one_go
        self.target = target
        self.worth = worth
        self.memo: dict[int, float] = {}

    def rest(self, mine: int, theirs: int, cid: int, turn: int, last: int, ours: int, their: int) -> float:
        key = (((((cid << HAND_BITS | mine) << HAND_BITS | theirs) << 8 | ours) << 8 | their) << 1 | turn) << 1 | last
        memo = self.memo
        best = memo.get(key)
        if best is not None:
            return best
        room = 31 - COUNT_TOTAL[cid]
        for r in HAND_RANKS[theirs if turn else mine]:
            if VALUE[r] > room:
                break
            v = self.after(mine, theirs, cid, turn, r, ours, their)
            if best is None or (v < best if turn else v > best):
                best = v
        if best is None:
            if HAND_LOW[mine if turn else theirs] <= room:
                best = self.rest(mine, theirs, cid, 1 - turn, last, ours, their)
            else:
                best = self.count_over(mine, theirs, last, 1, ours, their)
        memo[key] = best
        return best

    def after(self, mine: int, theirs: int, cid: int, turn: int, r: int, ours: int, their: int) -> float:
        pts, cid = step(cid, r)
        if turn:
            theirs = HAND_LESS[theirs][r]
            their += pts
            if their >= self.target:
                return 0.0
        else:
            mine = HAND_LESS[mine][r]
            ours += pts
            if ours >= self.target:
                return 1.0
        if COUNT_TOTAL[cid] == 31:
            return self.count_over(mine, theirs, turn, 0, ours, their)
        return self.rest(mine, theirs, cid, 1 - turn, turn, ours, their)

    def count_over(self, mine: int, theirs: int, last: int, go: int, ours: int, their: int) -> float:
        if go:
            if last:
                their += go
                if their >= self.target:
                    return 0.0
            else:
                ours += go
                if ours >= self.target:
                    return 1.0
        if self.one_go or mine == theirs == EMPTY:
            return self.worth(ours, their)
        leader = 1 - last
        if (theirs if leader else mine) == EMPTY:
            leader = last
        return self.rest(mine, theirs, START, leader, leader, ours, their)


_END_SEARCHES: dict[tuple, _EndSearch] = {}
END_SEARCHES_KEPT = 4  # the searches of the deals in progress (a few games at once)...
END_MEMO_LIMIT = 100_000  # ...each at most this many positions (a deal searches some 15,000)


def _end_search(one_go: bool, target: int, worth: Callable[[int, int], float], worth_key: Hashable) -> _EndSearch:
    key = (one_go, target, worth_key)
    search = _END_SEARCHES.get(key)
    if search is None or len(search.memo) > END_MEMO_LIMIT:
        if len(_END_SEARCHES) >= END_SEARCHES_KEPT:
            _END_SEARCHES.clear()
        search = _END_SEARCHES[key] = _EndSearch(one_go, target, worth)
    return search


def search_win(
    table: Table, scores: tuple[int, int], target: int, worth: Callable[[int, int], float], worth_key: Hashable = None
) -> dict:
    """Each playable card's expected win chance near the end of a game: ``scores`` ours and
    theirs now, ``worth(ours, theirs)`` the chance once the play is over at those scores
    (``win_chance.after_play``). ``worth_key`` names ``worth``: calls with the same key (and
    target) must pass the same function, and share the positions searched."""
    if worth_key is None:
        search = _EndSearch(table.one_go, target, worth)
    else:
        search = _end_search(table.one_go, target, worth, worth_key)
    ours, theirs_now = scores
    return _over_hands(table, lambda mine, theirs, cid, r: search.after(mine, theirs, cid, 0, r, ours, theirs_now))
