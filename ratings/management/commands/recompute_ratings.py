from django.core.management.base import BaseCommand

from ratings import tallies
from ratings.services import recompute


class Command(BaseCommand):
    help = (
        "Rebuild every player's ratings and rating history from the finished games that count, "
        "in the order they finished (the same numbers the games gave one by one), and the profiles' tallies."
    )

    def handle(self, *args, **options):
        counted = recompute()
        tallied = tallies.rebuild()
        self.stdout.write(
            f"Recomputed the ratings from {counted} rated game(s) and the profiles from {tallied} game(s)."
        )
