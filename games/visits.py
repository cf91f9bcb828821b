"""A player's visits to a game: the page, a move link, a reply.

Reminders wait while a player is looking, and a held turn email goes once
they have come back (mail.quiet).
"""

from datetime import timedelta

from django.db.models import Q
from django.utils import timezone

LOOKING_WINDOW = timedelta(minutes=15)  # a player seen this recently is looking at the game


def note_seen(seat, now=None):
    """The player of `seat` is looking at the game (page view, move link, reply).

    Call it from the game page and the move-link pages. Cheap: writes at most once a minute.
    """
    now = now or timezone.now()
    type(seat).objects.filter(pk=seat.pk).filter(
        Q(last_seen_at__isnull=True) | Q(last_seen_at__lt=now - timedelta(minutes=1))
    ).update(last_seen_at=now)
    seat.last_seen_at = now


def is_looking(seat, now=None):
    now = now or timezone.now()
    return bool(seat.last_seen_at and seat.last_seen_at > now - LOOKING_WINDOW)
