from django.core.management.base import BaseCommand, CommandError

from games import cribbage
from games.models import Game


class Command(BaseCommand):
    help = "Replay every game's event log from the start and compare it with the stored snapshot."

    def add_arguments(self, parser):
        parser.add_argument("game_ids", nargs="*", type=int, help="Only these games.")

    def handle(self, *args, game_ids=(), **options):
        games = Game.objects.order_by("pk")
        if game_ids:
            games = games.filter(pk__in=game_ids)
        checked, bad = 0, []
        for game in games.iterator(chunk_size=200):
            checked += 1
            problem = replay_problem(game)
            if problem:
                bad.append(game.pk)
                self.stderr.write(f"Game {game.pk}: {problem}")
        self.stdout.write(f"Checked {checked} game(s): {len(bad)} disagree with their snapshot.")
        if bad:
            raise CommandError(f"Replay disagrees with the snapshot of game(s) {', '.join(map(str, bad))}.")


def replay_problem(game):
    """Why the replay of `game` differs from its snapshot, or None when they agree."""
    events = list(game.events.order_by("seq").values_list("seq", "data"))
    seqs = [seq for seq, _ in events]
    if seqs != list(range(1, len(seqs) + 1)) or len(seqs) != game.seq:
        return f"event sequence is not 1..{game.seq} without gaps"
    rules = cribbage.Rules.from_json(game.rules)
    moves = list(game.events.engine_moves().values_list("data", flat=True))
    try:
        state = cribbage.replay(rules, moves, first_dealer=game.first_dealer)
    except cribbage.IllegalMove as exc:
        return f"replay fails: {exc}"
    if cribbage.state_to_json(state) != game.snapshot:
        return "replayed state differs from the snapshot"
    return None
