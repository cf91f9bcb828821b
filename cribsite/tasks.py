from celery import shared_task
from django.contrib.auth import get_user_model


@shared_task
def probe_database():
    """Round trip for health checks: proves a worker reaches the database."""
    return {"users": get_user_model().objects.count()}
