"""The rating history chart of a profile: an SVG drawn here, no JavaScript. Pure.

One line per family, the shown rating after each rated game (x: the player's
rated games in order, so a busy week and a quiet month take the room they
had in games; a family's point sits at its game); a shaded band for the ± of
the overall line.

A line draws at most POINTS points whatever the history (`thin`): the plot is ~418 units
wide, so about a point per two of them is all a reader can tell apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

# Drawn small and lettered large, so it reads on a phone (scaled to ~350 px) as on a desktop.
WIDTH, HEIGHT = 480, 300
LEFT, RIGHT, TOP, BOTTOM = 50, 12, 14, 76
FONT = 15
COLOURS = {"Overall": "#1f5f8b", "Two players": "#b5472d", "Three players": "#3c7a3c", "Partnerships": "#7a4f9a"}


POINTS = 200
BUCKETS = (POINTS - 2) // 2  # each keeps its low and its high; the first and the last points besides

Point = tuple[int, int, int]  # (game number from 0, value, uncertainty)


def bucket(game: int, games: int) -> int:
    """Which of the BUCKETS equal runs of the player's `games` rated games `game` (from 0) is in."""
    return game * BUCKETS // games


def thin(points: Sequence[Point], games: int) -> Sequence[Point]:
    """`points` (in game order, of `games` rated games) as drawn: all of them when there are
    at most POINTS; otherwise the first, the last, and in each `bucket` its lowest and its
    highest value (the earliest of equals), in game order. The low and the high, not an
    average nor the bucket's last point: a peak or a trough reached once stays on the line at
    its height, and the ups and downs inside a bucket's few units of width are drawn as one
    stroke from its low to its high, as they would look anyway."""
    if len(points) <= POINTS:
        return points
    low: dict[int, Point] = {}
    high: dict[int, Point] = {}
    for point in points:
        b = bucket(point[0], games)
        if b not in low or point[1] < low[b][1]:
            low[b] = point
        if b not in high or point[1] > high[b][1]:
            high[b] = point
    return sorted({points[0], points[-1], *low.values(), *high.values()})


def _ticks(low: int, high: int) -> list[int]:
    step = next(s for s in (50, 100, 250, 500, 1000) if (high - low) / s <= 6)
    first = -(-low // step) * step
    return list(range(first, high + 1, step))


def history_svg(series: dict[str, Sequence[Point]], games: int, first_day: str = "", last_day: str = "") -> str:
    """SVG markup for `series`: {label: [(game number from 0, value, uncertainty) after that game]}
    over the player's `games` rated games, each line `thin`ned; "Overall" gets the ± band.
    "" when there is nothing to draw."""
    series = {label: thin(points, games) for label, points in series.items() if points}
    if not series or games < 1:
        return ""
    overall = series.get("Overall", ())
    values = [v for points in series.values() for _, v, _ in points]
    values += [v + u for _, v, u in overall] + [max(0, v - u) for _, v, u in overall]
    low, high = min(values), max(values)
    low, high = (low // 50) * 50, -(-high // 50) * 50
    if high - low < 200:
        high, low = high + 100, max(0, low - 100)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + (plot_w * i / (games - 1) if games > 1 else plot_w / 2)

    def y(v: float) -> float:
        return TOP + plot_h * (high - v) / (high - low)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" '
        f'role="img" aria-labelledby="rating-chart-title" class="rating-chart">',
        f'<title id="rating-chart-title">Rating after each of {games} rated game{"s" if games != 1 else ""}</title>',
    ]
    for tick in _ticks(low, high):
        parts.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" stroke="#ddd"/>'
            f'<text x="{LEFT - 6}" y="{y(tick) + 4:.1f}" text-anchor="end" font-size="{FONT}" fill="#444">{tick}</text>'
        )
    if overall:
        upper = " ".join(f"{x(i):.1f},{y(v + u):.1f}" for i, v, u in overall)
        lower = " ".join(f"{x(i):.1f},{y(max(low, v - u)):.1f}" for i, v, u in reversed(overall))
        parts.append(
            f'<polygon points="{upper} {lower}" fill="#1f5f8b" fill-opacity="0.08"><title>± uncertainty</title></polygon>'
        )
    for n, (label, points) in enumerate(series.items()):
        colour = COLOURS.get(label, "#333")
        line = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v, _ in points)
        parts.append(f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for i, v, _ in points[:-1] if len(points) < 40 else ():
            parts.append(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="2" fill="{colour}"/>')
        last_i, last_v, last_u = points[-1]
        parts.append(
            f'<circle cx="{x(last_i):.1f}" cy="{y(last_v):.1f}" r="3" fill="{colour}">'
            f"<title>{escape(label)}: {last_v} ± {last_u}</title></circle>"
        )
        legend_x, legend_y = 8 + (WIDTH // 2) * (n % 2), HEIGHT - 30 + 20 * (n // 2)
        parts.append(
            f'<rect x="{legend_x}" y="{legend_y - 6}" width="14" height="5" fill="{colour}"/>'
            f'<text x="{legend_x + 20}" y="{legend_y}" font-size="{FONT}" fill="#222">{escape(label)} {last_v}</text>'
        )
    axis_y = TOP + plot_h + 20
    parts.append(f'<text x="{LEFT}" y="{axis_y}" font-size="{FONT}" fill="#444">{escape(first_day)}</text>')
    parts.append(
        f'<text x="{WIDTH - RIGHT}" y="{axis_y}" font-size="{FONT}" fill="#444" text-anchor="end">'
        f"{escape(last_day)} (game {games})</text>"
    )
    parts.append("</svg>")
    return "\n".join(parts)
