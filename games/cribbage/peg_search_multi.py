"""The expert's pegging search for three and four players (``peg_search`` is the two-player one).

At its turn a seat knows its own cards, the cards played, how many cards each
other seat still holds and the goes they said (each go puts a floor under the
values of the cards that seat holds). Partners do not see each other's cards:
in the four-hand game the partner's hand is drawn like an opponent's.
``search_plays(table)`` draws the other hands together (``SAMPLES`` seeded
draws, the most constrained seat first, each card weighted by how often an
expert keeps its rank in that seat's role: ``crib_model`` keep rates of the
variant), and for each draw searches the rest of the play to the end with
every hand open (ranks only, memoised), as the engine plays it (``pegging``:
the next seat that can play, the go to the last card's player, the new
count led by the seat after it). Each seat plays to maximise its side's
points net of the others' (partnerships: our side's minus theirs; three
players: ours minus the average of the two others'). A card's worth is the
average over the draws of that net for our side.

``in_reach(table)``: the search is used while at most ``MAX_CARDS`` cards
remain in all hands (later than that the play is too long to search in time;
``players.evaluate_plays`` decides). The draws are seeded from what the seat
sees (``peg_search._seed``), so the same view always gives the same move, and
no hidden card can change it.
"""

from __future__ import annotations

import random

from .crib_model import load as load_crib_model
from .knowledge import Table, peg_points
from .peg_search import _seed

__all__ = ["MAX_CARDS", "SAMPLES", "in_reach", "other_hands", "search_plays", "Search"]

MAX_CARDS = 8  # cards left in all hands, ours included, for the search to be used
SAMPLES = 24  # draws of the other hands per decision...
FEWER_SAMPLES = {8: 12}  # ...fewer when more cards remain (longer searches)
MEMO_LIMIT = 400_000  # positions kept between decisions
_MEMOS: dict[tuple, dict] = {}
_VALUE = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)


def in_reach(table: Table) -> bool:
    return table.players in (3, 4) and sum(table.held) <= MAX_CARDS


def _keep_rates(table: Table, seat: int) -> list[float]:
    """How likely a rank is among the cards ``seat`` kept, by its role (index 0 unused)."""
    data = load_crib_model()["three" if table.players == 3 else "four"]
    if table.dealer is None:
        rates = [(a + b) / 2 for a, b in zip(data["keep_dealer"], data["keep_pone"])]
    else:
        dealer_side = seat % 2 == table.dealer % 2 if table.partnerships else seat == table.dealer
        rates = data["keep_dealer" if dealer_side else "keep_pone"]
    return [1.0] + list(rates)


def other_hands(table: Table, rng: random.Random, samples: int) -> list[tuple[tuple[tuple[int, ...], ...], float]]:
    """Draws of every seat's hand (ours as it is; rank tuples, sorted), with their weights.

    Each other seat holds ``held`` unseen cards worth more than its floor; the seats with
    the highest floor draw first, so that a seat that said go is not left without cards
    it could hold. Equal draws are merged."""
    mine = tuple(sorted(c.rank for c in table.hand))
    order = sorted(
        (s for s in range(table.players) if s != table.seat and table.held[s]),
        key=lambda s: (-table.floor[s], s),
    )
    rates = {s: _keep_rates(table, s) for s in order}
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
        draws[key] = draws.get(key, 0.0) + 1.0 / samples
    return list(draws.items())


class Search:
    """Exact play-out of the rest of the play with every hand known (ranks, sorted tuples).

    Lines are points per side (partnerships: two sides, else one per seat); the seat to play
    picks the line best for its side net of the others."""

    def __init__(self, players: int, partnerships: bool, one_go: bool = False):
        self.players = players
        self.partnerships = partnerships
        self.sides = 2 if partnerships else players
        self.one_go = one_go
        self.memo = _MEMOS.setdefault((players, partnerships, one_go), {})
        if len(self.memo) > MEMO_LIMIT:
            self.memo.clear()

    def side(self, seat: int) -> int:
        return seat % 2 if self.partnerships else seat

    def net(self, line: tuple[int, ...], seat: int) -> float:
        """A line's worth to ``seat``: its side's points less the others' average."""
        own = line[self.side(seat)]
        return own - (sum(line) - own) / (self.sides - 1)

    def rest(self, hands: tuple, seq: tuple, count: int, turn: int) -> tuple[int, ...]:
        """Points per side of the best line from here, ``turn`` to play (it can)."""
        key = (hands, seq, turn)
        memo = self.memo
        hit = memo.get(key)
        if hit is not None:
            return hit
        room = 31 - count
        best = out = None
        prev = 0
        for r in hands[turn]:
            if r == prev or _VALUE[r] > room:
                continue
            prev = r
            line = self.after(hands, seq, count, turn, r)
            score = self.net(line, turn)
            if best is None or score > best:
                best, out = score, line
        assert out is not None, "rest() is called for a seat that can play"
        memo[key] = out
        return out

    def after(self, hands: tuple, seq: tuple, count: int, seat: int, r: int) -> tuple[int, ...]:
        """Points per side when ``seat`` plays rank ``r`` now and everyone plays on best."""
        hand = hands[seat]
        i = hand.index(r)
        hands = hands[:seat] + (hand[:i] + hand[i + 1 :],) + hands[seat + 1 :]
        s = seq + (r,)
        pts = peg_points(s)
        c = count + _VALUE[r]
        n = self.players
        line: tuple[int, ...]
        if c < 31:
            room = 31 - c
            for k in range(1, n + 1):  # the next seat that can play, the player itself last
                nxt = (seat + k) % n
                h = hands[nxt]
                if h and _VALUE[h[0]] <= room:  # sorted: the lowest card decides
                    line = self.rest(hands, s, c, nxt)
                    break
            else:
                pts += 1  # the go, or the last card
                line = self._count_over(hands, seat)
        else:
            line = self._count_over(hands, seat)
        side = self.side(seat)
        return line[:side] + (line[side] + pts,) + line[side + 1 :]

    def _count_over(self, hands: tuple, last: int) -> tuple[int, ...]:
        """The count is over; the first seat after ``last`` still holding cards leads the next."""
        zero = (0,) * self.sides
        if self.one_go:
            return zero
        n = self.players
        for k in range(1, n + 1):
            leader = (last + k) % n
            if hands[leader]:
                return self.rest(hands, (), 0, leader)
        return zero


def search_plays(table: Table) -> dict:
    """Each playable card's expected points for our side net of the others' over the rest of
    the play, over the draws of the other hands."""
    rng = random.Random(_seed(table))
    count_ranks = tuple(c.rank for c in table.count_cards)
    count = sum(c.value for c in table.count_cards)
    search = Search(table.players, table.partnerships, table.one_go)
    playable = {c.rank for c in table.hand if count + c.value <= 31}
    samples = FEWER_SAMPLES.get(sum(table.held), SAMPLES)
    by_rank: dict[int, float] = {}
    for hands, weight in other_hands(table, rng, samples):
        for r in playable:
            line = search.after(hands, count_ranks, count, table.seat, r)
            by_rank[r] = by_rank.get(r, 0.0) + weight * search.net(line, table.seat)
    return {c: by_rank[c.rank] for c in table.hand if c.rank in by_rank}
