"""The crib model: what a crib is worth when the other thrower throws as the expert does.

``strategy.analysis.discard_options`` values a crib as if the other two cards were any
two unseen cards. Good players do not throw at random: the pone keeps fives
and connected cards away from the dealer's crib, the dealer throws them into
his own. The table (``strategy.crib_model``) holds, for every rank pair thrown (91 of them) and for
either owner, the crib's expected show score when the *other* side throws as
an expert would, and the same figure under a random other throw, so that the
difference can be added to the exact (suits included) random-crib figure of
the analysis (``model_correction``).

How the table is found (``generate``), after Craig Hessel's method: over every
rank-only hand (18,395 six-card hands, 6,175 five-card; each weighted by its
number of suit assignments) each side throws the pair that maximises kept
hand plus (dealer) or minus (pone) the crib value of the current table; the
crib value of a pair is then the average, over the other side's throws under
that policy (their hands drawn from the deck without our pair) and every
starter, of the suitless crib score plus nobs; repeat until the tables stop
moving (iterated best response). Flushes are left out of the table, as in
Hessel's; the analysis adds them exactly.

Three and four players throw one card each: ``one_card_crib`` finds their
tables the same way, keyed by the thrown rank, shipped in the same file.

Regenerate the shipped data (about a minute):
``nice -n 10 python -m games.cribbage.tables.crib_model`` writes ``data/crib_model.json``.

What an expert keeps (``kept_patterns``), for the pegging search's opponent: under the
same policy, with the shipped tables, how much more (or less) often each kept rank
pattern is kept than a random four (three in five-card) of the deck, by role. Kept
cards come in patterns (a pone keeps 5-5 or 7-8 together, never throws both), which
per-card keep rates miss. ``python -m games.cribbage.tables.crib_model patterns`` writes
``data/kept_patterns.json`` from the shipped tables (about half a minute).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from math import comb

from ..strategy.crib_model import DATA_PATH, PAIRS, PATTERNS_PATH, load, pair_key
from .one_card_crib import generate as generate_one_card
from .rank_hands import RANKS, best_throws, rank_counts, rank_hands, show_average, suit_ways
from .shipped import write_table

__all__ = ["generate", "kept_patterns", "main"]

_PAIR_INDEX = {p: i for i, p in enumerate(PAIRS)}


class _Hands:
    """Every rank-only hand of a size, its suit-assignment weight and its throws."""

    def __init__(self, size: int):
        self.size = size
        self.counts: list[tuple[int, ...]] = []
        self.weight: list[int] = []
        self.options: list[list[tuple[int, float]]] = []  # (pair index, kept hand value)
        for ranks, counts, w in rank_hands(size):
            opts = []
            for p in {(ranks[i], ranks[j]) for i in range(size) for j in range(i + 1, size)}:
                keep = list(counts)
                keep[p[0]] -= 1
                keep[p[1]] -= 1
                opts.append((_PAIR_INDEX[p], show_average(keep, counts)))
            opts.sort()
            self.counts.append(counts)
            self.weight.append(w)
            self.options.append(opts)


def _crib_matrix() -> list[list[float]]:
    """Expected crib (suitless + nobs) for each pair of thrown pairs, starter from the other 48."""
    m = [[0.0] * len(PAIRS) for _ in PAIRS]
    for i, p in enumerate(PAIRS):
        for j, q in enumerate(PAIRS):
            counts = rank_counts(p + q)
            if max(counts) > 4:
                continue
            m[i][j] = show_average(counts, counts)
    return m


_ONE_GONE = tuple(comb(3, c) / comb(4, c) for c in range(5))  # a rank with one card less
_TWO_GONE = tuple(comb(2, c) / comb(4, c) for c in range(5))


def _throw_distributions(hands: _Hands, policy: Sequence[int]) -> list[list[float]]:
    """For each pair p we threw: how often the other side throws each pair, their hand dealt
    from the deck without p (weights prod C(4 - p_r, h_r))."""
    n = len(PAIRS)
    dists = []
    for p in PAIRS:
        dist = [0.0] * n
        a, b = p
        for counts, w, choice in zip(hands.counts, hands.weight, policy):
            if a == b:
                f = _TWO_GONE[counts[a]]
            else:
                f = _ONE_GONE[counts[a]] * _ONE_GONE[counts[b]]
            if f:
                dist[choice] += w * f
        total = sum(dist)
        dists.append([d / total for d in dist])
    return dists


def _crib_values(dists: Sequence[Sequence[float]], matrix) -> list[float]:
    return [sum(d * matrix[i][j] for j, d in enumerate(dist) if d) for i, dist in enumerate(dists)]


def generate(hand_size: int = 6, rounds: int = 40, tolerance: float = 2e-3, log=None) -> dict:
    """Iterated best response over rank-only hands (see the module docstring).

    Returns ``{"dealer": {key: own crib when the dealer throws the pair},
    "pone": {key: the dealer's crib when the pone throws it}, "random_dealer",
    "random_pone": the same under a random other throw, "rounds": n,
    "keep_dealer", "keep_pone": [how often a dealt card of each rank A..K is kept]}``.
    """
    hands = _Hands(hand_size)
    matrix = _crib_matrix()
    # A random other throw: any two cards of the deck without our pair.
    random_values = []
    for i, p in enumerate(PAIRS):
        total = ways = 0.0
        for j, q in enumerate(PAIRS):
            counts = rank_counts(p)
            left = [4 - c for c in counts]
            w = comb(left[q[0]], 2) if q[0] == q[1] else left[q[0]] * left[q[1]]
            if w:
                total += w * matrix[i][j]
                ways += w
        random_values.append(total / ways)
    own = list(random_values)  # crib value for the dealer's throw
    theirs = list(random_values)  # crib value (the dealer's) for the pone's throw
    n = 0
    for n in range(1, rounds + 1):
        dealer_policy = best_throws(hands.options, own, +1)
        pone_policy = best_throws(hands.options, theirs, -1)
        new_own = _crib_values(_throw_distributions(hands, pone_policy), matrix)
        new_theirs = _crib_values(_throw_distributions(hands, dealer_policy), matrix)
        change = max(max(abs(x - y) for x, y in zip(own, new_own)), max(abs(x - y) for x, y in zip(theirs, new_theirs)))
        # Best responses alone cycle among near-equal throws: average them in (fictitious play).
        step = 1.0 if n <= 3 else 2 / n
        own = [x + step * (y - x) for x, y in zip(own, new_own)]
        theirs = [x + step * (y - x) for x, y in zip(theirs, new_theirs)]
        if log:
            log(f"hand size {hand_size}, round {n}: largest change {change:.5f}")
        if change < tolerance:
            break
    keyed = lambda values: {pair_key(p): round(v, 4) for p, v in zip(PAIRS, values)}  # noqa: E731
    return {
        "dealer": keyed(own),
        "pone": keyed(theirs),
        "random_dealer": keyed(random_values),
        "random_pone": keyed(random_values),
        "rounds": n,
        "keep_dealer": _keep_rates(hands, best_throws(hands.options, own, +1)),
        "keep_pone": _keep_rates(hands, best_throws(hands.options, theirs, -1)),
    }


def _keep_rates(hands: _Hands, policy: Sequence[int]) -> list[float]:
    """For each rank (index 0 = ace): how often a dealt card of that rank is kept, not thrown.
    The pegging search weights the opponent's possible cards by it."""
    dealt = [0.0] * 14
    thrown = [0.0] * 14
    for counts, w, choice in zip(hands.counts, hands.weight, policy):
        for r in RANKS:
            dealt[r] += w * counts[r]
        for r in PAIRS[choice]:
            thrown[r] += w
    return [round(1 - thrown[r] / dealt[r], 4) for r in RANKS]


def kept_patterns(hand_size: int, tables: dict) -> dict:
    """``{"dealer": {"1-5-5-10": ratio}, "pone": {...}}``: how often each kept rank pattern is
    kept under the policy of ``tables`` (one variant's shipped tables), over how often a
    random set of as many cards has it. Patterns never kept are left out (ratio 0)."""
    hands = _Hands(hand_size)
    kept = hand_size - 2
    out = {}
    for role, sign in (("dealer", +1), ("pone", -1)):
        crib = [tables[role][pair_key(p)] for p in PAIRS]
        often: dict[tuple[int, ...], float] = {}
        for counts, w, choice in zip(hands.counts, hands.weight, best_throws(hands.options, crib, sign)):
            keep = list(counts)
            for r in PAIRS[choice]:
                keep[r] -= 1
            often[tuple(keep)] = often.get(tuple(keep), 0.0) + w
        total = sum(often.values())
        ratios = {}
        for pattern, times in often.items():
            key = "-".join(str(r) for r in RANKS for _ in range(pattern[r]))
            ratios[key] = round((times / total) / (suit_ways(pattern) / comb(52, kept)), 4)
        out[role] = ratios
    return out


def main(argv: Sequence[str] = ()) -> None:
    if list(argv) == ["patterns"]:
        shipped = load()
        patterns = {variant: kept_patterns(size, shipped[variant]) for variant, size in (("two", 6), ("five_card", 5))}
        write_table(PATTERNS_PATH, patterns, indent=0, sort_keys=True)
        return
    data = {}
    for variant, size in (("two", 6), ("five_card", 5)):
        data[variant] = generate(size, log=lambda s: print(s, flush=True))
    for variant, players in (("three", 3), ("four", 4)):
        data[variant] = generate_one_card(players, log=lambda s: print(s, flush=True))
    write_table(DATA_PATH, data, indent=0, sort_keys=True)


if __name__ == "__main__":
    main(sys.argv[1:])
