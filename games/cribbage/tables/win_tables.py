"""Regenerate the win-chance tables (``strategy.win_chance``): expert self-play deals, then
dynamic programming over them (``build_table``).

The table is dynamic programming over the distribution of a deal's points in expert
self-play (``sample_deals``: pegging kept as the sequence of points in the order they were
pegged, the shows apart): from the highest scores down, ``P(pone wins | pone a, dealer b)``
is the average over the deals of a win in the play, in the pone's show, or else the chance
from the next deal with the deal passing.

``nice -n 10 python -m games.cribbage.tables.win_tables [deals]`` (default 4000 per
variant) writes ``data/win_chance.json`` and prints the first dealer's chance.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ..engine import apply, deal_event, new_game
from ..moves import to_act
from ..rules import rules_for
from ..strategy.players import choose_move
from ..strategy.win_chance import DATA_PATH, TABLES
from .shipped import write_table

#: The self-play deals behind the tables, shipped so that tests rebuild a table without self-play.
SAMPLES_PATH = DATA_PATH.with_name("win_chance_deals.json")

__all__ = ["SAMPLES_PATH", "sample_deals", "build_table", "main"]


def sample_deals(variant: str, deals: int, seed: int = 1, level: str = "expert") -> list:
    """``deals`` deals of expert self-play (scores never near a target, so the play is for
    points): each ``[pegging, pone_show, dealer_hand, crib]`` with ``pegging`` the points in
    the order pegged, ``[role, points]`` with role 0 the pone and 1 the dealer (heels first)."""
    rng = random.Random(seed)
    out: list[list] = []
    while len(out) < deals:
        state = new_game(rules_for(variant, target=100_000), first_dealer=len(out) % 2)
        for _ in range(20):
            state = apply(state, deal_event(state, rng))
            dealer = state.dealer
            while state.phase != "deal":
                seat = to_act(state)[0]
                state = apply(state, {**choose_move(state, seat, "expert", rng), "seat": seat})
            pegging: list[list[int]] = []
            shows: dict[str, Any] = {"hand": [0, 0], "crib": 0}
            for rec in state.records:
                if rec.phase in ("heels", "play") and rec.points:
                    pegging.append([int(rec.seat == dealer), rec.points])
            for show in state.shows:
                if show.what == "crib":
                    shows["crib"] = show.score.total
                else:
                    shows["hand"][int(show.seat == dealer)] = show.score.total
            out.append([pegging, shows["hand"][0], shows["hand"][1], shows["crib"]])
            if len(out) >= deals:
                break
    return out


def build_table(deals: Sequence, target: int) -> list[list[float]]:
    """``p[a][b]``: the pone's chance to win from pone ``a``, dealer ``b`` at the start of a deal."""
    n = len(deals)
    # Pegging: the totals, and for the few states where both could reach the target during
    # the play, the distinct sequences (who gets there first).
    peg_totals: Counter = Counter()
    sequences: Counter = Counter()
    for pegging, *_ in deals:
        pp = sum(p for r, p in pegging if r == 0)
        dp = sum(p for r, p in pegging if r == 1)
        peg_totals[(pp, dp)] += 1
        sequences[tuple(tuple(e) for e in pegging)] += 1
    max_pp = max(pp for pp, _ in peg_totals)
    max_dp = max(dp for _, dp in peg_totals)
    shows: Counter = Counter((ph, dh + crib) for _, ph, dh, crib in deals)
    peg_items = [(pp, dp, c / n) for (pp, dp), c in peg_totals.items()]
    show_items = [(ph, dt, c / n) for (ph, dt), c in shows.items()]
    seq_items = [(seq, c / n) for seq, c in sequences.items()]

    t = target
    p = [[0.0] * t for _ in range(t)]  # pone a, dealer b, start of a deal
    s = [[0.0] * t for _ in range(t)]  # pone a, dealer b, after the play (shows to come)

    def after_play_value(a: int, b: int) -> float:
        """Pone's chance after the play from pone a, dealer b (both under the target)."""
        total = 0.0
        for ph, dt, w in show_items:
            a2 = a + ph
            if a2 >= t:
                total += w
                continue
            b2 = b + dt
            if b2 >= t:
                continue
            total += w * (1.0 - p[b2][a2])  # next deal: this pone deals
        return total

    def start_value(a: int, b: int) -> float:
        need_p, need_d = t - a, t - b
        total = 0.0
        if need_p <= max_pp and need_d <= max_dp:  # both may get there in the play: the order
            for seq, w in seq_items:
                got = [a, b]
                over = False
                for role, pts in seq:
                    got[role] += pts
                    if got[role] >= t:
                        total += w if role == 0 else 0.0
                        over = True
                        break
                if not over:
                    total += w * s[got[0]][got[1]]
            return total
        for pp, dp, w in peg_items:
            a2, b2 = a + pp, b + dp
            if a2 >= t:
                total += w
            elif b2 < t:
                total += w * s[a2][b2]
        return total

    for diagonal in range(2 * t - 2, -1, -1):
        cells = [(a, diagonal - a) for a in range(max(0, diagonal - t + 1), min(t - 1, diagonal) + 1)]
        for a, b in cells:
            p[a][b] = start_value(a, b)  # needs s on higher diagonals (the play scores >= 1)
        for a, b in cells:
            s[a][b] = after_play_value(a, b)  # needs p on this diagonal and above
    return p


def _distribution(values) -> dict:
    c = Counter(values)
    n = sum(c.values())
    return {str(k): round(v / n, 6) for k, v in sorted(c.items())}


def main(argv: Sequence[str] = ()) -> None:
    deals = int(argv[0]) if argv else 4000
    data = {}
    samples = {}
    for variant in ("two", "five_card"):
        samples[variant] = sample_deals(variant, deals, seed=17)
        print(f"{variant}: {deals} deals of expert self-play", flush=True)
    with SAMPLES_PATH.open("w") as f:
        json.dump(samples, f, separators=(",", ":"))
    for name, variant, target in TABLES:
        d = samples[variant]
        table = build_table(d, target)
        data[name] = {
            "deals": len(d),
            "pone_wins": [[round(x, 5) for x in row] for row in table],
            "shows": {
                "pone_hand": _distribution(x[1] for x in d),
                "dealer_hand": _distribution(x[2] for x in d),
                "crib": _distribution(x[3] for x in d),
                "dealer_show": _distribution(x[2] + x[3] for x in d),
            },
            # The play's points, "pone-dealer" (heels included), for the discard's win chance.
            "pegging": _distribution(
                f"{sum(p for r, p in x[0] if r == 0)}-{sum(p for r, p in x[0] if r == 1)}" for x in d
            ),
        }
        start = 3 if variant == "five_card" else 0  # five-card: the pone starts three up
        print(f"{name}: first dealer wins {1 - table[start][0]:.4f}", flush=True)
    write_table(DATA_PATH, data, separators=(",", ":"))


if __name__ == "__main__":
    main(sys.argv[1:])
