"""The coach in win chances: what a decision cost in points and in chance, and the game's chart.

Pure functions (no Django), for the pages that show help where it is allowed
and the review after a game (``games.coaching`` decides when):

* ``discard_cost(dealt, discard, is_dealer, board)``: the chosen throw against
  the best by points and by the chance to win;
* ``play_cost(table, card, board, kept, starter)``: the same for a card in the play;
* ``chance_series(deals, seat, variant, target, winner_side)``: the seat's
  chance to win at the start of every deal (from the scores and dealer of
  each), ending at 1 or 0;
* ``biggest_swings(series)``: the deals that moved the chance most;
* ``chance_chart_svg(series)``: an SVG line chart of the series, drawn on the
  server, readable without JavaScript.

Every figure uses only what the seat could see (its cards, the cards played,
the score): the same knowledge the computer player has.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

from .analysis import discard_options
from .cards import Card
from .endgame import Board, discard_chances, play_chances
from .knowledge import Table
from .peg_search import search_plays
from .win_chance import win_chance

__all__ = ["DecisionCost", "discard_cost", "play_cost", "chance_series", "biggest_swings", "chance_chart_svg"]


@dataclass(frozen=True)
class DecisionCost:
    """A decision against the best one: expected points lost and win chance lost (0..1)."""

    points_lost: float
    chance_lost: float
    best_by_points: tuple[Card, ...]
    best_by_chance: tuple[Card, ...]


def discard_cost(dealt: Sequence[Card], discard: Sequence[Card], is_dealer: bool, board: Board) -> DecisionCost:
    """What laying away ``discard`` from ``dealt`` cost, by points and by chance, at ``board``."""
    options = discard_options(dealt, is_dealer)
    chances = discard_chances(options, dealt, board)
    chosen = next(i for i, o in enumerate(options) if set(o.discard) == set(discard))
    best_chance = max(range(len(options)), key=lambda i: chances[i])
    return DecisionCost(
        float(options[0].total_ev - options[chosen].total_ev),
        max(0.0, chances[best_chance] - chances[chosen]),
        options[0].discard,
        options[best_chance].discard,
    )


def play_cost(
    table: Table, card: Card, board: Board, kept: Sequence[Card], starter: Card | None, crib_shift: int = 0
) -> DecisionCost:
    """What playing ``card`` cost, by expected net play points and by chance (two players)."""
    points = search_plays(table)
    chances = play_chances(table, board, kept, starter, crib_shift)
    best_p = max(points, key=lambda c: points[c])
    best_c = max(chances, key=lambda c: chances[c])
    return DecisionCost(points[best_p] - points[card], max(0.0, chances[best_c] - chances[card]), (best_p,), (best_c,))


def chance_series(
    deals: Sequence[tuple[Sequence[int], int]], seat: int, variant: str, target: int, winner_side: int | None = None
) -> list[float]:
    """``deals``: (scores by side, dealer seat) at the start of each deal, in order. The seat's
    chance to win before each, then 1 or 0 when ``winner_side`` is given."""
    out = [win_chance(scores[seat], scores[1 - seat], dealer == seat, variant, target) for scores, dealer in deals]
    if winner_side is not None:
        out.append(1.0 if winner_side == seat else 0.0)
    return out


def biggest_swings(series: Sequence[float], n: int = 3) -> list[tuple[int, float]]:
    """The ``n`` deals (1-based) whose play moved the chance most: ``(deal, change)``."""
    swings = [(i + 1, series[i + 1] - series[i]) for i in range(len(series) - 1)]
    return sorted(swings, key=lambda s: -abs(s[1]))[:n]


def chance_chart_svg(series: Sequence[float], title: str = "Chance to win", width: int = 600, height: int = 200) -> str:
    """An SVG line chart of the chance to win before each deal (0-100%), 50% marked."""
    pad = 30
    w, h = width - 2 * pad, height - 2 * pad
    n = max(1, len(series) - 1)
    points = " ".join(f"{pad + w * i / n:.1f},{pad + h * (1 - p):.1f}" for i, p in enumerate(series))
    mid = pad + h / 2
    label = escape(title)
    ticks = "".join(
        f'<text x="{pad + w * i / n:.1f}" y="{height - 8}" font-size="10" text-anchor="middle">{i + 1}</text>'
        for i in range(len(series))
        if len(series) <= 30 or i % 5 == 0
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" role="img" aria-label="{label}">'
        f"<title>{label}</title>"
        f'<rect x="{pad}" y="{pad}" width="{w}" height="{h}" fill="none" stroke="#999"/>'
        f'<line x1="{pad}" y1="{mid:.1f}" x2="{pad + w}" y2="{mid:.1f}" stroke="#bbb" stroke-dasharray="4 4"/>'
        f'<text x="{pad - 4}" y="{pad + 4}" font-size="10" text-anchor="end">100%</text>'
        f'<text x="{pad - 4}" y="{mid + 4:.1f}" font-size="10" text-anchor="end">50%</text>'
        f'<text x="{pad - 4}" y="{pad + h + 4}" font-size="10" text-anchor="end">0%</text>'
        f'<polyline points="{points}" fill="none" stroke="#1f5fa8" stroke-width="2"/>'
        f"{ticks}</svg>"
    )
