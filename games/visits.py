"""A player's visits to a game: the page, a move link, a reply.

Reminders wait while a player is looking, and a held turn email goes once
they have come back (mail.quiet).
"""

import logging
import time
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.db.models import Q
from django.utils import timezone

log = logging.getLogger(__name__)

LOOKING_WINDOW = timedelta(minutes=15)  # a player seen this recently is looking at the game
SEEN_EVERY = timedelta(minutes=1)  # "seen" is written at most this often per seat


def note_seen(seat, now=None):
    """The player of `seat` is looking at the game (page view, move link, reply).

    Call it from the game page and the move-link pages. Cheap: writes at most once a minute.
    """
    now = now or timezone.now()
    if seat.last_seen_at and seat.last_seen_at >= now - SEEN_EVERY:
        return  # written less than a minute ago (as loaded): no statement at all
    type(seat).objects.filter(pk=seat.pk).filter(
        Q(last_seen_at__isnull=True) | Q(last_seen_at__lt=now - SEEN_EVERY)
    ).update(last_seen_at=now)
    seat.last_seen_at = now


def _looking_key(seat_id):
    return f"games:looking:{seat_id}"


# Seat id -> when this process last marked it looking (time.monotonic). Like "seen", the mark
# is written at most once a minute per seat (a page polls every 15 s), and kept a minute longer
# than the window, so it still lasts the whole window after the last poll.
_marked: dict[int, float] = {}
MARKED_MOST = 10_000  # seats remembered before the memory starts afresh


def note_polling(seat_id):
    """The open game page of seat `seat_id` polls: its player is looking. Kept in the shared cache,
    never the database, so a poll writes nothing (settings.POLL_FROM_CACHE: only a cache every
    process reads can tell the clock's worker)."""
    if not settings.POLL_FROM_CACHE:
        return
    now = time.monotonic()
    last = _marked.get(seat_id)
    if last is not None and now - last < SEEN_EVERY.total_seconds():
        return
    try:
        cache.set(_looking_key(seat_id), True, int((LOOKING_WINDOW + SEEN_EVERY).total_seconds()))
    except Exception:  # a cache that is down loses the mark, never the poll
        log.warning("Could not note a poll in the cache.", exc_info=True)
        return
    if len(_marked) >= MARKED_MOST:
        _marked.clear()
    _marked[seat_id] = now


def is_looking(seat, now=None):
    now = now or timezone.now()
    if seat.last_seen_at and seat.last_seen_at > now - LOOKING_WINDOW:
        return True
    if not settings.POLL_FROM_CACHE:
        return False
    try:
        return bool(cache.get(_looking_key(seat.pk)))
    except Exception:
        return False
