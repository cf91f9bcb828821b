"""Regenerate the win-chance tables: expert self-play deals, then ``win_chance.build_table``.

``nice -n 10 python -m games.cribbage.win_tables [deals]`` (default 4000 per
variant) writes ``data/win_chance.json`` and prints the first dealer's chance.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from collections.abc import Sequence
from typing import Any

from .engine import apply, deal_event, new_game
from .moves import to_act
from .players import choose_move
from .rules import rules_for
from .win_chance import DATA_PATH, TABLES, build_table

#: The self-play deals behind the tables, shipped so that tests rebuild a table without self-play.
SAMPLES_PATH = DATA_PATH.with_name("win_chance_deals.json")

__all__ = ["sample_deals", "main"]


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
    DATA_PATH.parent.mkdir(exist_ok=True)
    with DATA_PATH.open("w") as f:
        json.dump(data, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {DATA_PATH}")


if __name__ == "__main__":
    main(sys.argv[1:])
