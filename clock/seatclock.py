"""A seat's clock as a frozen value, and the pure arithmetic that changes it.

Each seat has a period of *running* time per turn. The clock stops (if the
game says so) at weekends and during the player's night hours, both in the
player's own time zone, and while the player is on vacation. A day of running
time is 24 running hours: with nights paused, a 1-day clock started at 10:00
with a night of 23:00-07:00 runs out at 18:00 the next day (as on the Dragon
Go Server). Players may still move while the clock is stopped.

Durations are whole seconds. Nothing here reads or writes the database (no
Django import): clock.deadlines loads a `SeatClock` and its `ClockRules`
from a seat, calls one of the functions below, and saves the fields that
changed (`changed_fields`).
"""

from dataclasses import dataclass, fields, replace
from datetime import UTC, datetime, time, timedelta, tzinfo

DAY_SECONDS = 86400
DAY = timedelta(days=1)
REMINDER_FRACTION = 0.8  # first reminder when 80% of the turn's time is used
LAST_DAY_REMINDER_MIN_DAYS = 3  # clocks this long get a second one, 24 hours before the deadline
_MAX_CALENDAR_DAYS = 3660  # no clock runs this long: guards against a clock that never runs
VACATION_DAY_MIN_LEFT = timedelta(hours=1)  # a vacation day spent late still leaves an hour


class ClockError(Exception):
    """A clock change that is not allowed. Nothing was written.

    `code` is "stale" when the game has moved past the request (it is over, nobody is out of
    time any more), "" for bad input (games.presenter.refusals.status_of gives the page's status)."""

    def __init__(self, message, *, code=""):
        super().__init__(message)
        self.message, self.code = message, code


# --- Running time ------------------------------------------------------------------


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
    if start > end:  # a night across midnight, e.g. 23 to 7: runs 7 to 23
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
    day = start.astimezone(tz).date() - DAY  # a night across midnight may start the day before
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


# --- The values ----------------------------------------------------------------------


@dataclass(frozen=True)
class ClockRules:
    """What one seat's clock obeys: the game's settings and its player's night, zone and vacation."""

    days_per_move: int
    day_seconds: int = DAY_SECONDS  # a day per move, in seconds (shorter only for trials)
    pause_weekends: bool = False
    night_hours: tuple | None = None
    tz: tzinfo = UTC
    vacation_cap_seconds: int | None = None  # vacation this game allows per seat (None: no limit)
    away_until: datetime | None = None  # the player's vacation under way ends then
    has_player: bool = True  # False for a computer seat: nobody to remind

    @property
    def period_seconds(self):
        return self.days_per_move * self.day_seconds

    @property
    def pauses(self):
        """The keyword arguments of deadline_after for this clock."""
        return {"pause_weekends": self.pause_weekends, "night_hours": self.night_hours, "tz": self.tz}

    def after(self, start, seconds):
        """The moment `seconds` of this clock's running time after `start`."""
        return deadline_after(start, timedelta(seconds=seconds), **self.pauses)

    def running_seconds(self, start, end):
        return int(running_time_between(start, end, **self.pauses).total_seconds())


@dataclass(frozen=True)
class SeatClock:
    """The clock fields of a Seat (same names), as one value."""

    to_act: bool = False
    deadline: datetime | None = None
    turn_started_at: datetime | None = None
    reminder_stage: int = 0
    remind_at: datetime | None = None
    extra_seconds: int = 0  # more time granted for the next turn
    paused_until: datetime | None = None
    vacation_seconds: int = 0  # vacation used in this game
    timed_out_at: datetime | None = None
    bank_seconds: int = 0  # what is left of the game's time bank for this seat


FIELDS = tuple(f.name for f in fields(SeatClock))


def changed_fields(before, after):
    """The names of the fields that differ between two clocks, in field order."""
    return [name for name in FIELDS if getattr(before, name) != getattr(after, name)]


def is_paused(clock, now):
    return bool(clock.paused_until and clock.paused_until > now)


# --- Vacation -------------------------------------------------------------------------


def vacation_left(clock, rules):
    """Seconds more of the player's vacation this game allows (None: no limit of its own)."""
    if rules.vacation_cap_seconds is None:
        return None
    return max(0, rules.vacation_cap_seconds - clock.vacation_seconds)


def vacation_pause(clock, rules, now):
    """Seconds `clock` stays stopped from `now` for the player's vacation under way."""
    if not rules.has_player or rules.away_until is None or rules.away_until <= now:
        return 0
    pause = int((rules.away_until - now).total_seconds())
    left = vacation_left(clock, rules)
    return pause if left is None else min(pause, left)


# --- Changes -----------------------------------------------------------------------------


def with_reminder(clock, rules):
    """`clock` with `remind_at` the next reminder moment after the `reminder_stage` already sent
    this turn (None: no more, or no one to remind). Apply whenever the deadline changes."""
    if not clock.to_act or not clock.deadline or not rules.has_player or not clock.turn_started_at:
        return replace(clock, remind_at=None)
    start = max(clock.turn_started_at, clock.paused_until or clock.turn_started_at)
    moments = reminder_moments(start, clock.deadline, rules.days_per_move)
    return replace(clock, remind_at=moments[clock.reminder_stage] if clock.reminder_stage < len(moments) else None)


def turn_started(clock, rules, now):
    """The clock of a turn starting at `now`: the period plus any more time granted, paused
    first for a vacation under way."""
    period = rules.period_seconds + clock.extra_seconds
    pause = vacation_pause(clock, rules, now)
    paused_until = now + timedelta(seconds=pause) if pause > 0 else None
    started = replace(
        clock,
        to_act=True,
        turn_started_at=now,
        reminder_stage=0,
        timed_out_at=None,
        extra_seconds=0,
        paused_until=paused_until,
        vacation_seconds=clock.vacation_seconds + pause,
        deadline=rules.after(paused_until or now, period),
    )
    return with_reminder(started, rules)


def untimed_turn(clock, now):
    """The clock of a turn with no deadline (a practice game): nothing to remind, pause or time out."""
    return replace(
        clock,
        to_act=True,
        turn_started_at=now,
        reminder_stage=0,
        timed_out_at=None,
        paused_until=None,
        deadline=None,
        remind_at=None,
    )


def turn_ended(clock):
    """The clock of a seat that has nothing to play."""
    return replace(
        clock,
        to_act=False,
        deadline=None,
        turn_started_at=None,
        reminder_stage=0,
        remind_at=None,
        paused_until=None,
        timed_out_at=None,
    )


def timed_out(clock, rules, now):
    """Out of time, for the others to decide (or a last period for the discard): one more full
    period from `now`; no reminder (the others are told instead)."""
    return replace(
        clock, timed_out_at=now, deadline=rules.after(now, rules.period_seconds), reminder_stage=0, remind_at=None
    )


def more_time(clock, rules, seconds, now):
    """`seconds` more running time: on this turn's deadline (from `now` if out of time), or
    kept for the next turn."""
    if not clock.to_act:
        return replace(clock, extra_seconds=clock.extra_seconds + seconds)
    if clock.timed_out_at is not None or clock.deadline <= now:
        deadline = rules.after(now, seconds)
    else:
        deadline = rules.after(clock.deadline, seconds)
    return with_reminder(replace(clock, deadline=deadline, timed_out_at=None, reminder_stage=0), rules)


def vacation_started(clock, rules, now, until):
    """The clock stopped from `now` until `until` (or as long as this game allows), the
    running time that was left kept for after."""
    if not clock.to_act or clock.timed_out_at or clock.deadline is None:
        raise ClockError("Nothing to pause: it is not this player's turn.")
    left = vacation_left(clock, rules)
    pause = int((until - now).total_seconds())
    pause = pause if left is None else min(pause, left)
    if pause <= 0:
        raise ClockError("This game allows no more vacation.")
    remaining = rules.running_seconds(max(now, clock.paused_until or now), clock.deadline)
    paused_until = now + timedelta(seconds=pause)
    return with_reminder(
        replace(
            clock,
            paused_until=paused_until,
            vacation_seconds=clock.vacation_seconds + pause,
            deadline=rules.after(paused_until, remaining),
        ),
        rules,
    )


def vacation_ended(clock, rules, now):
    """Back at `now`: the running time that was left counts from now; the pause not used is
    given back to the game's vacation allowance."""
    if not clock.paused_until or clock.paused_until <= now:
        raise ClockError("This clock is not paused.")
    remaining = rules.running_seconds(clock.paused_until, clock.deadline)
    unused = int((clock.paused_until - now).total_seconds())
    return with_reminder(
        replace(
            clock,
            paused_until=None,
            vacation_seconds=max(0, clock.vacation_seconds - unused),
            deadline=rules.after(now, remaining),
        ),
        rules,
    )


def vacation_day_spent(clock, rules, now):
    """An automatic vacation day for an overdue turn: the deadline moves a calendar day on (at
    least an hour from `now`), so the next one falls on another day; no reminder (the player
    is told now)."""
    deadline = max(clock.deadline + DAY, now + VACATION_DAY_MIN_LEFT)
    return replace(clock, deadline=deadline, vacation_seconds=clock.vacation_seconds + DAY_SECONDS, remind_at=None)


def bank_day_spent(clock, rules, now):
    """An overdue turn spends a day of its time bank (or what is left of it) as running time
    after the deadline. A sweep that comes late may spend several, one after the other: the
    bank is time past the deadline, whenever it is looked at."""
    if clock.bank_seconds <= 0 or not clock.to_act or clock.deadline is None:
        raise ClockError("No time bank is left.")
    spend = min(clock.bank_seconds, rules.day_seconds)
    return replace(
        clock, deadline=rules.after(clock.deadline, spend), bank_seconds=clock.bank_seconds - spend, remind_at=None
    )


def allows_vacation_day(clock, rules):
    left = vacation_left(clock, rules)
    return left is None or left >= DAY_SECONDS
