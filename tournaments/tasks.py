from celery import shared_task

from tournaments import repeats


@shared_task
def repeat_events():
    """Open the next event of every repeating event whose first day has come (tournaments.repeats):
    the number opened. Idempotent; scheduled hourly in CELERY_BEAT_SCHEDULE ("events-repeat")."""
    return len(repeats.repeat_due())
