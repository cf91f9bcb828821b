"""The ACC club night's arithmetic (pure): a night's table, its Grass Roots Points, the season's table.

A club night is nine games a player, each worth 2 game points won, 3 won by a skunk (a double
skunk too), 0 lost (events.standings.PRESETS["acc"]). A player with 12 or more game points in a
night earns Grass Roots Points (GRPs) from GRASS_ROOTS_POINTS; fewer earn none. The season's
table adds each player's nights and ranks by GRPs, then game points, then spread, then entry
order (events.standings.CLUB_NIGHT): GRPs are earned night by night, so two players with the same
game points over a season can stand far apart (15 and 9 earn 19; 12 and 12 earn 6).

Which table: the ACC's Grass Roots manual (cribbage.org/grassroots/manual.asp) was not readable
here, and no copy of the club table was found. The table below is the ACC's published table for
its internet "Grass Roots 9 game" events, the Internet Ranking Points (cribbage.org/internet/Irp.asp,
recorded in the project's notes, ../shared/notes/correspondence-and-ladders.md §4.3): the same
format (nine games, 2/3/0, 12 or more to earn). It stops at 21 game points; a night of more (22 to
27: skunks on top of a 9-0 night) earns 21's points here, our assumption until the club table is
read. Replace the table when it is.
"""

from dataclasses import replace

from events import standings

ACC = standings.PRESETS["acc"]
GAMES_A_NIGHT = 9
THRESHOLD = 12  # the game points a night needs to earn any GRPs

GRASS_ROOTS_POINTS = {12: 3, 13: 6, 14: 11, 15: 19, 16: 27, 17: 39, 18: 53, 19: 69, 20: 87, 21: 107}


def grass_roots_points(game_points):
    """The GRPs a night of `game_points` earns: none under 12, the table's from 12 (its last above 21)."""
    if game_points < THRESHOLD:
        return 0
    return GRASS_ROOTS_POINTS[min(game_points, max(GRASS_ROOTS_POINTS))]


def night_table(players, results):
    """A night's rows, placed: by GRPs, game points, spread. `players` in entry order;
    `results` the night's games (events.standings.Result)."""
    rows = standings.tally(players, results, ACC)
    rows = {p: replace(r, grass_roots=grass_roots_points(r.points), nights=int(r.played > 0)) for p, r in rows.items()}
    return standings.ranked(players, rows, standings.CLUB_NIGHT)


def grand_slams(players, results):
    """The players who won all nine of their games in the night (a "Grand Slam", 9-0)."""
    rows = standings.tally(players, results, ACC)
    return [p for p in players if rows[p].won == GAMES_A_NIGHT and rows[p].played == GAMES_A_NIGHT]


def season_table(players, nights):
    """The season's rows, placed: `nights` a list of each closed night's results; a player's GRPs are
    the sum of what each night earned them, their game points, games and spread the sum of the nights'."""
    totals = {p: standings.Row(player=p) for p in players}
    for results in nights:
        for row in standings.tally(players, results, ACC).values():
            if not row.played:
                continue
            total = totals[row.player]
            totals[row.player] = replace(
                total,
                played=total.played + row.played,
                won=total.won + row.won,
                lost=total.lost + row.lost,
                points=total.points + row.points,
                skunks_given=total.skunks_given + row.skunks_given,
                skunks_taken=total.skunks_taken + row.skunks_taken,
                points_for=total.points_for + row.points_for,
                points_against=total.points_against + row.points_against,
                grass_roots=total.grass_roots + grass_roots_points(row.points),
                nights=total.nights + 1,
            )
    return standings.ranked(players, totals, standings.CLUB_NIGHT)
