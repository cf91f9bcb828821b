"""The clock of a slow game, on the database: a seat's clock loaded, changed, saved; the quiet
inbox; the clock in words.

The arithmetic is pure, in clock.seatclock: load a seat's `clock_of(seat)` and
`rules_for(game, seat)`, call one of its functions, and `save` (or `apply`) the
new value, which writes only the fields that changed. `note_seen` records a visit.
"""
from datetime import UTC, timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from clock import seatclock
from clock.seatclock import (DAY, LAST_DAY_REMINDER_MIN_DAYS, REMINDER_FRACTION,  # noqa: F401 (the clock's API)
                             deadline_after, reminder_moments, reminders_due, running_time_between)
from games.presentation import clock_text, plural

LOOKING_WINDOW = timedelta(minutes=15)   # a player seen this recently is looking at the game
TURN_EMAIL_HOLD = timedelta(hours=6)     # at most one turn email per game in this window, until they come back
MAX_MORE_DAYS = 14


# --- A seat's clock ---------------------------------------------------------------

def player_zone(player):
    return UTC if player is None else player.zone


def day_seconds():
    """The length of a day per move (CLOCK_DAY_SECONDS: 86400 but in trials)."""
    return int(getattr(settings, "CLOCK_DAY_SECONDS", seatclock.DAY_SECONDS))


def rules_for(game, seat):
    """The ClockRules of `seat` in `game`: the game's pauses in the player's zone and night."""
    player = seat.player if seat.player_id else None
    night = None
    if game.pause_nights and player is not None:
        night = (player.night_start_hour, player.night_end_hour)
    cap = None if game.vacation_cap_days is None else game.vacation_cap_days * seatclock.DAY_SECONDS
    return seatclock.ClockRules(
        days_per_move=game.days_per_move, day_seconds=day_seconds(),
        pause_weekends=bool(game.pause_weekends and player is not None), night_hours=night,
        tz=player_zone(player), vacation_cap_seconds=cap,
        away_until=player.away_until if player is not None else None, has_player=player is not None)


def clock_of(seat):
    """The clock fields of `seat` as a SeatClock."""
    return seatclock.SeatClock(**{name: getattr(seat, name) for name in seatclock.FIELDS})


def apply(seat, clock):
    """Set `clock` on the `seat` object (not saved); the names of the fields that changed."""
    changed = seatclock.changed_fields(clock_of(seat), clock)
    for name in changed:
        setattr(seat, name, getattr(clock, name))
    return changed


def save(seat, clock):
    """Write `clock` to `seat`'s row: only the fields that changed. Returns their names."""
    changed = apply(seat, clock)
    if changed:
        type(seat).objects.filter(pk=seat.pk).update(**{name: getattr(clock, name) for name in changed})
    return changed


# Seat fields a turn change may set: `games.services._update_turns` saves these.
TURN_FIELDS = list(seatclock.FIELDS)


def set_turn(game, seat, to_act, now):
    """Start (or end) `seat`'s turn at `now`: its deadline, pauses and reminders (not saved)."""
    clock = clock_of(seat)
    apply(seat, seatclock.turn_started(clock, rules_for(game, seat), now) if to_act else seatclock.turn_ended(clock))
    return seat


def is_paused(seat, now=None):
    return seatclock.is_paused(seat, now or timezone.now())


# --- Visits and the quiet inbox -------------------------------------------------

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


def last_turn_email(seat):
    """(sent_at, seq) of the last turn email sent to `seat`, or None."""
    from mail.models import OutboundEmail

    return (OutboundEmail.objects
            .filter(game_id=seat.game_id, seat=seat.number, kind=OutboundEmail.Kind.TURN,
                    status=OutboundEmail.Status.SENT, sent_at__isnull=False)
            .order_by("-sent_at").values_list("sent_at", "seq").first())


def came_back_since(seat, moment, seq):
    """Has the player looked at the game, or moved themselves, since `moment` (state `seq`)?"""
    from games.models import PLAYER_SOURCES, Event

    if seat.last_seen_at and seat.last_seen_at >= moment:
        return True
    return Event.objects.filter(game_id=seat.game_id, seat=seat.number, seq__gt=seq,
                                source__in=PLAYER_SOURCES).exists()


def turn_email_hold(seat, now=None):
    """None: a turn email may go now. Otherwise the moment until which to hold it.

    A player who has not come back since their last turn email for this game
    gets no other for it within TURN_EMAIL_HOLD; after that, one email that
    tells what happened since (`last_turn_email(seat)[1]` is the state they were
    last told about).
    """
    now = now or timezone.now()
    last = last_turn_email(seat)
    if last is None:
        return None
    sent_at, seq = last
    if now - sent_at >= TURN_EMAIL_HOLD or came_back_since(seat, sent_at, seq):
        return None
    return sent_at + TURN_EMAIL_HOLD


# --- Words -------------------------------------------------------------------------

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
    return clock_text(game)


def local_day(user, now=None):
    """The date it is now where `user` lives."""
    return (now or timezone.now()).astimezone(player_zone(user)).date()

