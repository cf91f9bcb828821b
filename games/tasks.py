"""The Celery tasks of after-commit work (games.follow_ups): one row's follow-up, and the one sweeper."""

from celery import shared_task

from games import follow_ups


@shared_task(acks_late=True, ignore_result=True)
def drain(follow_up_id):
    """Do one owed follow-up (a listener of a finished game, the computer's turn) once."""
    return follow_ups.run(follow_up_id)


@shared_task
def sweep():
    """Periodic (beat "after-commit-sweep", every 2 minutes): queue again, in every queue (the
    follow-ups, the outbox, the stored replies), the work whose task was lost; idempotent."""
    return follow_ups.sweep()
