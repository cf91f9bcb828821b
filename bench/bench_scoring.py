"""Show scoring speed: the full 12,994,800-hand enumeration, and score_hand per call.

Run alone: `python -m bench scoring` (or `python -m bench.bench_scoring`).
"""

import random
import time

from games.cribbage.cards import FULL_DECK
from games.cribbage.scoring import score_hand
from games.cribbage.strategy import stats

ALL_HANDS = 12_994_800  # C(52, 4) * 48
SAMPLE = 50_000


def _best_of(n, fn):
    best = float("inf")
    for _ in range(n):
        t = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t)
    return best, result


def _per_call(fn, cases):
    t = time.perf_counter()
    for args in cases:
        fn(*args)
    return (time.perf_counter() - t) / len(cases)


def main():
    build, _ = _best_of(3, stats._build_suitless)
    full, dist = _best_of(3, stats.show_distribution)
    full_crib, crib = _best_of(3, lambda: stats.show_distribution(crib=True))
    assert sum(dist.values()) == sum(crib.values()) == ALL_HANDS
    assert dist[0] == 1_009_008 and dist[29] == 4 and crib[0] == 1_022_208
    mean = sum(s * n for s, n in dist.items()) / ALL_HANDS
    assert round(mean, 6) == 4.769152

    rng = random.Random(1)
    cards = [rng.sample(FULL_DECK, 5) for _ in range(SAMPLE)]
    slow_cases = [(c[:4], c[4]) for c in cards]
    fast_cases = [([x.index for x in c[:4]], c[4].index) for c in cards]
    assert all(
        score_hand(h, s).total == stats.fast_score(hi, si)
        for (h, s), (hi, si) in zip(slow_cases[:5000], fast_cases[:5000])
    )
    per_hand = _per_call(score_hand, slow_cases)
    per_fast = _per_call(stats.fast_score, fast_cases)
    naive = per_hand * ALL_HANDS

    print(
        f"show_distribution(): all {ALL_HANDS:,} hand+starter combinations (hand rule) "
        f"in {full:.3f} s = {ALL_HANDS / full / 1e6:,.0f} million hands/s (one core, best of 3)"
    )
    print(f"show_distribution(crib=True): {full_crib:.3f} s = {ALL_HANDS / full_crib / 1e6:,.0f} million hands/s")
    print(
        f"  + one-time SUITLESS table build at import (7,995 rank multisets): {build:.3f} s; "
        f"cold total {build + full:.3f} s; mean {mean:.6f}"
    )
    print(f"score_hand: {per_hand * 1e6:.2f} us per call (mean over {SAMPLE:,} random hands)")
    print(f"fast_score (table-driven, card indexes): {per_fast * 1e6:.2f} us per call")
    print(
        f"naive score_hand loop over all hands: {naive:.0f} s, EXTRAPOLATED from the {SAMPLE:,}-hand sample (not run)"
    )
    print(
        f"speed-up of show_distribution vs naive loop: {naive / full:,.0f}x "
        f"({naive / (build + full):,.0f}x counting the table build)"
    )


if __name__ == "__main__":
    main()
