"""A player's deadlines as a calendar feed (ICS), at a secret URL shown on their profile.

One event per game where it is the player's turn, at the deadline, with an alarm at the
reminder time (or, when no reminder is left this turn, an hour before). Its UID is the
game and seat, so a calendar that polls the feed moves the event as the deadline moves,
and drops it once the move is made. The URL's secret is a keyed hash of the player's id and
User.calendar_key: a new calendar_key stops the old URL.
"""

import secrets
from datetime import timedelta

from django.conf import settings
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from icalendar import Alarm, Calendar, Event

from accounts.models import User
from games.models import Game, Seat
from games.selectors import seats_with_players

EVENT_LENGTH = timedelta(minutes=15)
LAST_ALARM = timedelta(hours=1)


def key_for(user):
    """The secret part of the user's feed URL: their id and a keyed hash of it with
    User.calendar_key (so reading it writes nothing, and a new calendar_key stops it)."""
    digest = salted_hmac("clock.calendar", f"{user.pk}|{user.calendar_key}", algorithm="sha256").hexdigest()
    return f"{user.pk}-{digest[:40]}"


def new_key(user):
    """A new secret: the old feed URL stops working."""
    user.calendar_key = secrets.token_urlsafe(24)
    User.objects.filter(pk=user.pk).update(calendar_key=user.calendar_key)
    return key_for(user)


def user_for(key):
    """The active user whose feed `key` opens, or None."""
    pk, _, digest = (key or "").partition("-")
    if not pk.isdigit() or len(digest) != 40:
        return None
    user = User.objects.filter(pk=int(pk), is_active=True).first()
    if user is None or not constant_time_compare(key_for(user), key):
        return None
    return user


def feed(user, now=None):
    """The ICS text of `user`'s deadlines."""
    now = now or timezone.now()
    calendar = Calendar()
    calendar.add("prodid", "-//Cribbage by mail//deadlines//EN")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", "Cribbage by mail: my moves")
    domain = settings.REPLY_DOMAIN
    seats = (
        Seat.objects.filter(player=user, to_act=True, deadline__isnull=False, game__status=Game.Status.ACTIVE)
        .select_related("game")
        .order_by("deadline")
    )
    for seat in seats:
        game = seat.game
        names = " v ".join(str(s) for s in seats_with_players(game))
        event = Event()
        event.add("uid", f"game-{game.pk}-seat-{seat.number}@{domain}")
        event.add("dtstamp", now)
        event.add("dtstart", seat.deadline - EVENT_LENGTH)
        event.add("dtend", seat.deadline)
        event.add("summary", f"Your move is due: game {game.pk} ({names})")
        event.add("url", f"{settings.SITE_URL}{game.get_absolute_url()}")
        event.add("description", f"Your time to move in game {game.pk} runs out at the end of this event.")
        alarm = Alarm()
        alarm.add("action", "DISPLAY")
        alarm.add("description", f"Your move in game {game.pk} is due soon")
        remind = seat.remind_at if seat.remind_at and seat.remind_at < seat.deadline else seat.deadline - LAST_ALARM
        alarm.add("trigger", remind - (seat.deadline - EVENT_LENGTH))  # relative to the start
        event.add_component(alarm)
        calendar.add_component(event)
    return calendar.to_ical()
