"""Tables of an event from its finished games: pure arithmetic over frozen values.

A league's table counts game points (a win, a skunk, a double skunk and a forfeit each
worth what the event says), then breaks ties by head to head (the game points the tied
players took from one another), then by the points spread, then by entry order.

A duplicate event compares each player with the field that held the same cards: on each
board (a round's deals, from one seat) a player's margin (own score less the opponent's)
less the average margin of the others who held that seat on those deals.
"""

import dataclasses
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


@dataclass(frozen=True)
class Result:
    """A finished game: who sat in seats 0 and 1, the final scores, the winner and how.

    `kind`: "win", "skunk", "double_skunk" or "forfeit". `deals`: the cards it was played
    on (a duplicate round), or None.
    """

    seat0: object
    seat1: object
    score0: int
    score1: int
    winner: object
    kind: str = "win"
    deals: object = None

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
    # Why this row is above the next one when their points are level, for the page.
    tie_break: str = ""
    head_to_head: dict = dataclasses.field(default_factory=dict, compare=False, hash=False)

    @property
    def spread(self):
        return self.points_for - self.points_against


SKUNKS = ("skunk", "double_skunk")


def _tally(players, results, values):
    rows = {p: Row(player=p) for p in players}
    h2h = {p: {} for p in players}
    for r in results:
        for me in (r.seat0, r.seat1):
            if me not in rows:
                raise ValueError(f"{me!r} played but is not an entrant.")
            other = r.seat1 if me == r.seat0 else r.seat0
            won = me == r.winner
            gained = values.of(r.kind) if won else 0
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


def _placed(groups_in_order):
    out, place = [], 0
    for row, why in groups_in_order:
        place += 1
        out.append(replace(row, place=place, tie_break=why))
    return out


def _break_ties(tied, entry):
    """Order rows level on points: head to head among them, then spread, then entry order."""

    def among(row):
        return sum(points for other, points in row.head_to_head.items() if other in {t.player for t in tied})

    ordered = sorted(tied, key=lambda r: (-among(r), -r.spread, entry[r.player]))
    out = []
    for i, row in enumerate(ordered):
        why = ""
        if i + 1 < len(ordered):
            nxt = ordered[i + 1]
            if among(row) != among(nxt):
                why = "head to head"
            elif row.spread != nxt.spread:
                why = "spread"
            else:
                why = "entry order"
        out.append((row, why))
    return out


def league_table(players, results, values=Values()):
    """The league's rows in order, placed from 1. `players` in entry order."""
    entry = {p: i for i, p in enumerate(players)}
    rows = _tally(players, results, values)
    by_points = {}
    for row in rows.values():
        by_points.setdefault(row.points, []).append(row)
    ordered = []
    for points in sorted(by_points, reverse=True):
        group = by_points[points]
        ordered += _break_ties(group, entry) if len(group) > 1 else [(group[0], "")]
    return _placed(ordered)


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
    entry = {p: i for i, p in enumerate(players)}
    rows = _tally(players, results, values)
    fields = field_scores(results)
    rows = {
        p: replace(r, field=fields.get(p, (Fraction(0), 0))[0], boards=fields.get(p, (0, 0))[1])
        for p, r in rows.items()
    }
    ordered = sorted(rows.values(), key=lambda r: (-r.field, -r.points, -r.spread, entry[r.player]))
    out = []
    for i, row in enumerate(ordered):
        why = ""
        if i + 1 < len(ordered) and row.field == ordered[i + 1].field:
            nxt = ordered[i + 1]
            why = "game points" if row.points != nxt.points else "spread" if row.spread != nxt.spread else "entry order"
        out.append((row, why))
    return _placed(out)
