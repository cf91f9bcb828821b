"""Run every periodic task once (CELERY_BEAT_SCHEDULE), for a deployment with cron instead of beat:

    */2 * * * *  cd /srv/cribbage && .venv/bin/python manage.py run_periodic

Each task is idempotent and bounded on its own; on top of that, two runs at once do not
overlap: the second finds the lock taken (a PostgreSQL advisory lock, or a file lock on
SQLite) and does nothing.
"""

import contextlib
import fcntl
import zlib
from pathlib import Path

from celery import current_app
from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import connection

LOCK_NAME = "cribbage run_periodic"


@contextlib.contextmanager
def _only_one_run():
    """True inside if this run holds the lock, False if another run does."""
    if connection.vendor == "postgresql":
        key = zlib.crc32(LOCK_NAME.encode())
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_lock(%s)", [key])
            held = cursor.fetchone()[0]
        try:
            yield held
        finally:
            if held:
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_advisory_unlock(%s)", [key])
        return
    path = Path(getattr(settings, "RUN_PERIODIC_LOCK", Path(settings.BASE_DIR) / "var" / "run_periodic.lock"))
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


class Command(BaseCommand):
    help = "Run every periodic task (timeouts, reminders, vacations, digests, the outbox sweep, ladders) once."

    def add_arguments(self, parser):
        parser.add_argument(
            "--only",
            action="append",
            default=[],
            metavar="ENTRY",
            help="Run only this entry of CELERY_BEAT_SCHEDULE (may be repeated).",
        )

    def handle(self, *args, only, **options):
        app = current_app  # cribsite's, set up with Django (cribsite/__init__.py)
        schedule = settings.CELERY_BEAT_SCHEDULE
        unknown = set(only) - set(schedule)
        if unknown:
            self.stderr.write(
                f"No such periodic task: {', '.join(sorted(unknown))}. They are: {', '.join(sorted(schedule))}."
            )
            raise SystemExit(2)
        app.loader.import_default_modules()
        with _only_one_run() as held:
            if not held:
                self.stdout.write("Another run_periodic is under way; nothing done.")
                return
            failed = 0
            for name, entry in schedule.items():
                if only and name not in only:
                    continue
                result = app.tasks[entry["task"]].apply(args=entry.get("args", ()), kwargs=entry.get("kwargs", {}))
                if result.failed():
                    failed += 1
                    self.stderr.write(f"{name}: failed: {result.result!r}")
                else:
                    self.stdout.write(f"{name}: {result.result!r}")
        if failed:
            raise SystemExit(1)
