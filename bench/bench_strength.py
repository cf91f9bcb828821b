"""Computer player strength: seeded games between levels and against baselines.

Run alone: `python -m bench strength` (or `python -m bench.bench_strength`;
`GAMES=200` for a quicker run). Games are played with the pure engine
(two players, to 121), seats and the first deal alternating between the two
levels, every shuffle from `random.Random(seed)`, so the table is a fixed
result of the code. Averages are per complete deal (the deal that ends a
game is left out) and split by role; heels are not counted as pegging.
"""
import math
import os
import random
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor

from games.cribbage import apply, deal_event, is_over, new_game, result, rules_for, to_act
from games.cribbage.players import choose_move

GAMES = int(os.environ.get("GAMES", 250))  # per match: about four minutes on two cores
MATCHES = [  # (level A, level B)
    ("expert", "random"),
    ("expert", "greedy"),
    ("standard", "greedy"),
    ("easy", "greedy"),
    ("expert", "standard"),
    ("expert", "easy"),
    ("expert", "expert"),
]
PUBLISHED = {  # per deal, strong human play (Chambers, ACC tip #6; Cribbage Pro)
    ("pone", "peg"): 2.0, ("pone", "hand"): 8.1,
    ("dealer", "peg"): 3.5, ("dealer", "hand"): 8.0, ("dealer", "crib"): 4.7,
}


def play_game(levels, seed, first_dealer=0, variant="two", muggins=False, decisions=None):
    """Play one game; `levels[s]` is seat s's level. Returns (result, per-deal stats).

    Each deal's stats: {"dealer": seat, "peg": [per seat], "hand": [per seat], "crib": n}.
    `decisions`, if a list, receives (level, kind, seconds) for each move chosen.
    """
    rng = random.Random(seed)
    move_rngs = [random.Random(seed * 7919 + s) for s in range(len(levels))]
    state = new_game(rules_for(variant, muggins=muggins), first_dealer=first_dealer)
    deals = []
    while not is_over(state):
        if state.phase == "deal":
            if state.hand_number:
                deals.append(_deal_stats(state))
            state = apply(state, deal_event(state, rng))
            continue
        acting = to_act(state)
        seat = acting[0]
        t = time.perf_counter()
        move = choose_move(state, seat, level=levels[seat], rng=move_rngs[seat])
        if decisions is not None:
            decisions.append((levels[seat], move["kind"], time.perf_counter() - t))
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


def _run_match(args):
    a, b, games, base_seed = args
    wins = first_dealer_wins = 0
    sums = defaultdict(float)  # (level-slot, role, what) -> total
    counts = defaultdict(int)
    decisions = []
    for g in range(games):
        seats = (a, b) if g % 2 == 0 else (b, a)
        slot = (0, 1) if g % 2 == 0 else (1, 0)  # slot of seat s: 0 = A, 1 = B
        first = (g // 2) % 2
        res, deals = play_game(seats, base_seed + g, first_dealer=first,
                               decisions=decisions if g < 20 else None)
        if res["winner"] == slot.index(0):
            wins += 1
        if res["winner"] == first:
            first_dealer_wins += 1
        for d in deals:
            for s in range(2):
                role = "dealer" if d["dealer"] == s else "pone"
                sums[(slot[s], role, "peg")] += d["peg"][s]
                sums[(slot[s], role, "hand")] += d["hand"][s]
                counts[(slot[s], role)] += 1
            dealer_slot = slot[d["dealer"]]
            sums[(dealer_slot, "dealer", "crib")] += d["crib"]
            sums[(1 - dealer_slot, "pone", "crib_given")] += d["crib"]
    return a, b, games, wins, first_dealer_wins, dict(sums), dict(counts), decisions


def wilson(wins, n, z=1.96):
    """95% Wilson score interval for a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return centre - half, centre + half


def main(games=None):
    games = games or GAMES
    print(f"{games} seeded games per match (two players to 121; seats and first deal alternate)")
    started = time.perf_counter()
    jobs = [(a, b, games, 1_000_000 * (i + 1)) for i, (a, b) in enumerate(MATCHES)]
    workers = max(1, min(len(jobs), os.cpu_count() or 1))
    with ProcessPoolExecutor(workers) as pool:
        results = list(pool.map(_run_match, jobs))
    elapsed = time.perf_counter() - started

    print("\nwin rate of A (95% Wilson interval)")
    print(f"{'A':>9} vs {'B':<9} {'games':>6} {'A wins':>8}  interval")
    for a, b, n, wins, fdw, *_ in results:
        lo, hi = wilson(wins, n)
        print(f"{a:>9} vs {b:<9} {n:>6} {wins / n:>8.1%}  [{lo:.1%}, {hi:.1%}]")
        if a == b:
            lo, hi = wilson(fdw, n)
            print(f"{'':>9}    first dealer wins {fdw / n:.1%} [{lo:.1%}, {hi:.1%}] (published ~55%)")

    print("\naverages per deal (A's figures; B's in brackets)")
    head = ("pone peg", "pone hand", "dealer peg", "dealer hand", "dealer crib", "crib given")
    print(f"{'match':<20}" + "".join(f"{h:>16}" for h in head))
    for a, b, n, wins, fdw, sums, counts, _ in results:
        row = []
        for role, what in (("pone", "peg"), ("pone", "hand"), ("dealer", "peg"), ("dealer", "hand"),
                           ("dealer", "crib"), ("pone", "crib_given")):
            vals = [sums.get((s, role, what), 0) / max(1, counts.get((s, role), 0)) for s in (0, 1)]
            row.append(f"{vals[0]:6.2f} ({vals[1]:5.2f})")
        print(f"{a + ' v ' + b:<20}" + "".join(f"{x:>16}" for x in row))
    print(f"{'published (strong)':<20}" + "".join(
        f"{PUBLISHED.get(k, float('nan')):>16.1f}" if k in PUBLISHED else f"{'':>16}"
        for k in (("pone", "peg"), ("pone", "hand"), ("dealer", "peg"), ("dealer", "hand"),
                  ("dealer", "crib"))))
    print("('crib given': the dealer's crib when this level was the pone, i.e. built with its throw)")

    print("\ndecision time (first 20 games of each match)")
    times = defaultdict(list)
    for *_, decisions in results:
        for level, kind, t in decisions:
            times[(level, kind)].append(t)
    for (level, kind), ts in sorted(times.items()):
        ts.sort()
        print(f"{level:>9} {kind:<8} n={len(ts):<6} mean {1000 * sum(ts) / len(ts):6.2f} ms"
              f"   p95 {1000 * ts[int(0.95 * (len(ts) - 1))]:6.2f} ms")
    total = sum(r[2] for r in results)
    print(f"\n{total} games in {elapsed:.0f} s on {workers} processes")


if __name__ == "__main__":
    main()
