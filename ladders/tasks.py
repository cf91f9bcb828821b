from celery import shared_task
from django.utils import timezone

from ladders import challenges, membership
from ladders.models import Ladder


@shared_task
def sweep():
    """Lapse overdue challenges, then apply every ladder's idle rule: (lapsed, idle)
    counts. Schedule it in CELERY_BEAT_SCHEDULE (hourly is plenty); `manage.py ladder_sweep` runs it too."""
    now = timezone.now()
    lapsed = challenges.lapse_challenges(now=now)
    idle = [e for ladder in Ladder.objects.all() for e in membership.apply_idle_rule(ladder, now=now)]
    return len(lapsed), len(idle)
