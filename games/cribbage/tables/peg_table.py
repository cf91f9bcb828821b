"""Generate the table of what the kept cards are worth in the play (``strategy.peg_table``).

``pegging_value(keep_ranks, is_dealer)``: the expected points the seat pegs in the play
minus what the opponent pegs, for its kept ranks, two players.

How the table is found (``generate``): for every kept rank pattern (1,820 of
four ranks; 455 of three for five-card) in either role, opponent hands drawn
from the rest of the deck (each card weighted by how often an expert keeps its
rank in the other role: ``crib_model`` keep rates), the whole play searched
exactly with both hands open (``peg_search``). The raw averages are noisy, so
they are smoothed: a least-squares fit of the value on the pairs of kept ranks
(91 of them), and each pattern's own average shrunk toward that fit by its
number of samples. The values are centred (mean 0 over dealt hands): only the
differences between throws matter.

Regenerate the shipped data (several minutes on one core):
``nice -n 10 python -m games.cribbage.tables.peg_table`` writes ``data/peg_table.json``.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from itertools import combinations

from ..strategy.crib_model import PAIRS, keep_rates
from ..strategy.peg_search import forget_positions, play_out
from ..strategy.peg_table import DATA_PATH, pattern_key
from .rank_hands import RANKS, rank_hands
from .shipped import write_table

__all__ = ["generate", "main"]

_PAIR_INDEX = {p: i for i, p in enumerate(PAIRS)}
SAMPLES = 30  # opponent hands per pattern and role
SHRINK = 60  # samples at which a pattern's own average counts as much as the fit
RIDGE = 1.0


def _patterns(size: int) -> list[tuple[int, ...]]:
    return [ranks for ranks, _, _ in rank_hands(size)]


def _net(pone: tuple, dealer: tuple, one_go: bool) -> float:
    """Net points of the pone (pone's pegging minus the dealer's) with both playing best, open."""
    best = None
    for r in set(pone):
        net = play_out(pone, dealer, (), r, one_go)
        if best is None or net > best:
            best = net
    return float(best or 0.0)


def _draw(rng: random.Random, ours: Sequence[int], size: int, keep: Sequence[float]) -> tuple[int, ...]:
    """The opponent's kept ranks: from the deck without ours, weighted by the keep rates."""
    left = [r for r in RANKS for _ in range(4 - list(ours).count(r))]
    keyed = sorted(left, key=lambda r: rng.random() ** (1 / keep[r]), reverse=True)
    return tuple(sorted(keyed[:size]))


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination (the normal equations are small and well conditioned by the ridge)."""
    n = len(vector)
    a = [row[:] + [vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col and a[r][col]:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col])]
    return [a[i][n] / a[i][i] for i in range(n)]


def _features(pattern: tuple[int, ...]) -> list[int]:
    return [len(PAIRS)] + [_PAIR_INDEX[(a, b)] for a, b in combinations(pattern, 2)]  # intercept first


def _fit(samples: dict[tuple, list[float]]) -> dict[tuple, float]:
    """Pair-additive least squares over every sample, then each pattern shrunk toward it."""
    k = len(PAIRS) + 1
    ata = [[0.0] * k for _ in range(k)]
    atb = [0.0] * k
    for pattern, values in samples.items():
        f = _features(pattern)
        total = sum(values)
        for i in f:
            atb[i] += total
            for j in f:
                ata[i][j] += len(values)
    for i in range(k - 1):
        ata[i][i] += RIDGE
    w = _solve(ata, atb)
    fitted = {}
    for pattern, values in samples.items():
        model = sum(w[i] for i in _features(pattern))
        n = len(values)
        own = sum(values) / n if n else model
        fitted[pattern] = model + n / (n + SHRINK) * (own - model)
    return fitted


def _weight(pattern: tuple[int, ...]) -> int:
    """How many suit assignments give the pattern (how often it is kept, roughly)."""
    out = 1
    for r in set(pattern):
        c = pattern.count(r)
        out *= (1, 4, 6, 4, 1)[c]
    return out


def generate(size: int = 4, samples: int = SAMPLES, seed: int = 1, log=None) -> dict:
    """``{"pone": {key: net pegging}, "dealer": {...}}`` for kept patterns of ``size`` ranks."""
    one_go = size == 3
    variant = "five_card" if one_go else "two"
    keep = {"pone": keep_rates(variant, False), "dealer": keep_rates(variant, True)}
    rng = random.Random(seed)
    data: dict[str, dict[tuple, list[float]]] = {"pone": {}, "dealer": {}}
    patterns = _patterns(size)
    for n, pattern in enumerate(patterns):
        for role, other in (("pone", "dealer"), ("dealer", "pone")):
            for _ in range(samples):
                theirs = _draw(rng, pattern, size, keep[other])
                if role == "pone":
                    v = _net(pattern, theirs, one_go)
                else:
                    v = -_net(theirs, pattern, one_go)
                data[role].setdefault(pattern, []).append(v)
                data[other].setdefault(theirs, []).append(-v)
        forget_positions(one_go, over=300_000)
        if log and n % 100 == 0:
            log(f"size {size}: {n} of {len(patterns)} patterns")
    out = {}
    for role in ("pone", "dealer"):
        fitted = _fit(data[role])
        for p in patterns:
            fitted.setdefault(p, 0.0)
        mean = sum(_weight(p) * fitted[p] for p in patterns) / sum(_weight(p) for p in patterns)
        out[role] = {pattern_key(p): round(fitted[p] - mean, 3) for p in patterns}
    return out


def main(argv: Sequence[str] = ()) -> None:
    samples = int(argv[0]) if argv else SAMPLES
    data = {}
    for variant, size in (("two", 4), ("five_card", 3)):
        data[variant] = generate(size, samples, log=lambda s: print(s, flush=True))
    write_table(DATA_PATH, data, indent=0, sort_keys=True)


if __name__ == "__main__":
    main(sys.argv[1:])
