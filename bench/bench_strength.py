"""Computer player strength: duplicate pairs of seeded games between levels.

Run alone: `python -m bench strength` (or `python -m bench.bench_strength`).
Every pair of games uses the same shuffles (`random.Random(seed)`) and the
same first dealer with the seats swapped, so the luck of the cards cancels
and only the play differs ("duplicate"). Win rates carry 95% Wilson
intervals over games. `"baseline"` is the frozen copy of the expert as it was
before the crib model, win-chance play and pegging search (bench/baseline/).

Environment: `PAIRS` (duplicate pairs of the first match, new expert against the
baseline, default 150), `OTHER_PAIRS` (of every other two-player match, default `PAIRS`),
`WORKERS` (processes, default 2), `CHUNK` (pairs per job, for a tally printed as it goes), `MATCHES` (comma list of `A:B:variant`,
default all of `MATCHES` below). Decision times are CPU time per move
(`time.process_time`, so other processes on the machine do not inflate them).
Averages are per complete deal (the deal that ends a game is left out).
"""

import math
import os
import random
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor

from bench import baseline
from games.cribbage import apply, deal_event, is_over, new_game, result, rules_for, to_act
from games.cribbage.strategy import players
from games.cribbage.strategy.players import EXPERT_PIECES, choose_move

PAIRS = int(os.environ.get("PAIRS", 150))
OTHER_PAIRS = int(os.environ.get("OTHER_PAIRS", PAIRS))  # for every match but the first
WORKERS = int(os.environ.get("WORKERS", 2))
CHUNK = int(os.environ.get("CHUNK", 0))  # duplicate pairs per job (0: a quarter of a match per process)
MATCHES = [  # (level A, level B, variant): A's win rate is reported
    ("expert", "baseline", "two"),
    ("expert", "standard", "two"),
    ("standard", "easy", "two"),
    ("expert", "easy", "two"),
    ("expert", "baseline", "five_card"),
    ("expert", "standard", "five_card"),
    ("expert", "easy", "five_card"),
    ("expert", "baseline", "four"),
    ("expert", "standard", "four"),
    ("expert", "easy", "four"),
    ("expert", "baseline", "three"),
    ("expert", "standard", "three"),
    ("expert", "easy", "three"),
    ("expert", "expert", "two"),
]
PUBLISHED = {  # per deal, strong human play (Chambers, ACC tip #6; Cribbage Pro)
    ("pone", "peg"): 2.0,
    ("pone", "hand"): 8.1,
    ("dealer", "peg"): 3.5,
    ("dealer", "hand"): 8.0,
    ("dealer", "crib"): 4.7,
}


def _chooser(level):
    """A level's move function; ``expert/crib+search`` is the expert with only those pieces
    (``players.EXPERT_PIECES``; ``expert/none``: none of them), for measuring each alone."""
    if level == "baseline":
        return lambda state, seat, rng: baseline.choose_move(state, seat, level="expert", rng=rng)
    if "/" in level:
        level, names = level.split("/")
        pieces = frozenset(n for n in names.split("+") if n != "none")
        if not pieces <= EXPERT_PIECES:
            raise ValueError(f"Unknown expert pieces {sorted(pieces - EXPERT_PIECES)}")
        return lambda state, seat, rng: choose_move(state, seat, level=level, rng=rng, pieces=pieces)
    return lambda state, seat, rng: choose_move(state, seat, level=level, rng=rng)


def play_game(levels, seed, first_dealer=0, variant="two", muggins=False, decisions=None):
    """Play one game; `levels[s]` is seat s's level. Returns (result, per-deal stats).

    Each deal's stats: {"dealer": seat, "peg": [per seat], "hand": [per seat], "crib": n}.
    `decisions`, if a list, receives (level, kind, cpu seconds) for each move chosen.
    """
    rng = random.Random(seed)
    move_rngs = [random.Random(seed * 7919 + s) for s in range(len(levels))]
    choosers = [_chooser(level) for level in levels]
    state = new_game(rules_for(variant, muggins=muggins), first_dealer=first_dealer)
    deals = []
    while not is_over(state):
        if state.phase == "deal":
            if state.hand_number:
                deals.append(_deal_stats(state))
            state = apply(state, deal_event(state, rng))
            continue
        seat = to_act(state)[0]
        t = time.process_time()
        move = choosers[seat](state, seat, move_rngs[seat])
        if decisions is not None:
            decisions.append((levels[seat], move["kind"], time.process_time() - t))
        state = apply(state, {**move, "seat": seat})
    return result(state), deals


def _deal_stats(state):
    n = state.rules.players
    peg, hand = [0] * n, [0] * n
    crib = 0
    for rec in state.records:
        if rec.phase == "play":
            peg[rec.seat] += rec.points
    for show in state.shows:
        if show.what == "crib":
            crib = show.score.total
        else:
            hand[show.seat] = show.score.total
    return {"dealer": state.dealer, "peg": peg, "hand": hand, "crib": crib}


def _seatings(a, b, variant):
    """The seatings of one duplicate set: every seat of A's side played by A once."""
    players = rules_for(variant).players
    if players == 4:
        return [(a, b, a, b), (b, a, b, a)]
    if players == 3:  # A in each seat once against two B's (an even share is 1/3)
        return [(a, b, b), (b, a, b), (b, b, a)]
    return [(a, b), (b, a)]


def _run_pairs(args):
    """Play duplicate sets `first..first+count-1` of one match; tallies for A."""
    a, b, variant, first, count, base_seed = args
    if os.environ.get("PEGGING_WEIGHT"):  # trying other weights of the kept cards' pegging
        players.PEGGING_WEIGHT = float(os.environ["PEGGING_WEIGHT"])
    rules = rules_for(variant)
    tally = {"games": 0, "wins": 0, "first_dealer_wins": 0, "margin": 0}
    sums = defaultdict(float)  # (slot, role, what) -> total; slot 0 = A, 1 = B
    counts = defaultdict(int)
    decisions = []
    for i in range(first, first + count):
        seed = base_seed + i
        dealer = i % rules.players
        for seats in _seatings(a, b, variant):
            res, deals = play_game(
                seats, seed, first_dealer=dealer, variant=variant, decisions=decisions if i < first + 10 else None
            )
            winner_side = res["winner"]
            a_side = rules.side_of(seats.index(a))
            tally["games"] += 1
            tally["wins"] += winner_side == a_side
            tally["first_dealer_wins"] += winner_side == rules.side_of(dealer)
            scores = res["scores"]
            tally["margin"] += scores[a_side] - scores[1 - a_side]
            for d in deals:
                for s in range(rules.players):
                    slot = 0 if seats[s] == a and rules.side_of(s) == a_side else 1
                    role = "dealer" if d["dealer"] == s else "pone"
                    sums[(slot, role, "peg")] += d["peg"][s]
                    sums[(slot, role, "hand")] += d["hand"][s]
                    counts[(slot, role)] += 1
                    if d["dealer"] == s:
                        sums[(slot, "dealer", "crib")] += d["crib"]
    return a, b, variant, tally, dict(sums), dict(counts), decisions


def wilson(wins, n, z=1.96):
    """95% Wilson score interval for a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return centre - half, centre + half


def _selected_matches():
    chosen = os.environ.get("MATCHES")
    if not chosen:
        return MATCHES
    return [tuple(m.split(":")) for m in chosen.split(",")]


def run(matches, pairs, workers, other_pairs=None):
    """Play every match in `workers` processes; merged results in match order."""
    jobs = []
    for m, (a, b, variant) in enumerate(matches):
        n = pairs if m == 0 else (other_pairs or pairs)
        n = n if rules_for(variant).players == 2 else max(1, n // 2)
        chunk = CHUNK or max(1, math.ceil(n / (4 * workers)))
        for first in range(0, n, chunk):
            jobs.append((a, b, variant, first, min(chunk, n - first), 1_000_000 * (m + 1)))
    merged = {}
    with ProcessPoolExecutor(workers) as pool:
        for a, b, variant, tally, sums, counts, decisions in pool.map(_run_pairs, jobs):
            key = (a, b, variant)
            entry = merged.setdefault(key, [defaultdict(int), defaultdict(float), defaultdict(int), []])
            for k, v in tally.items():
                entry[0][k] += v
            print(f"  ... {a} v {b} {variant}: {entry[0]['wins']}/{entry[0]['games']}", file=sys.stderr, flush=True)
            for k, v in sums.items():
                entry[1][k] += v
            for k, v in counts.items():
                entry[2][k] += v
            entry[3].extend(decisions)
    return [(key, *merged[key]) for key in [tuple(m) for m in matches]]


def _percentile(sorted_values, q):
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def main(pairs=None):
    pairs = pairs or PAIRS
    matches = _selected_matches()
    print(
        f"{pairs} duplicate pairs in the first match, {OTHER_PAIRS} in the others (same shuffles, "
        f"seats swapped), half as many for four players; {WORKERS} processes"
    )
    started = time.perf_counter()
    results = run(matches, pairs, WORKERS, OTHER_PAIRS)
    elapsed = time.perf_counter() - started

    print("\nwin rate of A (95% Wilson interval over games)")
    print(f"{'A':>9} vs {'B':<9} {'variant':<10} {'games':>6} {'A wins':>8}  interval          margin")
    for (a, b, variant), tally, *_ in results:
        n, wins = tally["games"], tally["wins"]
        lo, hi = wilson(wins, n)
        print(
            f"{a:>9} vs {b:<9} {variant:<10} {n:>6} {wins / n:>8.1%}  [{lo:.1%}, {hi:.1%}]   {tally['margin'] / n:+.1f}"
        )
        if a == b:
            f = tally["first_dealer_wins"]
            lo, hi = wilson(f, n)
            print(f"{'':>9}    first dealer wins {f / n:.1%} [{lo:.1%}, {hi:.1%}] (published ~55.5%)")

    print("\naverages per deal for A (B's in brackets)")
    keys = (("pone", "peg"), ("pone", "hand"), ("dealer", "peg"), ("dealer", "hand"), ("dealer", "crib"))
    print(f"{'match':<28}" + "".join(f"{r + ' ' + w:>16}" for r, w in keys))
    for (a, b, variant), _, sums, counts, _ in results:
        row = []
        for role, what in keys:
            vals = [sums.get((s, role, what), 0) / max(1, counts.get((s, role), 0)) for s in (0, 1)]
            row.append(f"{vals[0]:6.2f} ({vals[1]:5.2f})")
        print(f"{a + ' v ' + b + ' ' + variant:<28}" + "".join(f"{x:>16}" for x in row))
    print(f"{'published (strong, two)':<28}" + "".join(f"{PUBLISHED[k]:>16.1f}" for k in keys))

    print("\ndecision time, CPU ms (first 10 duplicate sets of each job)")
    times = defaultdict(list)
    for (_, _, variant), *_, decisions in results:
        for level, kind, t in decisions:
            times[(variant, level, kind)].append(t)
    for (variant, level, kind), ts in sorted(times.items()):
        ts.sort()
        print(
            f"{variant:<10} {level:>9} {kind:<8} n={len(ts):<6} p50 {1000 * _percentile(ts, 0.5):6.2f}"
            f"   p99 {1000 * _percentile(ts, 0.99):6.2f}   max {1000 * ts[-1]:6.2f}"
        )
    total = sum(r[1]["games"] for r in results)
    print(f"\n{total} games in {elapsed:.0f} s on {WORKERS} processes")


if __name__ == "__main__":
    main()
