"""Simulate a season of a club ladder: the computer plays both sides of every game.

    python manage.py simulate_ladder_season [--players 30] [--matches 30] [--seed 1]

Creates a fresh ladder (and players with email turned off), plays challenges
bottom-up through the real services and prints the standings table.
"""

import random
import time

from django.core.management.base import BaseCommand
from django.utils.crypto import get_random_string

from accounts.models import User
from events.simulation import format_table, play_out
from games import cribbage
from ladders import challenges, membership, seasons, selectors
from ladders.matches import record_game_result
from ladders.models import Ladder, Match
from ratings.selectors import family_of, ratings_of


def _chooser(rng):
    try:
        from games.cribbage.strategy import choose_move
    except ImportError:  # the computer player is not there yet: random legal moves
        choose_move = None

    def choose(state, seat):
        if choose_move is not None:
            return choose_move(state, seat, level="standard")
        return rng.choice(cribbage.legal_moves(state, seat))

    return choose


class Command(BaseCommand):
    help = "Set up a club ladder, play a season with the computer on both sides, print the standings."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=30)
        parser.add_argument("--matches", type=int, default=8)  # ~1 min on a quiet machine
        parser.add_argument("--match-length", type=int, default=2)
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args, players, matches, match_length, seed, **options):
        rng = random.Random(seed)
        choose = _chooser(rng)
        started = time.monotonic()
        tag = get_random_string(6).lower()
        organiser = User.objects.create_user(
            f"organiser-{tag}@example.invalid", None, display_name="Organiser", is_staff=True, notify="none"
        )
        ladder = Ladder.objects.create(
            name=f"Simulated club ladder {tag}",
            slug=f"simulated-{tag}",
            match_length=match_length,
            challenge_range=3,
            max_open_challenges=1,
            rematch_days=0,
            immunity_days=0,
        )
        ladder.organisers.add(organiser)
        seasons.current_season(ladder)
        people = [
            User.objects.create_user(
                f"sim-{tag}-{n}@example.invalid", None, display_name=f"Player {n:02d}", notify="none"
            )
            for n in range(1, players + 1)
        ]
        membership.add_entrants(ladder, "\n".join(p.email for p in people), actor=organiser)
        played = 0
        while played < matches:
            entrants = list(ladder.entrants.filter(active=True).order_by("-position"))
            challenger = rng.choice(entrants)
            defenders = challenges.eligible_defenders(challenger)
            if not defenders:
                continue
            match = challenges.start_match(challenger, rng.choice(defenders), actor=organiser)
            while True:
                match.refresh_from_db()
                if match.status != Match.Status.PLAYING:
                    break
                current = match.games.filter(game__status="active").select_related("game").first()
                if current is None:
                    break
                play_out(current.game, choose, rng)
                record_game_result(current.game_id)  # idempotent: the task did it already
            played += 1
        rows = selectors.standings(ladder)
        ratings = ratings_of([row["player_id"] for row in rows], family_of(ladder.variant))
        for row in rows:
            row["rating"] = str(ratings[row["player_id"]])
        self.stdout.write(
            f"{ladder.name}: {players} players, {played} matches to {match_length} game "
            f"points, {sum(r['games'] for r in rows) // 2} games, "
            f"{time.monotonic() - started:.0f} s\n"
        )
        self.stdout.write(
            format_table(
                rows,
                selectors.STANDINGS_COLUMNS[:1]
                + [("player", "Player")]
                + selectors.STANDINGS_COLUMNS[2:]
                + [("rating", "Rating")],
            )
        )
        self.stdout.write("\nLast moves on the ladder:")
        for entry in ladder.history.filter(kind="result").order_by("-seq")[:8]:
            self.stdout.write(f"  #{entry.seq} {entry.text}")
