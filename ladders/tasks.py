from celery import shared_task

from ladders import services


@shared_task
def sweep():
    """Overdue challenges and idle entrants; schedule it in CELERY_BEAT_SCHEDULE (hourly is plenty)."""
    lapsed, idle = services.sweep()
    return len(lapsed), len(idle)
