from django.core.management.base import BaseCommand

from ladders import services


class Command(BaseCommand):
    help = "Count overdue challenges as forfeits and apply every ladder's idle rule."

    def handle(self, *args, **options):
        lapsed, idle = services.sweep()
        self.stdout.write(
            f"{len(lapsed)} overdue challenge(s) counted as forfeits; {len(idle)} idle entrant(s) dropped or removed."
        )
