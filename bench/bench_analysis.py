"""Discard analysis speed: exact discard_options vs the naive enumeration over score_hand.

Run alone: `python -m bench analysis` (or `python -m bench.bench_analysis`).
The naive enumeration scores every crib (the opponent's possible throws x
every starter) with score_hand: about 683,000 calls for a six-card hand.
"""

import random
import time
from fractions import Fraction
from itertools import combinations

from games.cribbage.cards import FULL_DECK, parse_cards
from games.cribbage.scoring import score_hand
from games.cribbage.strategy.analysis import discard_options, throw_count

CASES = [  # (hand, is_dealer, players)
    ("5H 5D JH 4S 6C KH", True, 2),
    ("5S JS 6S 4D 9C", False, 2),  # five-card cribbage: keep 3
]


def naive_options(hand, is_dealer, players):
    unseen = [c for c in FULL_DECK if c not in hand]
    sign = 1 if is_dealer else -1
    result = {}
    for discard in combinations(hand, throw_count(len(hand), players)):
        keep = [c for c in hand if c not in discard]
        h = Fraction(sum(score_hand(keep, s).total for s in unseen), len(unseen))
        total = n = 0
        for others in combinations(unseen, 4 - len(discard)):
            crib = [*discard, *others]
            for s in unseen:
                if s not in others:
                    total += score_hand(crib, s, crib=True).total
                    n += 1
        result[discard] = (h, sign * Fraction(total, n))
    return result, n * len(result) + len(unseen) * len(result)


def _fast_time(hand, is_dealer, players, repeat=50):
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        options = discard_options(hand, is_dealer, players=players)
        best = min(best, time.perf_counter() - t)
    return best, options


def main():
    for text, is_dealer, players in CASES:
        hand = parse_cards(text)
        fast, options = _fast_time(hand, is_dealer, players)
        t = time.perf_counter()
        naive, calls = naive_options(hand, is_dealer, players)
        slow = time.perf_counter() - t
        assert {o.discard: (o.hand_ev, o.crib_ev) for o in options} == naive, "numbers differ"
        best = options[0]
        print(
            f"{text} ({'dealer' if is_dealer else 'pone'}, {players} players, {len(options)} choices): "
            f"discard_options {fast * 1e3:.2f} ms (best of 50) vs naive {slow:.2f} s "
            f"({calls:,} score_hand calls, run once) = {slow / fast:,.0f}x faster, identical Fractions"
        )
        print(
            f"  best: throw {' '.join(c.code for c in best.discard)}, hand {float(best.hand_ev):.3f} "
            f"crib {float(best.crib_ev):+.3f} total {float(best.total_ev):.3f}"
        )

    rng = random.Random(7)
    for players, size, label in [(2, 6, "six-card"), (2, 5, "five-card"), (3, 5, "three/four-player")]:
        times = []
        for _ in range(200):
            hand = rng.sample(FULL_DECK, size)
            t = time.perf_counter()
            discard_options(hand, rng.random() < 0.5, players=players)
            times.append(time.perf_counter() - t)
        times.sort()
        print(f"{label} deals, 200 random: median {times[100] * 1e3:.2f} ms, max {times[-1] * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
