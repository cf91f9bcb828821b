"""The crib model of three and four players, who throw one card each from five.

The same method as ``crib_model`` (iterated best response over rank-only
hands, flushes aside) for the one-card throws:

* three players: the dealer and two pones each throw one card and one card
  from the deck joins the crib; the dealer throws for his own crib, each pone
  against it;
* four players in partnerships: all four throw one; the dealer and his partner
  throw for their side's crib, the two opponents against it.

For a card thrown by a seat of each role (``"dealer"``: the dealer, or in
partnerships either of the dealer's side; ``"pone"``: a seat against the
crib), its crib value is the expected show (suitless, plus nobs) over the
other seats' throws under the current policies (each other hand dealt from
the deck without our card, independently) and the deck card and starter
from the rest. Every rank-only five-card hand (6,175, weighted by its suit
assignments) then throws the card that maximises kept hand plus (dealer's
side) or minus (against) that value, and so on until the values stop moving.
The random figures put any unseen cards in the other places of the crib.

``generate(players)`` returns the table for ``crib_model.main`` to ship, keyed
by the thrown rank (``"5"``).

Worth, in duplicate deals against the same expert discarding by the random
crib (95% intervals): three players +0.02 +- 0.05 a deal in the show and
+0.02 +- 0.04 in the play (350 deals); four players +0.02 +- 0.04 and
-0.01 +- 0.05 (2,400 deals). Small, as the opponents there do not throw as
the model assumes.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement
from math import comb

from .rank_hands import RANKS, best_throws, rank_counts, rank_hands, show_average

__all__ = ["generate"]

#: The other throwers' roles for a card thrown in each role: three players also have a
#: deck card in the crib, four players a third thrower.
OTHERS: dict[int, dict[str, tuple[str, ...]]] = {
    3: {"dealer": ("pone", "pone"), "pone": ("dealer", "pone")},
    4: {"dealer": ("dealer", "pone", "pone"), "pone": ("dealer", "dealer", "pone")},
}
_SIGN = {"dealer": 1, "pone": -1}
_ONE_GONE = tuple(comb(3, c) / comb(4, c) for c in range(5))  # a rank with one card less


class _Hands:
    """Every rank-only five-card hand, its suit-assignment weight and its one-card throws."""

    def __init__(self) -> None:
        self.counts: list[tuple[int, ...]] = []
        self.weight: list[int] = []
        self.options: list[list[tuple[int, float]]] = []  # (rank thrown, kept hand value)
        for ranks, counts, w in rank_hands(5):
            opts = []
            for r in sorted(set(ranks)):
                keep = list(counts)
                keep[r] -= 1
                opts.append((r, show_average(keep, counts)))
            self.counts.append(counts)
            self.weight.append(w)
            self.options.append(opts)


def _crib4(ranks: Sequence[int]) -> float:
    """Expected crib of four known ranks over a starter from the rest (0 if impossible)."""
    counts = rank_counts(ranks)
    if max(counts) > 4:
        return 0.0
    return show_average(counts, counts)


def _crib_tables(players: int) -> dict[tuple[int, ...], float]:
    """The expected crib for each sorted multiset of thrown ranks: four throws, or for three
    players three throws and a deck card averaged over the rest of the deck."""
    table: dict[tuple[int, ...], float] = {}
    if players == 4:
        for four in combinations_with_replacement(RANKS, 4):
            table[four] = _crib4(four)
        return table
    for ms in combinations_with_replacement(RANKS, 3):
        counts = rank_counts(ms)
        if max(counts) > 4:
            table[ms] = 0.0
            continue
        total = ways = 0.0
        for x in RANKS:
            left = 4 - counts[x]
            if left > 0:
                total += left * _crib4(ms + (x,))
                ways += left
        table[ms] = total / ways
    return table


def _throw_distributions(hands: _Hands, policy: Sequence[int]) -> list[list[float]]:
    """For each rank we threw (index 1..13): how often another seat of this policy throws each
    rank, its hand dealt from the deck without our card."""
    # Every hand counts in full but for the ranks it holds (most of the 13).
    base = [0.0] * 14
    less = [[0.0] * 14 for _ in range(14)]  # less[t][choice]: what holding t takes off
    for opts, counts, w, choice in zip(hands.options, hands.counts, hands.weight, policy):
        base[choice] += w
        for t, _ in opts:  # the ranks the hand holds
            less[t][choice] += w * (1 - _ONE_GONE[counts[t]])
    dists = [[0.0] * 14]
    for t in RANKS:
        dist = [b - x for b, x in zip(base, less[t])]
        total = sum(dist)
        dists.append([d / total for d in dist])
    return dists


def _nested(table: dict[tuple[int, ...], float], depth: int, ranks: tuple[int, ...] = ()) -> list:
    """The table as nested lists by rank (index 0 unused): ``nest[t][a][b]...``."""
    if depth == 1:
        return [0.0] + [table[tuple(sorted(ranks + (r,)))] for r in RANKS]
    return [[]] + [_nested(table, depth - 1, ranks + (r,)) for r in RANKS]


def _expect(node: list, dists: Sequence[Sequence[float]]) -> float:
    """The nested table's expectation, each level's rank drawn from its distribution."""
    if len(dists) == 1:
        return sum(p * v for p, v in zip(dists[0], node))
    first, rest = dists[0], dists[1:]
    return sum(first[r] * _expect(node[r], rest) for r in RANKS if first[r])


def _crib_values(players: int, role: str, dists: dict[str, list[list[float]]], nest: list) -> list[float]:
    """Index 1..13: the crib value of our throw of that rank in ``role``."""
    others = OTHERS[players][role]
    return [0.0] + [_expect(nest[t], [dists[other][t] for other in others]) for t in RANKS]


def _random_values(table4: dict[tuple[int, ...], float]) -> list[float]:
    """Index 1..13: the crib of our throw with the three other cards any from the deck."""
    values = [0.0]
    for t in RANKS:
        left = [4 - (r == t) for r in range(14)]
        total = ways = 0.0
        for ms in combinations_with_replacement(RANKS, 3):
            w = 1
            for r in set(ms):
                w *= comb(left[r], ms.count(r))
            if w:
                total += w * table4[tuple(sorted(ms + (t,)))]
                ways += w
        values.append(total / ways)
    return values


def _keep_rates(hands: _Hands, policy: Sequence[int]) -> list[float]:
    """For each rank (index 0 = ace): how often a dealt card of that rank is kept."""
    dealt = [0.0] * 14
    thrown = [0.0] * 14
    for counts, w, choice in zip(hands.counts, hands.weight, policy):
        for r in RANKS:
            dealt[r] += w * counts[r]
        thrown[choice] += w
    return [round(1 - thrown[r] / dealt[r], 4) for r in RANKS]


def generate(players: int, rounds: int = 100, tolerance: float = 2e-3, log=None) -> dict:
    """Iterated best response for ``players`` 3 or 4 (see the module docstring).

    Returns ``{"dealer": {rank: the crib when the dealer's side throws it}, "pone": {rank:
    the crib when a seat against it throws it}, "random_dealer", "random_pone", "rounds",
    "keep_dealer", "keep_pone"}`` as ``crib_model.generate`` does, keyed ``"1"``..``"13"``.
    """
    hands = _Hands()
    table = _crib_tables(players)
    random_values = _random_values(table if players == 4 else _crib_tables(4))
    nest = _nested(table, players)  # our card and the others' (three players: the deck card aside)
    values = {"dealer": list(random_values), "pone": list(random_values)}
    n = 0
    for n in range(1, rounds + 1):
        policies = {role: best_throws(hands.options, values[role], _SIGN[role]) for role in values}
        dists = {role: _throw_distributions(hands, policy) for role, policy in policies.items()}
        new = {role: _crib_values(players, role, dists, nest) for role in values}
        change = max(abs(x - y) for role in values for x, y in zip(values[role][1:], new[role][1:]))
        # Fictitious play, as in crib_model: best responses alone may cycle.
        step = 1.0 if n <= 3 else 2 / n
        values = {role: [x + step * (y - x) for x, y in zip(values[role], new[role])] for role in values}
        if log:
            log(f"{players} players, round {n}: largest change {change:.5f}")
        if change < tolerance:
            break
    keyed = lambda vs: {str(r): round(vs[r], 4) for r in RANKS}  # noqa: E731
    return {
        "dealer": keyed(values["dealer"]),
        "pone": keyed(values["pone"]),
        "random_dealer": keyed(random_values),
        "random_pone": keyed(random_values),
        "rounds": n,
        "keep_dealer": _keep_rates(hands, best_throws(hands.options, values["dealer"], 1)),
        "keep_pone": _keep_rates(hands, best_throws(hands.options, values["pone"], -1)),
    }
