from celery import shared_task

from ratings import services, tallies


@shared_task
def sweep():
    """Periodic (beat "ratings-sweep", hourly): rate and tally the finished games whose
    game_finished was lost. (rated, tallied)."""
    return services.rate_missed_games(), tallies.tally_missed_games()
