"""Reading events for the pages, the admin and the CSV: tables, the bracket, the schedule.

No deal seed leaves this module: a duplicate round's seed would tell every deck to come.
"""

from django.core.paginator import Paginator

from events import standings
from games.event_games import EventGame
from ratings.selectors import family_of, ratings_of

from . import grass_roots, schedule
from .models import Award, ClubNight, Entrant, NightGame, Pairing, PairingGame, Round, Tournament

# The columns that decide the order first, so a phone shows them without scrolling the table.
STANDINGS_COLUMNS = [
    ("place", "Place"),
    ("player", "Player"),
    ("points", "Game points"),
    ("played", "Played"),
    ("won", "Won"),
    ("lost", "Lost"),
    ("skunks_given", "Skunks given"),
    ("skunks_taken", "Skunks taken"),
    ("points_for", "Points for"),
    ("points_against", "Points against"),
    ("spread", "Spread"),
    ("tie_break", "Ahead of the next on"),
]
DUPLICATE_COLUMNS = (
    STANDINGS_COLUMNS[:2] + [("field", "Against the field"), ("boards", "Boards")] + (STANDINGS_COLUMNS[2:])
)
# A club night's season: Grass Roots Points first (they decide), then game points, nights and games.
NIGHT_COLUMNS = STANDINGS_COLUMNS[:2] + [("grass_roots", "Grass Roots Points")] + STANDINGS_COLUMNS[2:]
CLUB_NIGHT_COLUMNS = NIGHT_COLUMNS[:4] + [("nights", "Nights")] + NIGHT_COLUMNS[4:]


def results(tournament):
    """The event's counted games as standings.Result values (entrant ids in the seats)."""
    out = []
    games = PairingGame.objects.filter(pairing__round__tournament=tournament, counted=True).select_related(
        "pairing__round"
    )
    for pg in games.order_by("pairing__round__number", "pairing__table", "number"):
        p = pg.pairing
        seat0, seat1 = (p.home_id, p.away_id) if pg.home_seat == 0 else (p.away_id, p.home_id)
        score0, score1 = (pg.home_score, pg.away_score) if pg.home_seat == 0 else (pg.away_score, pg.home_score)
        duplicate = tournament.kind == Tournament.Kind.DUPLICATE
        out.append(
            standings.Result(
                seat0=seat0,
                seat1=seat1,
                score0=score0,
                score1=score1,
                winner=pg.winner_id,
                kind=pg.kind,
                deals=p.round.number if duplicate else None,
            )
        )
    return out


def night_results(night):
    """A club night's counted games as standings.Result values (entrant ids in the seats)."""
    return [
        standings.Result(g.first_id, g.second_id, g.first_score, g.second_score, g.winner_id, g.kind)
        for g in night.games.filter(status=NightGame.Status.COUNTED).order_by("pk")
    ]


def _entrants(tournament):
    # A club night's members join during the season (no seed): entry order is its last tie-break.
    order = ("entered_at", "pk") if tournament.kind == Tournament.Kind.CLUB_NIGHT else ("seed", "entered_at", "pk")
    return list(tournament.entrants.filter(approved=True).select_related("player").order_by(*order))


def night_table(night):
    """A club night's rows as dicts (the table column keys), top first, for its players."""
    entrants = _entrants(night.tournament)
    results = night_results(night)
    playing = {p for r in results for p in (r.seat0, r.seat1)}
    present = [e for e in entrants if e.pk in playing]
    return _dicts(present, grass_roots.night_table([e.pk for e in present], results))


def table(tournament):
    """The standings rows as dicts for the page and the CSV, top first (a club night season's: its
    closed nights)."""
    entrants = _entrants(tournament)
    ids = [e.pk for e in entrants]
    if tournament.kind == Tournament.Kind.CLUB_NIGHT:
        closed = tournament.nights.filter(status=ClubNight.Status.CLOSED).order_by("number")
        rows = grass_roots.season_table(ids, [night_results(night) for night in closed])
    elif tournament.kind == Tournament.Kind.DUPLICATE:
        rows = standings.duplicate_table(ids, results(tournament), tournament.values)
    else:
        rows = standings.league_table(ids, results(tournament), tournament.values)
    return _dicts(entrants, rows)


def _dicts(entrants, rows):
    names = {e.pk: str(e.player) for e in entrants}
    players = {e.pk: e.player_id for e in entrants}
    return [
        {
            "entrant": r.player,
            "player_id": players[r.player],
            "place": r.place,
            "player": names[r.player],
            "played": r.played,
            "won": r.won,
            "lost": r.lost,
            "points": r.points,
            "skunks_given": r.skunks_given,
            "skunks_taken": r.skunks_taken,
            "points_for": r.points_for,
            "points_against": r.points_against,
            "spread": r.spread,
            "field": f"{float(r.field):+.1f}",
            "boards": r.boards,
            "grass_roots": r.grass_roots,
            "nights": r.nights,
            "tie_break": r.tie_break,
        }
        for r in rows
    ]


def columns(tournament):
    if tournament.kind == Tournament.Kind.CLUB_NIGHT:
        return CLUB_NIGHT_COLUMNS
    return DUPLICATE_COLUMNS if tournament.kind == Tournament.Kind.DUPLICATE else STANDINGS_COLUMNS


def nights(tournament):
    """The season's nights, last first, each with its games (counted and waiting) and awards."""
    out = []
    for night in tournament.nights.order_by("-number"):
        games = night.games.select_related("first__player", "second__player", "winner__player")
        awards = night.awards.select_related("entrant__player")
        out.append({"night": night, "games": list(games), "awards": list(awards)})
    return out


def awards_of(user):
    """A player's club night awards (28 and 29 hands, Grand Slams), newest first, for their page."""
    return list(
        Award.objects.filter(entrant__player=user)
        .select_related("night__tournament")
        .order_by("-night__played_on", "-pk")
    )


def standings_csv(tournament):
    return standings.csv_text(columns(tournament), table(tournament))


def _side(entrant, wins, pairing):
    if entrant is None:
        return {"name": "bye" if pairing is not None else "", "seed": None, "wins": None, "won": False}
    bye = pairing is not None and pairing.away_id is None
    return {
        "name": str(entrant.player),
        "seed": entrant.seed,
        "wins": None if bye else wins,
        "won": pairing is not None and pairing.winner_id == entrant.pk and pairing.away_id is not None,
    }


def bracket(tournament):
    """The knockout's rounds, each a list of matches {sides: [top, bottom], bye}, the rounds not yet
    reached drawn as empty slots; from the first round to the final."""
    count = tournament.entrants.count()
    if count < 2:
        return []
    total = schedule.round_count(count)
    pairings = (
        Pairing.objects.filter(round__tournament=tournament)
        .select_related("round", "home__player", "away__player", "winner")
        .order_by("round__number", "table")
    )
    by_round = {}
    for p in pairings:
        by_round.setdefault(p.round.number, []).append(p)
    out, tables = [], schedule.bracket_size(count) // 2
    for number in range(1, total + 1):
        matches = []
        played = by_round.get(number, [])
        for index in range(tables):
            p = played[index] if index < len(played) else None
            if p is None:
                matches.append({"sides": [_side(None, None, None)] * 2, "bye": False})
                continue
            sides = [_side(p.home, p.home_wins, p), _side(p.away, p.away_wins, p)]
            matches.append({"sides": sides, "bye": p.status == Pairing.Status.BYE, "pairing": p})
        out.append({"number": number, "name": schedule.round_name(number, total), "matches": matches})
        tables //= 2
    return out


def champion(tournament):
    if tournament.kind != Tournament.Kind.KNOCKOUT or tournament.status != Tournament.Status.FINISHED:
        return None
    final = Pairing.objects.filter(round__tournament=tournament).order_by("-round__number").first()
    return final.winner if final else None


def rounds(tournament):
    """The schedule: every round with its pairings, each with its games as `event_games`, and
    whether the page shows it `unfolded` (for the page). Three queries however many rounds, each by the event (an IN list of a big league's
    pairings would be longer than SQLite takes)."""
    games: dict[int, list] = {}
    for pg in PairingGame.objects.filter(pairing__round__tournament=tournament).select_related("game"):
        games.setdefault(pg.pairing_id, []).append(pg)
    by_round: dict[int, list] = {}
    pairings = Pairing.objects.filter(round__tournament=tournament).select_related(
        "home__player", "away__player", "winner__player"
    )
    for pairing in pairings.order_by("round__number", "table"):
        pairing.event_games = games.get(pairing.pk, [])
        by_round.setdefault(pairing.round_id, []).append(pairing)
    out = [{"round": rnd, "pairings": by_round.get(rnd.pk, [])} for rnd in tournament.rounds.order_by("number")]
    # The page unfolds the first round not complete (a league plays every round at once) and folds
    # the others, so a long schedule is not a long page.
    current = next((item for item in out if item["round"].status != Round.Status.COMPLETE), None)
    for item in out:
        item["unfolded"] = item is current
    return out


FINISHED_PER_PAGE = 25  # finished events a page of the list: it costs the same however many ended


def event_list(user, page=1):
    """{"upcoming": events taking entries, soonest first, "running", "finished": a page of the finished
    ones, newest first (FINISHED_PER_PAGE a page; past the last raises InvalidPage)} and "entered",
    the ids of the events `user` has entered: five queries whatever the number of events."""
    events = list(
        Tournament.objects.exclude(status=Tournament.Status.FINISHED).order_by("starts_on", "name")
    )  # those taking entries and under way: what happens now, never the history
    finished = Paginator(
        Tournament.objects.filter(status=Tournament.Status.FINISHED).order_by("-starts_on", "-name"),
        FINISHED_PER_PAGE,
    ).page(page)
    entered = set()
    if user.is_authenticated:
        entered = set(
            Entrant.objects.filter(player=user)
            .exclude(tournament__status=Tournament.Status.FINISHED)
            .values_list("tournament_id", flat=True)
        )
    return {
        "upcoming": [e for e in events if e.status == Tournament.Status.DRAFT],
        "running": [e for e in events if e.status == Tournament.Status.RUNNING],
        "finished": finished.object_list,
        "finished_page": finished,
        "entered": entered,
    }


def seeded(tournament):
    """The entrants in seed order: by the rating shown for the event's variant family, highest
    first (a player with no rated game counts as new), then by entry order."""
    entrants = list(tournament.entrants.select_related("player").order_by("entered_at", "pk"))
    ratings = ratings_of([e.player_id for e in entrants], family_of(tournament.variant))  # one query
    return sorted(entrants, key=lambda e: -ratings[e.player_id].value)


def entrants(tournament):
    return Entrant.objects.filter(tournament=tournament).select_related("player").order_by("seed", "entered_at")


def game_title(pg):
    """A game of an event by the event's own numbering, as its page and the game's page say it:
    "Round 2, table 3 · game 1"."""
    return f"Round {pg.pairing.round.number}, table {pg.pairing.table} · game {pg.number}"


def event_game(game_id):
    """The event a game is played in (games.event_games): its page, the game's title there, and
    how a game's email subject names it ("Winter League, round 2")."""
    pg = PairingGame.objects.filter(game_id=game_id).select_related("pairing__round__tournament").first()
    if pg is None:
        return None
    event = pg.pairing.round.tournament
    subject = f"{event.name}, round {pg.pairing.round.number}"
    return EventGame(event=event.name, url=event.get_absolute_url(), title=game_title(pg), subject=subject)
