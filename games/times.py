"""Time for people: deadlines in the reader's time zone, and a game's clock rules in words.

The clock app computes deadlines; the pages and emails of every app say them
the same way through these.
"""
from datetime import UTC

from django.utils import timezone

from games.models import Game
from games.presentation import plural

# The most days one "more time" gives (a game's log records each gift).
MAX_MORE_DAYS = 14


def player_zone(player):
    return UTC if player is None else player.zone


def relative(delta):
    """"in 2 days", "in 5 hours", "in 20 minutes", or "overdue"."""
    seconds = delta.total_seconds()
    if seconds <= 0:
        return "overdue"
    if seconds >= 2 * 86400:
        return f"in {plural(int(seconds // 86400), 'day')}"
    if seconds >= 2 * 3600:
        return f"in {plural(int(seconds // 3600), 'hour')}"
    return f"in {plural(max(1, int(seconds // 60)), 'minute')}"


def deadline_text(deadline, user=None, now=None):
    """"Thu 3 Dec, 18:00 (in 2 days)" in the reader's time zone (UTC for no reader)."""
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


def describe_clock(game):
    """The game's clock rules in words, for the game page, challenges and ladders."""
    parts = [f"{plural(game.days_per_move, 'day')} per move"]
    stops = [w for w, on in (("at weekends", game.pause_weekends), ("at night", game.pause_nights)) if on]
    if stops:
        parts.append("the clock stops " + " and ".join(stops) + " (each player's own time)")
    if game.vacation_cap_days is None:
        parts.append("vacation days stop the clock")
    elif game.vacation_cap_days == 0:
        parts.append("no vacation in this game")
    else:
        parts.append(f"vacation stops the clock for up to {plural(game.vacation_cap_days, 'day')} in this game")
    parts.append({
        Game.TimeoutPolicy.FORFEIT: "out of time loses the game",
        Game.TimeoutPolicy.OPPONENT_CHOOSES: "out of time: the opponent may claim the game or wait",
        Game.TimeoutPolicy.COMPUTER_STANDS_IN: "out of time: the computer plays for the absent player",
    }[game.timeout_policy])
    return "; ".join(parts) + "."


def local_day(user, now=None):
    """The date it is now where `user` lives."""
    return (now or timezone.now()).astimezone(player_zone(user)).date()
