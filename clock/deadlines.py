"""The clock of a slow game, on the database: a seat's clock loaded, changed, saved.

The arithmetic is pure, in clock.seatclock: load a seat's `clock_of(seat)` and
`rules_for(game, seat)`, call one of its functions, and `save` (or `apply`) the
new value, which writes only the fields that changed. A move starts and ends
turns through `games.signals.turns_changed`, which `clock.receivers` answers
with `set_turn`.
"""

from django.conf import settings
from django.utils import timezone

from clock import seatclock
from clock.seatclock import (  # noqa: F401 (the clock's API)
    DAY,
    LAST_DAY_REMINDER_MIN_DAYS,
    REMINDER_FRACTION,
    deadline_after,
    reminder_moments,
    reminders_due,
    running_time_between,
)
from games.times import player_zone

# --- A seat's clock ---------------------------------------------------------------


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
        days_per_move=game.days_per_move,
        day_seconds=day_seconds(),
        pause_weekends=bool(game.pause_weekends and player is not None),
        night_hours=night,
        tz=player_zone(player),
        vacation_cap_seconds=cap,
        away_until=player.away_until if player is not None else None,
        has_player=player is not None,
    )


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


def set_turn(game, seat, to_act, now):
    """Start (or end) `seat`'s turn at `now`: its deadline, pauses and reminders (not saved)."""
    clock = clock_of(seat)
    if not to_act:
        apply(seat, seatclock.turn_ended(clock))
    elif game.practice:  # practice is untimed: no deadline, reminder or vacation pause
        apply(seat, seatclock.untimed_turn(clock, now))
    else:
        apply(seat, seatclock.turn_started(clock, rules_for(game, seat), now))
    return seat


def is_paused(seat, now=None):
    return seatclock.is_paused(seat, now or timezone.now())
