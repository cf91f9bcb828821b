"""Simulate a season of events: a league and a knockout (and a duplicate event), the computer
playing both sides of every game through the move service; and an ACC club night season.

    python manage.py simulate_tournament_season [--league 8] [--knockout 12] [--duplicate 0]
        [--club-night 0] [--nights 4] [--best-of 1] [--scoring games_double] [--target 121] [--seed 1]

Creates fresh events (and players with email turned off), starts them through the real
services, plays every game to the end, lets the results flow in through the game_finished
signal, then checks each table against a recount from the finished games and prints the
standings, the bracket and the players' ratings.

A club night's games are played at the club, so the organiser enters scorecards: each night
pairs the players at random nine times (everyone plays nine games), each game's final board is
drawn (the stronger player wins more often; the loser's score spread as club games are, some
skunks), entered through tournaments.club_nights and counted as games played at the table; the
night is closed (its Grass Roots Points, its Grand Slams, its emails owed). The season's table is
checked against a recount from the games alone, night by night.
"""

import logging
import random
import time

from django.core.management.base import BaseCommand, CommandError
from django.utils.crypto import get_random_string

from accounts.models import User
from events.simulation import format_table
from events.simulation import play_out as events_play_out
from games import services as game_services
from games.cribbage.strategy import choose_move
from games.models import Game
from ratings.models import Rating
from tournaments import club_nights, entries, grass_roots, selectors, services
from tournaments.models import Award, ClubNight, NightGame, PairingGame, Tournament

# The computer's strength for each simulated player in turn: players of unequal skill, so a
# duplicate event has something to measure (equal players on the same cards play alike).
LEVELS = ("standard", "easy", "greedy")


def play_out(game, rng, levels=None):
    """Play `game` to the end, the computer choosing every seat's moves (at the level `levels`
    gives the seat's player, else standard), through submit_move."""
    levels = levels or {}
    seat_level = {s.number: levels.get(s.player_id, "standard") for s in game.seats.all()}
    return events_play_out(game, lambda state, seat: choose_move(state, seat, level=seat_level[seat], rng=rng), rng)


def play_season(event, rng, levels=None):
    """Play every game of `event` as it opens, until the event is finished. Returns the games played."""
    played = 0
    while True:
        pending = PairingGame.objects.filter(pairing__round__tournament=event, game__status=Game.Status.ACTIVE)
        current = pending.select_related("game").order_by("pairing__round__number", "pairing__table").first()
        if current is None:
            break
        play_out(current.game, rng, levels)
        services.record_game_result(current.game_id)  # idempotent: the signal counted it already
        played += 1
    event.refresh_from_db()
    return played


def recount(event):
    """The table recounted from the finished games alone (scores and skunks as the games say),
    for the check: {player name: (game points, wins, skunks given, spread)}."""
    values = event.values
    out = {str(e.player): [0, 0, 0, 0] for e in event.entrants.select_related("player")}
    games = PairingGame.objects.filter(pairing__round__tournament=event).select_related("game")
    for pg in games:
        game = pg.game
        scores = game_services.engine_state(game).scores
        seats = {s.number: str(s.player) for s in game.seats.select_related("player")}
        winner, loser = seats[game.winner_side], seats[1 - game.winner_side]
        kind = (game.skunk or "win") if game.finish in ("target", "resign") else "forfeit"
        out[winner][0] += values.of(kind)
        out[winner][1] += 1
        out[winner][2] += kind in ("skunk", "double_skunk")
        margin = scores[game.winner_side] - scores[1 - game.winner_side]
        out[winner][3] += margin
        out[loser][3] -= margin
    return {name: tuple(v) for name, v in out.items()}


def check_table(event):
    rows = selectors.table(event)
    expected = recount(event)
    got = {r["player"]: (r["points"], r["won"], r["skunks_given"], r["spread"]) for r in rows}
    if got != expected:
        raise CommandError(f"{event}: the table {got} is not the recount {expected}")
    return rows


def format_bracket(event):
    lines = []
    for rnd in selectors.bracket(event):
        lines.append(f"{rnd['name']}:")
        for match in rnd["matches"]:
            top, bottom = match["sides"]
            if match["bye"]:
                lines.append(f"  ({top['seed']}) {top['name']}: a bye")
                continue
            cells = [
                f"({s['seed']}) {s['name']} {s['wins']}" + (" *" if s["won"] else "")
                for s in (top, bottom)
                if s["name"]
            ]
            lines.append("  " + "  v  ".join(cells))
    champion = selectors.champion(event)
    lines.append(f"Champion: {champion}" if champion else "No champion yet.")
    return "\n".join(lines)


def format_ratings(event, levels):
    players = [e.player for e in event.entrants.select_related("player")]
    ratings = {r.player_id: r for r in Rating.objects.filter(player__in=players, family="two")}
    lines = []
    for player in sorted(players, key=lambda p: -(ratings[p.pk].shown.value if p.pk in ratings else 0)):
        rating = ratings.get(player.pk)
        level = levels.get(player.pk, "standard")
        lines.append(
            f"  {player} ({level}): {rating.shown} after {rating.games} games" if rating else f"  {player}: unrated"
        )
    return "\n".join(lines)


# How often the stronger of two simulated club players wins, by their levels' order in LEVELS.
FAVOURITE_WINS = 0.6


def club_night_scorecards(entrants, levels, rng):
    """A night's games as an organiser enters them: nine rounds of random pairs (an even number of
    players), each (first, second, first's score, second's score)."""
    strength = {e.pk: -LEVELS.index(levels[e.player_id]) for e in entrants}
    games = []
    for _ in range(grass_roots.GAMES_A_NIGHT):
        order = list(entrants)
        rng.shuffle(order)
        for first, second in zip(order[::2], order[1::2]):
            if strength[first.pk] == strength[second.pk]:
                first_wins = rng.random() < 0.5
            else:
                favourite = strength[first.pk] > strength[second.pk]
                first_wins = (rng.random() < FAVOURITE_WINS) == favourite
            loser = min(120, int(rng.triangular(55, 121, 112)))
            games.append((first, second, 121, loser) if first_wins else (first, second, loser, 121))
    return games


def play_club_season(event, nights, levels, rng, organiser):
    """Open, fill and close `nights` nights of `event` through the services; then end the season."""
    entrants = list(event.entrants.select_related("player").order_by("entered_at", "pk"))
    for _ in range(nights):
        night = club_nights.open_night(event, actor=organiser)
        club_nights.enter_games(night, club_night_scorecards(entrants, levels, rng), actor=organiser)
        club_nights.close_night(night, actor=organiser)
    club_nights.finish_season(event, actor=organiser)
    event.refresh_from_db()


def recount_club_season(event):
    """The season recounted from its finished games alone, night by night: {name: (GRPs, game points)}."""
    out = {str(e.player): [0, 0] for e in event.entrants.select_related("player")}
    for night in event.nights.filter(status=ClubNight.Status.CLOSED):
        points = dict.fromkeys(out, 0)
        for item in night.games.filter(status=NightGame.Status.COUNTED).select_related("game"):
            game = item.game
            seats = {s.number: str(s.player) for s in game.seats.select_related("player")}
            points[seats[game.winner_side]] += 3 if game.skunk else 2
        for name, gained in points.items():
            out[name][0] += grass_roots.grass_roots_points(gained)
            out[name][1] += gained
    return {name: tuple(v) for name, v in out.items()}


def check_club_table(event):
    rows = selectors.table(event)
    got = {r["player"]: (r["grass_roots"], r["points"]) for r in rows}
    expected = recount_club_season(event)
    if got != expected:
        raise CommandError(f"{event}: the table {got} is not the recount {expected}")
    return rows


class Command(BaseCommand):
    help = "Set up a league and a knockout (and a duplicate event), play them with the computer, print the tables."

    def add_arguments(self, parser):
        parser.add_argument("--league", type=int, default=8, help="Entrants of the league (0: none).")
        parser.add_argument("--knockout", type=int, default=12, help="Entrants of the knockout (0: none).")
        parser.add_argument("--duplicate", type=int, default=0, help="Entrants of a duplicate event (0: none).")
        parser.add_argument(
            "--club-night", type=int, default=0, help="Players of an ACC club night season (an even number; 0: none)."
        )
        parser.add_argument("--nights", type=int, default=4, help="Nights of the club night season.")
        parser.add_argument("--best-of", type=int, default=1, choices=[1, 3, 5, 7])
        parser.add_argument("--scoring", default=Tournament.Scoring.GAMES_DOUBLE, choices=Tournament.Scoring.values)
        parser.add_argument("--target", type=int, default=121, choices=[61, 121])
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args, league, knockout, duplicate, club_night, nights, best_of, scoring, target, seed, **options):
        if league == 1 or knockout == 1:
            raise CommandError("An event needs at least two entrants.")
        if club_night % 2 or club_night == 2:
            raise CommandError(
                "A simulated club night pairs everyone each round: give an even number of players, four or more."
            )
        if 0 < duplicate < 4:
            raise CommandError("A duplicate event needs at least four entrants.")
        logging.getLogger("celery").setLevel(logging.WARNING)  # not a line per move
        rng = random.Random(seed)
        tag = get_random_string(6).lower()
        organiser = User.objects.create_user(
            f"organiser-{tag}@example.invalid", None, display_name="Organiser", is_staff=True, notify="none"
        )
        plans = [
            (Tournament.Kind.LEAGUE, league, "League"),
            (Tournament.Kind.KNOCKOUT, knockout, "Knockout"),
            (Tournament.Kind.DUPLICATE, duplicate, "Duplicate"),
            (Tournament.Kind.CLUB_NIGHT, club_night, "Club night"),
        ]
        for kind, count, title in plans:
            if not count:
                continue
            started = time.monotonic()
            event = Tournament.objects.create(
                kind=kind,
                name=f"Simulated {title.lower()} {tag}",
                slug=f"simulated-{kind}-{tag}",
                scoring=scoring,
                best_of=best_of,
                target=target,
            )
            event.organisers.add(organiser)
            people = [
                User.objects.create_user(
                    f"sim-{tag}-{kind}-{n}@example.invalid",
                    None,
                    display_name=f"{title[0]}{n:02d}",
                    notify="none",
                )
                for n in range(1, count + 1)
            ]
            levels = {p.pk: LEVELS[n % len(LEVELS)] for n, p in enumerate(people)}
            entries.add_entrants(event, "\n".join(p.email for p in people), actor=organiser)
            services.start(event, actor=organiser)
            if kind == Tournament.Kind.CLUB_NIGHT:
                self.club_night_season(event, nights, levels, rng, organiser, started)
                continue
            played = play_season(event, rng, levels)
            if event.status != Tournament.Status.FINISHED:
                raise CommandError(f"{event} did not finish: {event.get_status_display()}")
            self.stdout.write(
                f"\n{event.name}: {count} entrants, {played} games, {event.get_scoring_display()}, "
                f"{time.monotonic() - started:.0f} s"
            )
            if kind == Tournament.Kind.KNOCKOUT:
                self.stdout.write(format_bracket(event))
            else:
                rows = check_table(event)
                self.stdout.write(format_table(rows, selectors.columns(event)))
            self.stdout.write("Ratings (two-player):\n" + format_ratings(event, levels))

    def club_night_season(self, event, nights, levels, rng, organiser, started):
        play_club_season(event, nights, levels, rng, organiser)
        rows = check_club_table(event)
        games = NightGame.objects.filter(night__tournament=event, status=NightGame.Status.COUNTED).count()
        self.stdout.write(
            f"\n{event.name}: {len(rows)} players, {nights} nights, {games} games at the table, "
            f"{time.monotonic() - started:.0f} s"
        )
        self.stdout.write(format_table(rows, selectors.columns(event)))
        for award in Award.objects.filter(night__tournament=event).select_related("entrant__player", "night"):
            self.stdout.write(f"  Night {award.night.number}: {award.get_kind_display()}, {award.entrant}")
        self.stdout.write("Ratings (two-player):\n" + format_ratings(event, levels))
