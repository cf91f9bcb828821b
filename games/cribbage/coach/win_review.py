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
  server, readable without JavaScript;
* ``chance_review(rules, first_dealer, moves, seat)``: a game's log replayed as
  one seat saw it: the series and every throw and play of the seat with its
  cost in points and in chance (two-player games with a win-chance table).

Every figure uses only what the seat could see (its cards, the cards played,
the score): the same knowledge the computer player has.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

from ..cards import Card, card_from_code
from ..engine import apply, new_game
from ..rules import Rules
from ..strategy.analysis import discard_options
from ..strategy.endgame import Board, board_from_view, crib_shift, discard_chances, kept_and_starter, play_chances
from ..strategy.knowledge import Table, table_from_view
from ..strategy.peg_search import search_plays
from ..strategy.win_chance import has_table, win_chance
from ..table_view import SeatView, seat_view

__all__ = [
    "DecisionCost",
    "discard_cost",
    "play_cost",
    "chance_series",
    "biggest_swings",
    "chance_chart_svg",
    "Decision",
    "ChanceReview",
    "chance_review",
]


@dataclass(frozen=True)
class DecisionCost:
    """A decision against the best one: expected points lost and win chance lost (0..1)."""

    points_lost: float
    chance_lost: float
    best_by_points: tuple[Card, ...]
    best_by_chance: tuple[Card, ...]
    best_chance: float = 0.0  # the chance to win with the best choice by chance


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
        chances[best_chance],
    )


def play_cost(
    table: Table,
    card: Card,
    board: Board,
    kept: Sequence[Card],
    starter: Card | None,
    crib_shift: int = 0,
    chances: dict[Card, float] | None = None,
) -> DecisionCost:
    """What playing ``card`` cost, by expected net play points and by chance (two players;
    ``chances``: ``endgame.play_chances`` when already worked out)."""
    points = search_plays(table)
    if chances is None:
        chances = play_chances(table, board, kept, starter, crib_shift)
    best_p = max(points, key=lambda c: points[c])
    best_c = max(chances, key=lambda c: chances[c])
    return DecisionCost(
        points[best_p] - points[card], max(0.0, chances[best_c] - chances[card]), (best_p,), (best_c,), chances[best_c]
    )


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


def chance_chart_svg(
    series: Sequence[float], title: str = "Chance to win", width: int = 600, height: int = 220, ended: bool = True
) -> str:
    """An SVG line chart of the chance to win before each deal (0-100%): axes with their
    names, the 50% line dashed, a dot per deal with its figure as a tooltip; ``ended``: the
    last point is the result (labelled "end")."""
    left, right, top, bottom = 46, 12, 12, 40
    w, h = width - left - right, height - top - bottom
    n = max(1, len(series) - 1)
    x = [left + w * i / n for i in range(len(series))]
    y = [top + h * (1 - p) for p in series]
    label = escape(title)
    every = 1 if len(series) <= 30 else 5
    names = [("end" if ended and i == len(series) - 1 else str(i + 1)) for i in range(len(series))]
    ticks = "".join(
        f'<text x="{x[i]:.1f}" y="{top + h + 14}" font-size="10" text-anchor="middle">{names[i]}</text>'
        for i in range(len(series))
        if i % every == 0 or i == len(series) - 1
    )
    dots = "".join(
        f'<circle cx="{x[i]:.1f}" cy="{y[i]:.1f}" r="3" fill="#1f5fa8">'
        f"<title>{'the end' if names[i] == 'end' else 'hand ' + names[i]}: {100 * series[i]:.0f}%</title></circle>"
        for i in range(len(series))
    )
    grid = "".join(
        f'<text x="{left - 6}" y="{top + h * (1 - q) + 4:.1f}" font-size="10" text-anchor="end">{100 * q:.0f}%</text>'
        for q in (0, 0.25, 0.5, 0.75, 1)
    )
    mid = top + h / 2
    points = " ".join(f"{a:.1f},{b:.1f}" for a, b in zip(x, y))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" role="img" aria-label="{label}">'
        f"<title>{label}</title>"
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + h}" stroke="#555"/>'
        f'<line x1="{left}" y1="{top + h}" x2="{left + w}" y2="{top + h}" stroke="#555"/>'
        f'<line x1="{left}" y1="{mid:.1f}" x2="{left + w}" y2="{mid:.1f}" stroke="#999" stroke-dasharray="4 4"/>'
        f"{grid}{ticks}"
        f'<text x="{left + w / 2:.1f}" y="{height - 6}" font-size="11" text-anchor="middle">hand</text>'
        f'<text x="12" y="{mid:.1f}" font-size="11" text-anchor="middle" transform="rotate(-90 12 {mid:.1f})">'
        "chance to win</text>"
        f'<polyline points="{points}" fill="none" stroke="#1f5fa8" stroke-width="2"/>'
        f"{dots}</svg>"
    )


# --- A whole game, replayed as one seat saw it ---------------------------------------------


@dataclass(frozen=True)
class Decision:
    """One throw or play of the seat, with what it cost against the best."""

    hand: int
    kind: str  # "discard" or "play"
    cards: tuple[Card, ...]  # the cards thrown, or the card played
    count_before: int  # the count it was played on (0 for a throw)
    cost: DecisionCost


@dataclass(frozen=True)
class ChanceReview:
    """``series``: the seat's chance before each deal (then 1 or 0 once the game is over);
    ``decisions``: the seat's throws and plays that were judged, in order."""

    series: tuple[float, ...]
    decisions: tuple[Decision, ...]

    def swings(self, n: int = 3, at_least: float = 0.005) -> list[Decision]:
        """The ``n`` decisions that cost the most chance (at least ``at_least``), worst first."""
        costly = [d for d in self.decisions if d.cost.chance_lost >= at_least]
        return sorted(costly, key=lambda d: -d.cost.chance_lost)[:n]


def chance_review(
    rules: Rules, first_dealer: int, moves: Sequence[dict], seat: int, hands: Sequence[int] | None = None
) -> ChanceReview | None:
    """The seat's game in win chances, from the engine moves of its log (``moves``, in order);
    only the decisions of ``hands`` (hand numbers) when given, the others cost nothing to skip.
    None where there is no win-chance table (three and four players, other targets).

    Each decision is judged on ``seat_view(state, seat)`` just before it: the seat's own cards,
    the cards played and the score, never another seat's hand."""
    if not has_table(rules.variant, rules.target, rules.players):
        return None
    state = new_game(rules, first_dealer=first_dealer)
    series: list[float] = []
    decisions: list[Decision] = []
    for data in moves:
        kind = data.get("kind")
        mine = data.get("seat") == seat and kind in ("discard", "play")
        if mine and (hands is None or state.hand_number in hands):
            judged = _judge(seat_view(state, seat), seat, data)
            if judged is not None:
                decisions.append(judged)
        state = apply(state, data)
        if kind == "deal":
            series.append(
                win_chance(
                    state.scores[seat], state.scores[1 - seat], state.dealer == seat, rules.variant, rules.target
                )
            )
    if state.outcome is not None:  # the game is over: won or lost, whatever the scores say
        series.append(1.0 if state.outcome.winner == rules.side_of(seat) else 0.0)
    return ChanceReview(tuple(series), tuple(decisions))


def _judge(v: SeatView, seat: int, data: dict) -> Decision | None:
    board = board_from_view(v, seat)
    if board is None:
        return None
    if data["kind"] == "discard":
        dealt = [card_from_code(c) for c in v.hand]
        thrown = tuple(card_from_code(c) for c in data["cards"])
        return Decision(v.hand_number, "discard", thrown, 0, discard_cost(dealt, thrown, v.dealer == seat, board))
    card = card_from_code(data["card"])
    table = table_from_view(v, seat)
    kept, starter = kept_and_starter(v)
    shift = crib_shift(v, seat)
    chances = play_chances(table, board, kept, starter, shift)
    if card not in chances:
        return None
    cost = play_cost(table, card, board, kept, starter, shift, chances)
    count = sum(c.value for c in table.count_cards)
    return Decision(v.hand_number, "play", (card,), count, cost)
