from django.core.management.base import BaseCommand

from ladders import tasks


class Command(BaseCommand):
    help = "Count overdue challenges as forfeits and apply every ladder's idle rule."

    def handle(self, *args, **options):
        lapsed, idle = tasks.sweep()
        self.stdout.write(
            f"{lapsed} overdue challenge(s) counted as forfeits; {idle} idle entrant(s) dropped or removed."
        )
