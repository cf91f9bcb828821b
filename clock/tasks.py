"""Celery tasks of the clock: thin wrappers over services, each idempotent, bounded and
safe to run twice at once. Scheduled in cribsite/settings.py (CELERY_BEAT_SCHEDULE, "clock-*")."""

from celery import shared_task

from clock import digest, reminders, timeouts, vacation


@shared_task
def sweep_timeouts():
    """End (or extend by a vacation day, or stand in for) the turns past their deadline."""
    return timeouts.sweep()


@shared_task
def send_reminders():
    """Remind players whose time is mostly used (80%, and 24 hours before long deadlines)."""
    return reminders.send_due_reminders()


@shared_task
def end_vacations():
    """End the vacations whose end date has come."""
    return vacation.end_due_vacations()


@shared_task
def send_digests():
    """Send the daily digests whose hour has come."""
    return digest.send_digests()
