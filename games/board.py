"""A cribbage board drawn as inline SVG.

`board_svg(tracks, target=121)` draws a long wooden board the way a classic
"out and back" board is made: each player (or partnership) has a track of two
rows. The pegs leave the two start holes, go out along the first row, turn at
the far end, come back along the second row and finish in the game hole next
to where they started. Holes are grouped in fives; street lines mark every
quarter of the game (30, 60, 90 on a 121 board) and the skunk line sits
between holes 90 and 91 (30 and 31 on a 61 board).

Each track carries its player's front peg (the current score) and back peg
(the score before the last peg). Nothing is told by colour alone: the SVG has
role="img" with a <title> and a <desc> giving every score in words, each
track has its name beside it, and every peg has its own <title>.

The output is deterministic (same input, same bytes) so pages can be cached
and tests can compare it.

Every hole carries `data-track` (0-based) and `data-hole`: "start" for the two
start holes, 1..target for the playing holes, the last of which (target) is
the game hole. Pegs carry `data-peg` ("front"/"back"), `data-track` and
`data-hole` (0 for a start hole).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from games.cribbage import FULL_GAME, SHORT_GAME, TARGETS, skunk_lines

__all__ = ["board_svg", "board_description", "DEFAULT_COLOURS", "TARGETS"]

DEFAULT_COLOURS = ("#c0392b", "#1f5fa8", "#2e7d32", "#6a3d9a")

# Geometry, in SVG user units.
PITCH = 13  # distance between neighbouring holes
GROUP_GAP = 9  # extra space between groups of five
ROW_GAP = 18  # out row to back row of one track
TRACK_GAP = 22  # back row of one track to out row of the next
HOLE_R = 3
PEG_R = 5.2
LEGEND_W = 150  # room for the names at the left
START_W = 44  # room for the start and game holes
TOP = 34  # top margin (hole numbers)
BOTTOM = 34  # bottom margin (hole numbers)
RIGHT = 38  # room for the turn at the far end

WOOD_EDGE = "#6b3f17"
HOLE_FILL = "#2b1a0c"
INK = "#2a1707"  # text on the light wood: contrast well above 7:1
SKUNK = "#8b1a10"


def _n(x: float) -> str:
    """A coordinate written compactly and always the same way."""
    x = round(x, 1)
    return str(int(x)) if x == int(x) else f"{x:.1f}"


@dataclass(frozen=True)
class _Track:
    name: str
    score: int
    previous: int
    colour: str


def _tracks(tracks: Iterable[Mapping], target: int) -> list[_Track]:
    result = []
    for i, t in enumerate(tracks):
        score = max(0, min(int(t.get("score") or 0), target))
        previous = max(0, min(int(t.get("previous", 0) or 0), score))
        name = str(t.get("name") or f"Player {i + 1}")
        colour = str(t.get("colour") or t.get("color") or DEFAULT_COLOURS[i % len(DEFAULT_COLOURS)])
        result.append(_Track(name, score, previous, colour))
    if not result:
        raise ValueError("A board needs at least one track")
    return result


def board_description(tracks: Iterable[Mapping], target: int = FULL_GAME) -> str:
    """The scores in words, e.g. "Alice 45 (was 38), Bob 60 (was 52)"."""
    parts = []
    for t in _tracks(tracks, target):
        text = f"{t.name} {t.score} (was {t.previous})"
        if t.score >= target:
            text += ", game"
        parts.append(text)
    return ", ".join(parts)


class _Geometry:
    def __init__(self, target: int, n_tracks: int):
        if target not in TARGETS:
            raise ValueError(f"A board is for a game to {FULL_GAME} or {SHORT_GAME}, not {target}")
        self.target = target
        self.ids = ""  # the id prefix of the board's elements
        self.row = (target - 1) // 2  # holes in one row: 60 or 30
        self.groups = self.row // 5
        self.x0 = LEGEND_W + START_W  # x of the first hole of a row
        self.x_last = self.px(self.row - 1)
        self.width = self.x_last + RIGHT
        self.n_tracks = n_tracks
        self.height = TOP + n_tracks * ROW_GAP + (n_tracks - 1) * TRACK_GAP + BOTTOM

    def px(self, p: int | float) -> float:
        """x of position p (0-based, may be fractional) along a row."""
        whole = int(p)
        x = self.x0 + p * PITCH + (whole // 5) * GROUP_GAP
        if p != whole and whole % 5 == 4:  # halfway across a group gap
            x += GROUP_GAP / 2
        return x

    def y_out(self, t: int) -> float:
        return TOP + t * (ROW_GAP + TRACK_GAP)

    def y_back(self, t: int) -> float:
        return self.y_out(t) + ROW_GAP

    def hole(self, t: int, n: int) -> tuple[float, float]:
        """Centre of hole n (0 = front start hole, 1..target) on track t."""
        if n <= 0:
            return self.start(t, 1)
        if n <= self.row:
            return self.px(n - 1), self.y_out(t)
        if n < self.target:
            return self.px(2 * self.row - n), self.y_back(t)
        return self.game_hole(t)

    def start(self, t: int, i: int) -> tuple[float, float]:
        """Start hole i (0 = outer, 1 = next to hole 1)."""
        return self.x0 - 2 * PITCH - GROUP_GAP + i * PITCH, self.y_out(t)

    def game_hole(self, t: int) -> tuple[float, float]:
        return self.x0 - PITCH - GROUP_GAP + 2, self.y_back(t)

    def between(self, k: int) -> tuple[str, float]:
        """Where the line between hole k and k+1 goes: ("out"|"back"|"turn", x)."""
        if k < self.row:
            return "out", self.px(k - 0.5)
        if k == self.row:
            return "turn", self.x_last + PITCH
        return "back", self.px(2 * self.row - k - 0.5)


def _wood(g: _Geometry, ids: str) -> list[str]:
    w, h = g.width, g.height
    out = [
        "<defs>",
        f'<linearGradient id="{ids}-wood" x1="0" y1="0" x2="0" y2="1">'
        '<stop offset="0" stop-color="#e2b574"/><stop offset=".45" stop-color="#d29c58"/>'
        '<stop offset="1" stop-color="#c38a47"/></linearGradient>',
        f'<radialGradient id="{ids}-peg" cx=".35" cy=".35" r=".7">'
        '<stop offset="0" stop-color="#fff" stop-opacity=".75"/>'
        '<stop offset=".5" stop-color="#fff" stop-opacity="0"/></radialGradient>',
        "</defs>",
        f'<rect x="1.5" y="1.5" width="{_n(w - 3)}" height="{_n(h - 3)}" rx="16" '
        f'fill="url(#{ids}-wood)" stroke="{WOOD_EDGE}" stroke-width="3"/>',
    ]
    # Grain: gentle, fixed curves along the board.
    grain = []
    for i in range(9):
        y = 8 + i * (h - 16) / 8
        amp = 2.5 + (i * 7 % 5)
        phase = (i * 37) % 120
        d = f"M6 {_n(y)}"
        x: float = 6
        step = 130
        while x < w - 6:
            nx = min(x + step, w - 6)
            d += f" Q{_n((x + nx) / 2 + phase % 40 - 20)} {_n(y + (amp if (x // step + i) % 2 else -amp))} {_n(nx)} {_n(y)}"
            x = nx
        grain.append(f'<path d="{d}"/>')
    out.append(f'<g fill="none" stroke="#8a5a2b" stroke-opacity=".22" stroke-width="1.1">{"".join(grain)}</g>')
    return out


def board_svg(tracks: Iterable[Mapping], target: int = FULL_GAME, *, id_prefix: str = "board") -> SafeString:
    """The board as an inline <svg> element (a SafeString, ready for a template).

    `tracks`: one dict per player or partnership, in seat order:
    {"name": str, "score": int, "previous": int, "colour": css colour}.
    Scores are clamped to 0..target; "previous" (the back peg) to 0..score.
    `target`: 121 or 61. `id_prefix` keeps element ids unique when a page
    shows more than one board.
    """
    ts = _tracks(tracks, target)
    g = _Geometry(target, len(ts))
    ids = g.ids = escape(id_prefix)
    desc = board_description([t.__dict__ for t in ts], target)
    desc += f". Game to {target}; skunk line at {skunk_lines(target)[0]}."
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="cribbage-board" '
        f'viewBox="0 0 {_n(g.width)} {_n(g.height)}" width="{_n(g.width * 1.15)}" '
        f'preserveAspectRatio="xMidYMid meet" role="img" '
        f'aria-labelledby="{ids}-title {ids}-desc" data-target="{target}">',
        f'<title id="{ids}-title">Cribbage board</title>',
        f'<desc id="{ids}-desc">{escape(desc)}</desc>',
    ]
    parts += _wood(g, ids)
    parts += _tracks_inlay(g, ts)
    parts += _lines(g)
    parts += _numbers(g)
    for t in range(len(ts)):
        parts += _holes(g, t)
    for t, track in enumerate(ts):
        parts += _legend(g, t, track)
    for t, track in enumerate(ts):
        parts += _pegs(g, t, track)
    parts.append("</svg>")
    return mark_safe("\n".join(parts))


def _tracks_inlay(g: _Geometry, ts: list[_Track]) -> list[str]:
    """A coloured inlay along each track: out, round the turn, back to the game hole."""
    out = []
    r = ROW_GAP / 2
    for t, track in enumerate(ts):
        sx, sy = g.start(t, 0)
        gx, gy = g.game_hole(t)
        xe = g.x_last
        d = f"M{_n(sx)} {_n(sy)} H{_n(xe)} A{_n(r)} {_n(r)} 0 0 1 {_n(xe)} {_n(sy + ROW_GAP)} H{_n(gx)}"
        out.append(
            f'<path d="{d}" fill="none" stroke="{escape(track.colour)}" '
            f'stroke-opacity=".32" stroke-width="13" stroke-linecap="round"/>'
        )
        out.append(f'<path d="{d}" fill="none" stroke="{escape(track.colour)}" stroke-opacity=".7" stroke-width="1"/>')
    return out


def _lines(g: _Geometry) -> list[str]:
    """Street lines at each quarter of the game and the skunk line."""
    quarter = (g.target - 1) // 4
    skunk = skunk_lines(g.target)[0] - 1  # the line between 90 and 91 (30 and 31)
    marks = [(k, k == skunk) for k in range(quarter, g.target - 1, quarter)]
    if skunk not in {k for k, _ in marks}:
        marks.append((skunk, True))
    out = ['<g class="streets">']
    for k, is_skunk in sorted(marks):
        where, x = g.between(k)
        style = (
            f'stroke="{SKUNK}" stroke-width="2.2" stroke-dasharray="4 2"'
            if is_skunk
            else f'stroke="{INK}" stroke-width="1.2" stroke-opacity=".75"'
        )
        cls = "skunk-line" if is_skunk else "street-line"
        for t in range(g.n_tracks):
            if where == "out":
                y1, y2 = g.y_out(t) - 8, g.y_out(t) + 8
            elif where == "back":
                y1, y2 = g.y_back(t) - 8, g.y_back(t) + 8
            else:
                y1, y2 = g.y_out(t) - 8, g.y_back(t) + 8
            out.append(
                f'<line class="{cls}" data-after="{k}" x1="{_n(x)}" y1="{_n(y1)}" x2="{_n(x)}" y2="{_n(y2)}" {style}/>'
            )
        label = f"skunk {k + 1}" if is_skunk else str(k)
        if where == "out":
            ly = TOP - 14
        else:
            ly = g.height - BOTTOM + 22
        anchor = "middle"
        if where == "turn":
            ly = g.height - BOTTOM + 22
            x, anchor = g.width - 8, "end"
        colour = SKUNK if is_skunk else INK
        out.append(
            f'<text x="{_n(x)}" y="{_n(ly)}" text-anchor="{anchor}" font-size="10" '
            f'font-weight="700" fill="{colour}">{label}</text>'
        )
    out.append("</g>")
    return out


def _numbers(g: _Geometry) -> list[str]:
    """Hole numbers along the edges: the out row above, the back row below."""
    step = 10 if g.target == FULL_GAME else 5
    quarter = (g.target - 1) // 4
    skip = set(range(quarter, g.target, quarter))  # already labelled by a line
    out = [f'<g font-size="9" fill="{INK}" fill-opacity=".85" text-anchor="middle">']
    for n in range(step, g.row + 1, step):
        if n in skip:
            continue
        x, _ = g.hole(0, n)
        out.append(f'<text x="{_n(x)}" y="{TOP - 14}">{n}</text>')
    for n in range(g.row + step, g.target - 1, step):
        if n in skip or n == skunk_lines(g.target)[0] - 1:
            continue
        x, _ = g.hole(0, n)
        out.append(f'<text x="{_n(x)}" y="{_n(g.height - BOTTOM + 22)}">{n}</text>')
    gx, _ = g.game_hole(0)
    out.append(f'<text x="{_n(gx)}" y="{_n(g.height - BOTTOM + 22)}" font-weight="700">{g.target}</text>')
    sx, _ = g.start(0, 0)
    out.append(f'<text x="{_n(sx + PITCH / 2)}" y="{TOP - 14}">start</text>')
    out.append("</g>")
    return out


def _holes(g: _Geometry, t: int) -> list[str]:
    out = [f'<g class="holes" fill="{HOLE_FILL}" stroke="#f3d9ad" stroke-width=".7">']
    for i in range(2):
        x, y = g.start(t, i)
        out.append(f'<circle class="start" cx="{_n(x)}" cy="{_n(y)}" r="{HOLE_R}" data-track="{t}" data-hole="start"/>')
    for n in range(1, g.target):
        x, y = g.hole(t, n)
        out.append(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{HOLE_R}" data-track="{t}" data-hole="{n}"/>')
    x, y = g.game_hole(t)
    out.append(
        f'<circle class="game" cx="{_n(x)}" cy="{_n(y)}" r="{HOLE_R + 1.2}" '
        f'stroke="#7a4a12" stroke-width="1.6" data-track="{t}" data-hole="{g.target}"/>'
    )
    out.append("</g>")
    return out


def _legend(g: _Geometry, t: int, track: _Track) -> list[str]:
    name = track.name if len(track.name) <= 16 else track.name[:15] + "…"
    y = (g.y_out(t) + g.y_back(t)) / 2
    colour = escape(track.colour)
    return [
        f'<g class="legend" data-track="{t}">',
        f'<circle cx="18" cy="{_n(y)}" r="6" fill="{colour}" stroke="{INK}" stroke-width="1"/>',
        f'<text x="30" y="{_n(y - 2)}" font-size="11" font-weight="700" fill="{INK}">{escape(name)}</text>',
        f'<text x="30" y="{_n(y + 10)}" font-size="10" fill="{INK}">'
        f'{track.score} <tspan fill-opacity=".8">(was {track.previous})</tspan></text>',
        "</g>",
    ]


def _peg(g: _Geometry, t: int, track: _Track, which: str, hole: int, xy) -> str:
    x, y = xy
    colour = escape(track.colour)
    title = f"{track.name}: {which} peg at {hole}" if hole else f"{track.name}: {which} peg at the start"
    r = PEG_R if which == "front" else PEG_R - 0.8
    return (
        f'<g class="peg {which}" data-peg="{which}" data-track="{t}" data-hole="{hole}">'
        f"<title>{escape(title)}</title>"
        f'<ellipse cx="{_n(x + 1.2)}" cy="{_n(y + 1.6)}" rx="{_n(r)}" ry="{_n(r - 1)}" fill="#000" fill-opacity=".3"/>'
        f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" fill="{colour}" stroke="#1a1a1a" stroke-width="1.2"/>'
        f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" fill="url(#{g.ids}-peg)"/>'
        "</g>"
    )


def _pegs(g: _Geometry, t: int, track: _Track) -> list[str]:
    back_xy = g.start(t, 0) if track.previous == 0 else g.hole(t, track.previous)
    front_xy = g.start(t, 1) if track.score == 0 else g.hole(t, track.score)
    return [_peg(g, t, track, "back", track.previous, back_xy), _peg(g, t, track, "front", track.score, front_xy)]
