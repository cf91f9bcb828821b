"""A cribbage board drawn as inline SVG, in two shapes: a long board and a folded one.

`board_html(tracks, target)` gives both, for a page: the long board (rows of 60 holes
for the game to 121, 30 for the game to 61, out and back like a classic long board)
shown on a wide screen, and the same board folded into rows of 15 for a phone, so that
neither ever scrolls sideways (static/css/board.css picks one by the screen's width).
`board_svg(tracks, target, folded=False)` draws one of them.

Each player (or partnership) has a track, laid out by games.board_geometry (where every hole,
row, turn and line stands); this module draws it. Holes are grouped in fives, every fifth is
numbered (5, 10, ... 120), a thin street line marks each quarter of the game and the
skunk lines are marked with their words: for the game to 121 the skunk line before 91
and the double skunk line before 61, for the game to 61 the skunk line before 31 and
no double skunk (the engine's `skunk_lines`). A skunk line's words stand on its band's numbers
strip, clear of every number, track and other word: the number beside them gives way.

Each track has its front peg (the score) and back peg (the score before the side's
last points), and the last points ("+7") are written on the track's row: between the
pegs, or beside them when they are close, never over the hole numbers. Nothing is told by
colour alone: the SVG has role="img" with a <title> and a <desc> giving every score in
words, each row carries its side's name (its first letters on the folded board) and every peg
its own <title>. The output is deterministic (same input, same bytes).

Each group of five holes is a <use> with `data-track` (0-based) and `data-holes`
("41-45" left to right on a row going out, "45-41" on one coming back); the start holes are
circles with data-hole="start" and the game hole one with data-hole=target. Pegs carry `data-peg` ("front"/"back"), `data-track` and `data-hole`
(0 for a start hole).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from games.board_geometry import EDGE, GUTTER, INLAY, PITCH, BoardGeometry, board_lines
from games.cribbage import FULL_GAME, skunk_lines

__all__ = ["board_html", "board_svg", "board_description", "DEFAULT_COLOURS"]

DEFAULT_COLOURS = ("#c0392b", "#1f5fa8", "#2e7d32", "#6a3d9a")

# In the geometry's units.
HOLE_R = 3.6
PEG_R = 5.0
FONT = 7.5
LABEL_GAP = 2
FOLDED_NAME = (
    6  # letters of a name beside a row of the folded board  # clear wood between a word and anything beside it
)

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


def board_svg(
    tracks: Iterable[Mapping], target: int = FULL_GAME, *, id_prefix: str = "board", folded: bool = False
) -> SafeString:
    """The board as an inline <svg> element (a SafeString, ready for a template).

    `tracks`: one dict per player or partnership, in seat order:
    {"name": str, "score": int, "previous": int, "colour": css colour}.
    Scores are clamped to 0..target; "previous" (the back peg) to 0..score.
    `target`: 121 or 61. `id_prefix` keeps element ids unique when a page shows more
    than one board; `folded` draws rows of 15 for a narrow screen.
    """
    ts = _tracks(tracks, target)
    g = BoardGeometry(target, len(ts), folded)
    ids = escape(id_prefix)
    skunk, double = skunk_lines(target)
    desc = board_description([t.__dict__ for t in ts], target) + f". Game to {target}; skunk line at {skunk}"
    desc += f", double skunk line at {double}." if double else "."
    shape = "folded" if folded else "long"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="cribbage-board board-{shape}" '
        f'viewBox="0 0 {_n(g.width)} {_n(g.height)}" preserveAspectRatio="xMidYMid meet" role="img" '
        f'aria-labelledby="{ids}-title {ids}-desc" data-target="{target}" data-shape="{shape}" '
        f'font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif">',
        f'<title id="{ids}-title">Cribbage board</title>',
        f'<desc id="{ids}-desc">{escape(desc)}</desc>',
    ]
    parts += _wood(g, ids)
    parts += _inlays(g, ts)
    words = _skunk_words(g)
    parts += _lines(g, words)
    parts += _numbers(g, words)
    parts += _holes(g, ids)
    parts += _names(g, ts)
    for t, track in enumerate(ts):
        parts += _pegs(g, ids, t, track)
    parts.append("</svg>")
    return mark_safe("\n".join(parts))


def board_html(tracks: Iterable[Mapping], target: int = FULL_GAME, *, id_prefix: str = "board") -> SafeString:
    """Both boards for a page, the long one and the folded one; board.css shows the one that fits.
    The same tracks draw the same bytes, so the boards drawn last are kept: a move that scores
    nothing, or the other player's look at the same table, draws nothing again."""
    return _board_pair(tuple(_tracks(tracks, target)), target, id_prefix)


@lru_cache(maxsize=128)
def _board_pair(tracks: tuple[_Track, ...], target: int, id_prefix: str) -> SafeString:
    plain = [t.__dict__ for t in tracks]
    return mark_safe(
        '<div class="board-pair">'
        + board_svg(plain, target, id_prefix=f"{id_prefix}-long")
        + board_svg(plain, target, id_prefix=f"{id_prefix}-folded", folded=True)
        + "</div>"
    )


def _wood(g: BoardGeometry, ids: str) -> list[str]:
    w, h = g.width, g.height
    out = [
        "<defs>",
        f'<linearGradient id="{ids}-wood" x1="0" y1="0" x2="0" y2="1">'
        '<stop offset="0" stop-color="#e2b574"/><stop offset=".45" stop-color="#d29c58"/>'
        '<stop offset="1" stop-color="#c38a47"/></linearGradient>',
        f'<radialGradient id="{ids}-shine" cx=".35" cy=".35" r=".7">'
        '<stop offset="0" stop-color="#fff" stop-opacity=".75"/>'
        '<stop offset=".5" stop-color="#fff" stop-opacity="0"/></radialGradient>',
        f'<g id="{ids}-five" fill="{HOLE_FILL}" stroke="#f3d9ad" stroke-width=".6">'
        + "".join(f'<circle cx="{i * PITCH}" cy="0" r="{HOLE_R}"/>' for i in range(5))
        + "</g>",
        "</defs>",
        f'<rect x="1" y="1" width="{_n(w - 2)}" height="{_n(h - 2)}" rx="10" '
        f'fill="url(#{ids}-wood)" stroke="{WOOD_EDGE}" stroke-width="2"/>',
    ]
    # Grain: a few gentle, fixed curves along the board.
    grain = []
    for i in range(6):
        y = 6 + i * (h - 12) / 5
        amp = 1.5 + (i * 7 % 4)
        d, x = f"M4 {_n(y)}", 4.0
        while x < w - 4:
            nx = min(x + 140, w - 4)
            d += f" Q{_n((x + nx) / 2)} {_n(y + (amp if (x // 140 + i) % 2 else -amp))} {_n(nx)} {_n(y)}"
            x = nx
        grain.append(f'<path d="{d}"/>')
    out.append(f'<g fill="none" stroke="#8a5a2b" stroke-opacity=".2" stroke-width=".8">{"".join(grain)}</g>')
    return out


def _inlays(g: BoardGeometry, ts: list[_Track]) -> list[str]:
    """A coloured inlay along each track: out of the start holes, round each turn, into the game hole."""
    out = []
    left, right = g.px(0), g.x_last
    for t, track in enumerate(ts):
        sx, sy = g.start(t, 0)
        d = f"M{_n(sx)} {_n(sy)}"
        for band in range(g.bands):
            forward = band % 2 == 0
            end = right if forward else left
            d += f" H{_n(end)}"
            if band < g.bands - 1:
                d += f" H{_n(g.turn(band, t))} V{_n(g.row_y(band + 1, t))} H{_n(end)}"
        d += f" H{_n(g.game_hole(t)[0])}"
        colour = escape(track.colour)
        out.append(
            f'<path d="{d}" fill="none" stroke="{colour}" stroke-opacity=".3" stroke-width="{INLAY}" '
            f'stroke-linecap="round" stroke-linejoin="round"/>'
        )
    return out


def _pill_width(text: str, size: float) -> float:
    """The width of the last points' pill ("+7"): snug round its digits."""
    return len(text) * size * 0.56


def _text_width(text: str, size: float = FONT, bold: bool = False) -> float:
    """A generous width for a word in the board's font, wide enough for the broadest of the
    fonts a browser may choose (DejaVu Sans Bold's digits are 0.7 em), so words placed by it never touch."""
    return len(text) * size * (0.7 if bold else 0.64)


def _turn_label_centre(g: BoardGeometry, k: int, x: float, width: float) -> float:
    """Where the words of the line drawn at a turn after hole k (at x) are centred, on the next band's strip.

    Centred on the line where the board's edge leaves room, else pulled in off the edge. Where the
    line crosses the strip between the two bands, the tracks turn across that strip too, so the
    words stay inside the turns, over the row's end."""
    band = g.column(k)[0]
    forward = band % 2 == 0  # the turn at the far end of the board
    crossed = band + 1 < g.bands - 1  # the next band's numbers are above it, between the bands
    turns = [g.turn(band, t) for t in range(g.n)]
    if forward:
        outer = min(turns) - INLAY / 2 if crossed else g.width - EDGE
        return min(x + width / 2, outer - LABEL_GAP) - width / 2
    outer = max(turns) + INLAY / 2 if crossed else EDGE + GUTTER[g.folded]
    return max(x - width / 2, outer + LABEL_GAP) + width / 2


@dataclass(frozen=True)
class _Words:
    """The words of the skunk line after hole `after`, centred at x on a band's numbers strip and `width` wide."""

    after: int
    text: str
    x: float
    band: int
    width: float

    def covers(self, band: int, x: float, width: float) -> bool:
        """Whether these words would touch something `width` wide centred at x on the band's strip."""
        return band == self.band and abs(x - self.x) < (width + self.width) / 2 + LABEL_GAP


def _skunk_words(g: BoardGeometry) -> list[_Words]:
    out = []
    for k, kind in sorted(board_lines(g.target).items()):
        if kind == "street":
            continue
        x, _, _, band = g.line(k)
        text = f"{'double skunk' if kind == 'double_skunk' else 'skunk'} {k + 1}"
        width = _text_width(text, bold=True)
        out.append(_Words(k, text, x if k % g.per_row else _turn_label_centre(g, k, x, width), band, width))
    return out


def _lines(g: BoardGeometry, words: list[_Words]) -> list[str]:
    """The street lines and the skunk lines, each across the rows it divides, the skunk lines named."""
    out = ['<g class="lines">']
    for k, kind in sorted(board_lines(g.target).items()):
        x, y1, y2, _ = g.line(k)
        if kind == "street":
            style = f'stroke="{INK}" stroke-width="1" stroke-opacity=".7"'
        else:
            style = f'stroke="{SKUNK}" stroke-width="1.8" stroke-dasharray="3.5 1.5"'
        cls = "street-line" if kind == "street" else f"skunk-line {kind.replace('_', '-')}-line"
        out.append(
            f'<line class="{cls}" data-after="{k}" x1="{_n(x)}" y1="{_n(y1)}" x2="{_n(x)}" y2="{_n(y2)}" {style}/>'
        )
        for w in (w for w in words if w.after == k):
            out.append(
                f'<text class="skunk-label" x="{_n(w.x)}" y="{_n(g.numbers_y(w.band))}" text-anchor="middle" '
                f'font-size="{FONT}" font-weight="700" fill="{SKUNK}">{w.text}</text>'
            )
    out.append("</g>")
    return out


def _numbers(g: BoardGeometry, words: list[_Words]) -> list[str]:
    """Every fifth hole numbered beside its band, "start" at the start holes and the target at the game hole."""
    streets = {k for k, kind in board_lines(g.target).items() if kind == "street"}
    out = [f'<g class="numbers" font-size="{FONT}" fill="{INK}" text-anchor="middle">']
    for n in range(5, g.target, 5):
        band, col = g.column(n)
        x, width = g.px(col), _text_width(str(n), bold=n in streets)
        if any(w.covers(band, x, width) for w in words):
            continue  # a skunk line's words stand there
        bold = ' font-weight="700"' if n in streets else ""
        out.append(f'<text x="{_n(x)}" y="{_n(g.numbers_y(band))}"{bold}>{n}</text>')
    sx = g.start(0, 0)[0] + PITCH / 2
    out.append(f'<text x="{_n(sx)}" y="{_n(g.numbers_y(0))}">start</text>')
    gx = g.game_hole(0)[0]
    out.append(f'<text x="{_n(gx)}" y="{_n(g.numbers_y(g.bands - 1))}" font-weight="700">{g.target}</text>')
    out.append("</g>")
    return out


def _holes(g: BoardGeometry, ids: str) -> list[str]:
    out = [f'<g class="holes" fill="{HOLE_FILL}" stroke="#f3d9ad" stroke-width=".6">']
    for t in range(g.n):
        for i in range(2):
            x, y = g.start(t, i)
            out.append(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{HOLE_R}" data-track="{t}" data-hole="start"/>')
        for first in range(1, g.target, 5):
            band, col = g.column(first)
            left, right = (first, first + 4) if band % 2 == 0 else (first + 4, first)
            out.append(
                f'<use href="#{ids}-five" x="{_n(g.px(g.column(left)[1]))}" y="{_n(g.row_y(band, t))}" '
                f'data-track="{t}" data-holes="{left}-{right}"/>'
            )
        x, y = g.game_hole(t)
        out.append(
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{HOLE_R + 1}" stroke="#7a4a12" stroke-width="1.4" '
            f'data-track="{t}" data-hole="{g.target}"/>'
        )
    out.append("</g>")
    return out


def _names(g: BoardGeometry, ts: list[_Track]) -> list[str]:
    """Each row's side: its name on the long board, its first letters on the folded one (a phone's),
    beside a dot of its colour."""
    out = ['<g class="names">']
    for t, track in enumerate(ts):
        colour, name = escape(track.colour), track.name
        out.append(f'<g class="name" data-track="{t}">')
        for band in range(g.bands):
            y = g.row_y(band, t)
            if g.folded:
                short = name if len(name) <= FOLDED_NAME else name[: FOLDED_NAME - 1] + "…"
                out.append(
                    f'<circle cx="{EDGE + 3.5}" cy="{_n(y)}" r="3" fill="{colour}" stroke="{INK}" stroke-width=".6"/>'
                    f'<text x="{EDGE + 8}" y="{_n(y + 2.5)}" font-size="7" font-weight="700" '
                    f'fill="{INK}">{escape(short)}</text>'
                )
            else:
                short = name if len(name) <= 15 else name[:14] + "…"
                out.append(
                    f'<circle cx="{EDGE + 5}" cy="{_n(y)}" r="3.6" fill="{colour}" stroke="{INK}" stroke-width=".6"/>'
                    f'<text x="{EDGE + 12}" y="{_n(y + 2.7)}" font-size="{FONT}" font-weight="700" '
                    f'fill="{INK}">{escape(short)}</text>'
                )
        out.append("</g>")
    out.append("</g>")
    return out


def _peg(ids: str, t: int, track: _Track, which: str, hole: int, xy: tuple[float, float]) -> str:
    x, y = xy
    title = f"{track.name}: {which} peg at {hole}" if hole else f"{track.name}: {which} peg at the start"
    r = PEG_R if which == "front" else PEG_R - 0.7
    return (
        f'<g class="peg {which}" data-peg="{which}" data-track="{t}" data-hole="{hole}">'
        f"<title>{escape(title)}</title>"
        f'<ellipse cx="{_n(x + 1)}" cy="{_n(y + 1.3)}" rx="{_n(r)}" ry="{_n(r - 0.8)}" fill="#000" fill-opacity=".3"/>'
        f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" fill="{escape(track.colour)}" stroke="#1a1a1a" '
        f'stroke-width="1"/><circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" fill="url(#{ids}-shine)"/>'
        "</g>"
    )


def _pegs(g: BoardGeometry, ids: str, t: int, track: _Track) -> list[str]:
    back = g.start(t, 0) if track.previous == 0 else g.hole(t, track.previous)
    front = g.start(t, 1) if track.score == 0 else g.hole(t, track.score)
    out = [_peg(ids, t, track, "back", track.previous, back), _peg(ids, t, track, "front", track.score, front)]
    points = track.score - track.previous
    if points > 0:
        text = f"+{points}"
        w = _pill_width(text, 7) + 4
        x, y = _last_points_at(g, t, track, back, front, w)
        out.append(
            f'<g class="last-points" data-track="{t}"><rect x="{_n(x - w / 2)}" y="{_n(y - 4.5)}" width="{_n(w)}" '
            f'height="9" rx="4.5" fill="#fffaf0" stroke="{escape(track.colour)}" stroke-width="1"/>'
            f'<text x="{_n(x)}" y="{_n(y + 2.5)}" font-size="7" font-weight="700" fill="{INK}" '
            f'text-anchor="middle">{text}</text></g>'
        )
    return out


def _last_points_at(
    g: BoardGeometry, t: int, track: _Track, back: tuple[float, float], front: tuple[float, float], w: float
) -> tuple[float, float]:
    """Where the last points' label (`w` wide) is centred: always on the front peg's own row, so it
    never covers the hole numbers (in the strips between the bands) nor another track's row.
    Between the pegs when there is room; else just ahead of the front peg; where that would run
    off the board (the game hole), just behind the pegs."""
    x, y = front
    if back[1] == y and abs(back[0] - x) >= 3 * PITCH:
        return (back[0] + x) / 2, y
    ahead = 1 if g.column(min(track.score, g.target - 1))[0] % 2 == 0 else -1  # the way the row runs
    clear = PEG_R + 1.5 + w / 2
    left, right = EDGE + GUTTER[g.folded] + 2 + w / 2, g.width - EDGE - 2 - w / 2
    if left <= x + ahead * clear <= right:
        return x + ahead * clear, y
    behind = back[0] if back[1] == y else x  # the back peg is behind the front one on their row
    return behind - ahead * clear, y
