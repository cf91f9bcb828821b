"""Where everything on the cribbage board stands: its holes, rows, bands, turns and lines.

The board's shape, in SVG user units (the CSS scales the whole board to the width it is given),
for the long board (rows of 60 holes for the game to 121, 30 for the game to 61, out and back)
and the folded one (rows of 15). Each track runs along one row of each band of rows, the bands
alternating in direction, and the tracks turn round each other at the band's end the way they
do on a wooden board; the numbers stand on a strip above each band (below the last).
games.board draws it; `hole_centre` tells where any hole is drawn.
"""

from __future__ import annotations

from games.cribbage import FULL_GAME, SHORT_GAME, TARGETS, skunk_lines

__all__ = ["BoardGeometry", "board_lines", "hole_centre"]

PITCH = 10  # neighbouring holes
GROUP_GAP = 6  # extra space between groups of five
ROW = 15  # one track's row to the next track's row within a band
STRIP = 15  # the numbers above (or below) a band
BAND_GAP = 9  # between two bands where no numbers run
EDGE = 7  # wood around everything
START_AREA = 2 * PITCH + GROUP_GAP + 12  # the two start holes (and a game hole) before hole 1
END_AREA = PITCH + GROUP_GAP + 16  # the turns (and a game hole) after the last hole of a row
GUTTER = {False: 78, True: 38}  # names beside each row: the whole name, or its first letters
FOLDED_ROW = 15  # holes in a row of the folded board: few enough for holes a phone shows large
INLAY = 10  # the width of a track's coloured inlay
TURN = 6  # how far past a row's end the innermost track turns
NEST = 3.5  # each track further out at a turn


def board_lines(target: int) -> dict[int, str]:
    """The lines drawn across the board, by the hole they follow: "skunk", "double_skunk" or "street".

    {90: "skunk", 60: "double_skunk", 30: "street"} for the game to 121 (a loser short of
    91 is skunked, short of 61 double skunked); {30: "skunk", 15: "street", 45: "street"} for 61.
    """
    skunk, double = skunk_lines(target)
    quarter = (target - 1) // 4
    lines = {k: "street" for k in range(quarter, target - 1, quarter)}
    lines[skunk - 1] = "skunk"
    if double is not None:
        lines[double - 1] = "double_skunk"
    return lines


class BoardGeometry:
    """One board's shape: for a game to `target`, with `n_tracks` tracks, long or folded."""

    def __init__(self, target: int, n_tracks: int, folded: bool):
        if target not in TARGETS:
            raise ValueError(f"A board is for a game to {FULL_GAME} or {SHORT_GAME}, not {target}")
        self.target, self.n, self.folded = target, n_tracks, folded
        self.per_row = FOLDED_ROW if folded else (target - 1) // 2  # 15, or 60 / 30
        self.bands = (target - 1) // self.per_row
        self.x0 = EDGE + GUTTER[folded] + START_AREA
        self.x_last = self.px(self.per_row - 1)
        self.width = self.x_last + END_AREA + EDGE
        self.tops: list[float] = []  # y of each band's first row
        y: float = EDGE
        for b in range(self.bands):
            y += STRIP if b < self.bands - 1 else BAND_GAP if b else STRIP
            self.tops.append(y + PITCH / 2)
            y = self.tops[-1] + (n_tracks - 1) * ROW + PITCH / 2
        self.height = y + STRIP + EDGE

    def px(self, col: float) -> float:
        """x of column col (0-based; a half column falls halfway across a group gap)."""
        whole = int(col)
        x = self.x0 + col * PITCH + (whole // 5) * GROUP_GAP
        if col != whole and whole % 5 == 4:
            x += GROUP_GAP / 2
        return x

    def position(self, band: int, t: int) -> int:
        """Track t's place in a band, counted from its top: the order flips each band, so tracks nest at the turns."""
        return t if band % 2 == 0 else self.n - 1 - t

    def row_y(self, band: int, t: int) -> float:
        return self.tops[band] + self.position(band, t) * ROW

    def band_bottom(self, band: int) -> float:
        return self.tops[band] + (self.n - 1) * ROW

    def column(self, n: int) -> tuple[int, int]:
        """(band, column) of playing hole n (1..target-1)."""
        band, i = divmod(n - 1, self.per_row)
        return band, i if band % 2 == 0 else self.per_row - 1 - i

    def hole(self, t: int, n: int) -> tuple[float, float]:
        """Centre of hole n (0 = the front start hole, 1..target) on track t."""
        if n <= 0:
            return self.start(t, 1)
        if n >= self.target:
            return self.game_hole(t)
        band, col = self.column(n)
        return self.px(col), self.row_y(band, t)

    def start(self, t: int, i: int) -> tuple[float, float]:
        """Start hole i (0 = outer, 1 = next to hole 1)."""
        return self.x0 - 2 * PITCH - GROUP_GAP + i * PITCH, self.row_y(0, t)

    def game_hole(self, t: int) -> tuple[float, float]:
        last = self.bands - 1
        if last % 2:  # the last row runs back to the start end
            return self.x0 - 1.5 * PITCH - GROUP_GAP, self.row_y(last, t)
        return self.x_last + PITCH + GROUP_GAP, self.row_y(last, t)

    def turn(self, band: int, t: int) -> float:
        """x of track t's turn from `band` into the next, outside the row's end: the inner track turns first."""
        if band % 2 == 0:
            return self.x_last + TURN + NEST * (self.n - 1 - self.position(band, t))
        return self.px(0) - TURN - NEST * self.position(band, t)

    def line(self, k: int) -> tuple[float, float, float, int]:
        """The line after hole k: its x, its top and bottom, and the band on whose numbers strip its words stand.

        Inside a row it is between holes k and k + 1, across that band; at a turn it is just past
        the last hole of one band, across that band and the next, and its words go with the next."""
        band, col = self.column(k)
        if k % self.per_row:
            x = self.px((col + self.column(k + 1)[1]) / 2)
            return x, self.tops[band] - 7, self.band_bottom(band) + 7, band
        x = self.x_last + PITCH * 0.7 if band % 2 == 0 else self.px(0) - PITCH * 0.7
        return x, self.tops[band] - 7, self.band_bottom(band + 1) + 7, band + 1

    def numbers_y(self, band: int) -> float:
        """Baseline of a band's hole numbers: above it, below the last band."""
        if band == self.bands - 1:
            return self.band_bottom(band) + PITCH / 2 + 9
        return self.tops[band] - PITCH / 2 - 4


def hole_centre(target: int, n_tracks: int, track: int, hole: int, folded: bool = False) -> tuple[float, float]:
    """Where hole `hole` (0: the front start hole) of a track is drawn, in the SVG's units."""
    x, y = BoardGeometry(target, n_tracks, folded).hole(track, hole)
    return round(x, 1), round(y, 1)
