from celery import shared_task


@shared_task
def sweep():
    """Overdue challenges and idle entrants; schedule it in CELERY_BEAT_SCHEDULE (hourly is plenty)."""
    from ladders import services

    lapsed, idle = services.sweep()
    return len(lapsed), len(idle)
