"""Time for people: deadlines in the reader's time zone, and a game's clock rules in words.

The clock app computes deadlines; the pages and emails of every app say them
the same way through these.
"""

from datetime import UTC

from django.utils import timezone

from games.presentation import plural

# The most days one "more time" gives (a game's log records each gift).
MAX_MORE_DAYS = 14


def player_zone(player):
    return UTC if player is None else player.zone


def relative(delta):
    """ "in 2 days", "in 5 hours", "in 20 minutes", or "overdue"."""
    seconds = delta.total_seconds()
    if seconds <= 0:
        return "overdue"
    if seconds >= 2 * 86400:
        return f"in {plural(int(seconds // 86400), 'day')}"
    if seconds >= 2 * 3600:
        return f"in {plural(int(seconds // 3600), 'hour')}"
    return f"in {plural(max(1, int(seconds // 60)), 'minute')}"


def deadline_text(deadline, user=None, now=None):
    """ "Thu 3 Dec, 18:00 (in 2 days)" in the reader's time zone (UTC for no reader)."""
    if deadline is None:
        return ""
    now = now or timezone.now()
    zone = player_zone(user if user is not None and getattr(user, "is_authenticated", False) else None)
    local = deadline.astimezone(zone)
    text = f"{local:%a} {local.day} {local:%b}"
    if local.year != now.astimezone(zone).year:
        text += f" {local.year}"
    text += f", {local:%H:%M}"
    if zone is UTC:
        text += " UTC"
    return f"{text} ({relative(deadline - now)})"


def local_day(user, now=None):
    """The date it is now where `user` lives."""
    return (now or timezone.now()).astimezone(player_zone(user)).date()
