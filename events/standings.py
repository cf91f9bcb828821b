"""An event's table from its finished games: pure arithmetic over frozen values, for every event
app (a ladder's season, a league, a duplicate event).

`tally` counts each player's games: game points (a win, a skunk, a double skunk and a forfeit
each worth what the event's `Values` say), skunks and the points spread. `ranked` orders the
rows by tie-breaks given by name (TIE_BREAKS), each deciding among the rows level on those
before it, and says on each row which one put it ahead of the next.

A league orders by game points, then head to head (the game points the tied players took from
one another), then the points spread, then entry order (`LEAGUE`). A duplicate event compares
each player with the field that held the same cards: on each board (a round's deals, from one
seat) a player's margin (own score less the opponent's) less the average margin of the others
who held that seat on those deals (`DUPLICATE`). A ladder's points table orders by game points,
then wins, then spread, then the ladder's positions (`POINTS_TABLE`, the ACC's tie-breaks). An ACC
club night's season orders by Grass Roots Points (earned night by night:
tournaments.grass_roots), then game points, then spread (`CLUB_NIGHT`).
"""

import csv
import dataclasses
import io
from dataclasses import dataclass, replace
from fractions import Fraction


@dataclass(frozen=True)
class Values:
    """Game points for each kind of win (a loss is worth nothing)."""

    win: int = 1
    skunk: int = 2
    double_skunk: int = 2
    forfeit: int = 1

    def of(self, kind):
        return {"win": self.win, "skunk": self.skunk, "double_skunk": self.double_skunk, "forfeit": self.forfeit}[kind]


# The scoring presets every event app offers, by the name its `scoring` field stores.
PRESETS = {
    "games": Values(win=1, skunk=2, double_skunk=2, forfeit=1),
    "games_double": Values(win=1, skunk=2, double_skunk=3, forfeit=1),
    "acc": Values(win=2, skunk=3, double_skunk=3, forfeit=2),
}


@dataclass(frozen=True)
class Result:
    """A finished game: who sat in seats 0 and 1, the final scores, the winner and how.

    `kind`: "win", "skunk", "double_skunk" or "forfeit". `deals`: the cards it was played
    on (a duplicate round), or None. `points`: the game points the win was counted for when
    the event fixed them as the game ended (a ladder), or None: what the values say.
    """

    seat0: object
    seat1: object
    score0: int
    score1: int
    winner: object
    kind: str = "win"
    deals: object = None
    points: int | None = None

    def __post_init__(self):
        if self.winner not in (self.seat0, self.seat1):
            raise ValueError("The winner must be one of the two players.")
        if self.kind not in ("win", "skunk", "double_skunk", "forfeit"):
            raise ValueError(f"Unknown kind of win: {self.kind!r}")

    @property
    def loser(self):
        return self.seat1 if self.winner == self.seat0 else self.seat0

    def score_of(self, player):
        return self.score0 if player == self.seat0 else self.score1

    def margin_of(self, player):
        other = self.seat1 if player == self.seat0 else self.seat0
        return self.score_of(player) - self.score_of(other)


@dataclass(frozen=True)
class Row:
    player: object
    place: int = 0
    played: int = 0
    won: int = 0
    lost: int = 0
    points: int = 0
    skunks_given: int = 0
    skunks_taken: int = 0
    points_for: int = 0
    points_against: int = 0
    field: Fraction = Fraction(0)
    boards: int = 0
    # A club night's season: Grass Roots Points over its nights, and the nights played.
    grass_roots: int = 0
    nights: int = 0
    # Why this row is above the next one when their points are level, for the page.
    tie_break: str = ""
    head_to_head: dict = dataclasses.field(default_factory=dict, compare=False, hash=False)

    @property
    def spread(self):
        return self.points_for - self.points_against


SKUNKS = ("skunk", "double_skunk")


def tally(players, results, values=Values()):
    """{player: Row} counting `results` for each of `players` (unplaced, no tie-break yet)."""
    rows = {p: Row(player=p) for p in players}
    h2h = {p: {} for p in players}
    for r in results:
        for me in (r.seat0, r.seat1):
            if me not in rows:
                raise ValueError(f"{me!r} played but is not an entrant.")
            other = r.seat1 if me == r.seat0 else r.seat0
            won = me == r.winner
            gained = (values.of(r.kind) if r.points is None else r.points) if won else 0
            row = rows[me]
            rows[me] = replace(
                row,
                played=row.played + 1,
                won=row.won + won,
                lost=row.lost + (not won),
                points=row.points + gained,
                skunks_given=row.skunks_given + (won and r.kind in SKUNKS),
                skunks_taken=row.skunks_taken + ((not won) and r.kind in SKUNKS),
                points_for=row.points_for + r.score_of(me),
                points_against=row.points_against + r.score_of(other),
            )
            h2h[me][other] = h2h[me].get(other, 0) + gained
    return {p: replace(row, head_to_head=h2h[p]) for p, row in rows.items()}


def _head_to_head(row, level):
    """The game points `row`'s player took from the players of the rows `level` with it."""
    tied = {other.player for other in level}
    return sum(points for other, points in row.head_to_head.items() if other in tied)


# A tie-break's name, as the page says it, and what it compares (higher is better) for a row
# among the rows level with it on the tie-breaks before.
TIE_BREAKS = {
    "grass roots points": lambda row, level: row.grass_roots,
    "game points": lambda row, level: row.points,
    "against the field": lambda row, level: row.field,
    "head to head": _head_to_head,
    "wins": lambda row, level: row.won,
    "spread": lambda row, level: row.spread,
}
ENTRY_ORDER = "entry order"  # always the last: the order `players` were given in

LEAGUE = ("game points", "head to head", "spread")
DUPLICATE = ("against the field", "game points", "spread")
POINTS_TABLE = ("game points", "wins", "spread")
CLUB_NIGHT = ("grass roots points", "game points", "spread")


def _ordered(rows, names, entry):
    """[(row, why it is ahead of the next row, or "" where a tie-break before decided)]."""
    if not names:
        ordered = sorted(rows, key=lambda r: entry[r.player])
        return [(row, ENTRY_ORDER) for row in ordered[:-1]] + [(ordered[-1], "")]
    name, rest = names[0], names[1:]
    groups: dict = {}
    for row in rows:
        groups.setdefault(TIE_BREAKS[name](row, rows), []).append(row)
    out = []
    for value in sorted(groups, reverse=True):
        out += _ordered(groups[value], rest, entry)
        out[-1] = (out[-1][0], name)
    out[-1] = (out[-1][0], "")
    return out


def ranked(players, rows, order):
    """`rows` ({player: Row}) in the order of the named tie-breaks `order` (then entry order, the
    order of `players`), placed from 1, each with the tie-break that put it ahead of the next
    ("" where the first decided)."""
    entry = {p: i for i, p in enumerate(players)}
    placed = []
    if rows:
        ordered = _ordered(list(rows.values()), order, entry)
        first = {order[0] if order else ENTRY_ORDER}
        for place, (row, why) in enumerate(ordered, start=1):
            placed.append(replace(row, place=place, tie_break="" if why in first else why))
    return placed


def league_table(players, results, values=Values()):
    """The league's rows in order, placed from 1. `players` in entry order."""
    return ranked(players, tally(players, results, values), LEAGUE)


def field_scores(results):
    """Each player's result against the field: {player: (sum over boards, boards)}.

    A board is (deals, seat). On each, a holder's margin less the mean margin of the other
    holders; a board held by one player alone compares with nobody and counts nothing.
    """
    boards = {}
    for r in results:
        if r.deals is None:
            continue
        for seat, player in ((0, r.seat0), (1, r.seat1)):
            boards.setdefault((r.deals, seat), []).append((player, r.margin_of(player)))
    totals = {}
    for holders in boards.values():
        if len(holders) < 2:
            continue
        whole = sum(m for _, m in holders)
        for player, margin in holders:
            others = Fraction(whole - margin, len(holders) - 1)
            total, count = totals.get(player, (Fraction(0), 0))
            totals[player] = (total + margin - others, count + 1)
    return totals


def duplicate_table(players, results, values=Values()):
    """The duplicate event's rows: by the result against the field, then game points, then spread."""
    fields = field_scores(results)
    rows = {
        p: replace(r, field=fields.get(p, (Fraction(0), 0))[0], boards=fields.get(p, (0, 0))[1])
        for p, r in tally(players, results, values).items()
    }
    return ranked(players, rows, DUPLICATE)


# A cell a spreadsheet would run as a formula starts so: a display name like "=HYPERLINK(...)".
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value):
    """A text cell a spreadsheet would read as a formula, with a leading apostrophe (shown as text,
    OWASP's advice on CSV injection); numbers stay numbers (a negative spread is no one's words)."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_text(columns, rows):
    """The table as CSV: a header of the columns' labels, then each row's values by the columns'
    keys (`columns`: [(key, label)], `rows`: mappings), every cell made safe for a spreadsheet."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([safe_cell(label) for _, label in columns])
    for row in rows:
        writer.writerow([safe_cell(row[key]) for key, _ in columns])
    return out.getvalue()
