from celery import shared_task

from tournaments import services


@shared_task
def count_finished_games():
    """Finished event games whose result was not counted (their task was lost). Scheduled hourly."""
    return services.count_finished_games()
