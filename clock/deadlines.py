"""The clock of a slow game: deadlines, pauses, reminders, and the quiet inbox.

Each seat has `days_per_move` of *running* time per turn. The clock stops
(if the game says so) at weekends and during the player's night hours, both
in the player's own time zone, and while the player is on vacation. A day of
running time is 24 running hours: with nights paused, a 1-day clock started at
10:00 with a night of 23:00-07:00 runs out at 18:00 the next day (as on the
Dragon Go Server). Players may still move while the clock is stopped.

The arithmetic is pure (`deadline_after`, `running_time_between`,
`reminder_moments`); the rest reads or sets Seat fields without saving,
except `note_seen`, which records a visit.
"""
from datetime import UTC, datetime, time, timedelta

from django.db.models import Q
from django.utils import timezone

from games.presentation import plural


DAY = timedelta(days=1)
REMINDER_FRACTION = 0.8          # first reminder when 80% of the turn's time is used
LAST_DAY_REMINDER_MIN_DAYS = 3   # clocks this long get a second one, 24 hours before the deadline
LOOKING_WINDOW = timedelta(minutes=15)   # a player seen this recently is looking at the game
TURN_EMAIL_HOLD = timedelta(hours=6)     # at most one turn email per game in this window, until they come back
MAX_MORE_DAYS = 14
_MAX_CALENDAR_DAYS = 3660        # no clock runs this long: guards against a clock that never runs


# --- Pure arithmetic ------------------------------------------------------------

def _utc(moment):
    return moment.astimezone(UTC)


def _local(day, hour, tz):
    """The instant of `hour`:00 on local `day` in `tz` (hour 24 is the next midnight)."""
    if hour >= 24:
        day, hour = day + DAY, 0
    return _utc(datetime.combine(day, time(hour), tzinfo=tz))


def _running_hours(night_hours):
    """The hours of a local day when the clock runs, as [(from, to)], to <= 24."""
    if not night_hours or night_hours[0] == night_hours[1]:
        return [(0, 24)]
    start, end = night_hours
    if start > end:          # a night across midnight, e.g. 23 to 7: runs 7 to 23
        return [(end, start)]
    return [(h0, h1) for h0, h1 in ((0, start), (end, 24)) if h1 > h0]


def running_intervals(start, *, pause_weekends=False, night_hours=None, tz=UTC):
    """The intervals (from, to) from `start` on, in order, in which the clock runs (`to` None: forever)."""
    start = _utc(start)
    if not pause_weekends and not night_hours:
        yield start, None
        return
    tz = tz or UTC
    hours = _running_hours(night_hours)
    day = start.astimezone(tz).date() - DAY   # a night across midnight may start the day before
    for _ in range(_MAX_CALENDAR_DAYS):
        if not (pause_weekends and day.weekday() >= 5):
            for h0, h1 in hours:
                a, b = max(_local(day, h0, tz), start), _local(day, h1, tz)
                if b > a:
                    yield a, b
        day += DAY
    raise ValueError("This clock never runs.")


def _as_duration(days):
    return days if isinstance(days, timedelta) else timedelta(days=days)


def deadline_after(start, days, *, pause_weekends=False, night_hours=None, tz=UTC):
    """The moment `days` (a number of days, or a timedelta) of running time after `start`.

    Weekends (Saturday and Sunday) and the night hours (from, to), e.g. (23, 7),
    are local times in `tz`; the clock does not run then.
    """
    need = _as_duration(days)
    if need <= timedelta(0):
        return _utc(start)
    for a, b in running_intervals(start, pause_weekends=pause_weekends, night_hours=night_hours, tz=tz):
        if b is None or b - a >= need:
            return a + need
        need -= b - a
    raise AssertionError("unreachable")


def running_time_between(start, end, *, pause_weekends=False, night_hours=None, tz=UTC):
    """How much the clock runs from `start` to `end` (zero if end is not later)."""
    start, end = _utc(start), _utc(end)
    total = timedelta(0)
    if end <= start:
        return total
    for a, b in running_intervals(start, pause_weekends=pause_weekends, night_hours=night_hours, tz=tz):
        if a >= end:
            break
        total += (end if b is None else min(b, end)) - a
    return total


def reminder_moments(turn_started_at, deadline, days_per_move):
    """When to remind, in order: 80% of the turn's time used, and 24 hours before the
    deadline for clocks of 3 days or more. Each is sent at most once per turn."""
    moments = [turn_started_at + (deadline - turn_started_at) * REMINDER_FRACTION]
    if days_per_move >= LAST_DAY_REMINDER_MIN_DAYS:
        moments.append(deadline - DAY)
    return sorted(m for m in moments if m < deadline)


def reminders_due(turn_started_at, deadline, days_per_move, now):
    """How many of the turn's reminder moments have passed at `now` (the stage to reach)."""
    return sum(1 for m in reminder_moments(turn_started_at, deadline, days_per_move) if m <= now)


# --- A seat's clock ---------------------------------------------------------------

def player_zone(player):
    return UTC if player is None else player.zone


def pauses_for(game, seat):
    """The keyword arguments of deadline_after for `seat`'s clock in `game`."""
    player = seat.player if seat.player_id else None
    night = None
    if game.pause_nights and player is not None:
        night = (player.night_start_hour, player.night_end_hour)
    return {"pause_weekends": bool(game.pause_weekends and player is not None),
            "night_hours": night, "tz": player_zone(player)}


def vacation_left(game, seat):
    """How much more of the player's vacation this game allows (None: no limit of its own)."""
    if game.vacation_cap_days is None:
        return None
    return max(timedelta(0), timedelta(days=game.vacation_cap_days) - timedelta(seconds=seat.vacation_seconds))


def vacation_pause(game, seat, now):
    """How long `seat`'s clock stays stopped from `now` for the player's vacation under way."""
    player = seat.player if seat.player_id else None
    if player is None or player.away_until is None or player.away_until <= now:
        return timedelta(0)
    pause = player.away_until - now
    left = vacation_left(game, seat)
    return pause if left is None else min(pause, left)


# Seat fields a turn change sets: `_update_turns` saves these.
TURN_FIELDS = ["to_act", "deadline", "turn_started_at", "reminder_stage", "remind_at", "extra_seconds",
               "paused_until", "vacation_seconds", "timed_out_at"]


def set_turn(game, seat, to_act, now):
    """Start (or end) `seat`'s turn at `now`: its deadline, pauses and reminders (not saved)."""
    seat.to_act = to_act
    seat.reminder_stage = 0
    seat.timed_out_at = None
    seat.paused_until = None
    if not to_act:
        seat.deadline = None
        seat.turn_started_at = None
        return seat
    seat.turn_started_at = now
    period = timedelta(days=game.days_per_move, seconds=seat.extra_seconds)
    seat.extra_seconds = 0
    start = now
    pause = vacation_pause(game, seat, now)
    if pause > timedelta(0):
        start = seat.paused_until = now + pause
        seat.vacation_seconds += int(pause.total_seconds())
    seat.deadline = deadline_after(start, period, **pauses_for(game, seat))
    return schedule_reminder(game, seat)


def schedule_reminder(game, seat):
    """Set `seat.remind_at`: the next reminder moment after the `reminder_stage` already sent
    this turn (None: no more, or no one to remind). Call it whenever the deadline changes."""
    seat.remind_at = None
    if not seat.to_act or not seat.deadline or not seat.player_id or not seat.turn_started_at:
        return seat
    start = max(seat.turn_started_at, seat.paused_until or seat.turn_started_at)
    moments = reminder_moments(start, seat.deadline, game.days_per_move)
    if seat.reminder_stage < len(moments):
        seat.remind_at = moments[seat.reminder_stage]
    return seat


def turn_deadline(game, seat, now):
    """The deadline a turn starting at `now` would get (what `set_turn` stores)."""
    return set_turn(game, _Copy(seat), True, now).deadline


class _Copy:
    """The fields of a seat that set_turn reads and writes, without touching the seat."""

    def __init__(self, seat):
        for name in ("player_id", "player", "extra_seconds", "vacation_seconds", "reminder_stage"):
            setattr(self, name, getattr(seat, name))


def is_paused(seat, now=None):
    return bool(seat.paused_until and seat.paused_until > (now or timezone.now()))


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


def should_hold_turn_email(seat, now=None):
    """True when a turn email for `seat` should wait (see turn_email_hold)."""
    return turn_email_hold(seat, now) is not None


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
    from games.models import Game

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

