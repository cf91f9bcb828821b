"""Vacation: days away that stop a player's clocks in all their games.

The allowance grows by one day every ACCRUAL_DAYS days up to CAP_DAYS (as on
the Go servers); a new player starts with the User.vacation_days default.
Starting a vacation takes its days at once and pauses the clock of every
turn the player has to play (a game may cap or forbid vacation:
Game.vacation_cap_days); turns that start while away begin paused
(clock.deadlines.set_turn). Ending early gives back the days not used. A player
who forgot to start one is not timed out while days are left: the timeout
sweep spends a day instead (`spend_day_instead`) and tells them.
"""

import logging
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from accounts.models import User, Vacation, VacationDay
from clock import deadlines, notices, seatclock, selectors
from clock.events import ClockError, record_clock_event
from games import times
from games.cribbage.notation import read_number
from games.models import Event, Game, Seat
from mail import outbox

log = logging.getLogger(__name__)

DAY_SECONDS = seatclock.DAY_SECONDS
ACCRUAL_DAYS = 12  # one vacation day earned every 12 days
CAP_DAYS = 30  # at most this many days held
MAX_LENGTH_DAYS = 30  # one vacation lasts at most this long
BATCH = 200


class VacationError(ClockError):
    pass


def seconds_left(user, now=None):
    """The vacation `user` holds now, in whole seconds (it grows a day every ACCRUAL_DAYS days)."""
    now = now or timezone.now()
    held, cap = user.vacation_seconds, CAP_DAYS * DAY_SECONDS
    if held >= cap:
        return held
    earned = max(0, int((now - user.vacation_days_at).total_seconds())) // ACCRUAL_DAYS
    return min(cap, held + earned)


def days_left(user, now=None):
    """The vacation days `user` holds now (a fraction grows day by day)."""
    return seconds_left(user, now) / DAY_SECONDS


def whole_days_left(user, now=None):
    return seconds_left(user, now) // DAY_SECONDS


def _settled(user_id, now):
    """The user's row, locked, with the allowance brought up to `now`."""
    user = User.objects.select_for_update().get(pk=user_id)
    user.vacation_seconds, user.vacation_days_at = seconds_left(user, now), now
    return user


def start_vacation(user, days, now=None, source=Event.Source.WEB):
    """Go away for `days` whole days from now: every clock of `user` stops; opponents are told."""
    now = now or timezone.now()
    days = read_number(None if days is None else str(days))  # digits 0 to 9, as in a reply
    if days is None:
        raise VacationError("Say how many days in the digits 0 to 9, e.g. 7.")
    if not 1 <= days <= MAX_LENGTH_DAYS:
        raise VacationError(f"A vacation lasts 1 to {MAX_LENGTH_DAYS} days.")
    with transaction.atomic():
        user = _settled(user.pk, now)
        if user.away_until and user.away_until > now:
            raise VacationError(
                f"You are already on vacation until {times.deadline_text(user.away_until, user, now)}.", code="stale"
            )
        whole = user.vacation_seconds // DAY_SECONDS
        if days > whole:
            raise VacationError(f"You have {whole} whole vacation days left, not {days}.")
        until = now + timedelta(days=days)
        user.vacation_seconds -= days * DAY_SECONDS
        user.away_until = until
        user.save(update_fields=["vacation_seconds", "vacation_days_at", "away_until"])
        vacation = Vacation.objects.create(user=user, starts_at=now, ends_at=until, seconds=days * DAY_SECONDS)
        told = notices.owe_vacation_notices(user.pk, "start", vacation.pk, send=False)
    paused = []
    for seat in selectors.turns_of(user):
        if _pause(seat, now, until, source, user):
            paused.append(seat.game_id)
    outbox.queue(told)  # now that they tell the stopped clocks
    return vacation, paused


def _pause(seat, now, until, source, actor):
    try:
        record_clock_event(
            Game(pk=seat.game_id),
            seat.number,
            {"kind": "vacation_start", "seat": seat.number},
            source,
            actor,
            change=lambda clock, rules: seatclock.vacation_started(clock, rules, now, until),
        )
    except ClockError:
        return False
    return True


def end_vacation(user, now=None, source=Event.Source.WEB):
    """Come back (by hand, or by the sweep at the end date): paused clocks run again from now;
    days not used go back to the allowance. Returns the vacation, or None if none was under way."""
    now = now or timezone.now()
    with transaction.atomic():
        user = _settled(user.pk, now)  # the user's row first, as start_vacation locks it
        vacation = Vacation.objects.select_for_update().filter(user=user, ended_at__isnull=True).first()
        if vacation is None:
            return None
        unused = max(0, int((vacation.ends_at - now).total_seconds()))
        user.vacation_seconds += unused
        user.away_until = None
        user.save(update_fields=["vacation_seconds", "vacation_days_at", "away_until"])
        vacation.ended_at = min(now, vacation.ends_at)
        vacation.seconds -= unused
        vacation.save(update_fields=["ended_at", "seconds"])
        # Came back early: tell the opponents, once the clocks run again.
        told = notices.owe_vacation_notices(user.pk, "end", vacation.pk, send=False) if unused > 0 else []
    for seat in Seat.objects.filter(player=user, to_act=True, paused_until__gt=now).only("pk", "game_id", "number"):
        _resume(seat, now, source, user)
    outbox.queue(told)
    return vacation


def _resume(seat, now, source, actor):
    try:
        record_clock_event(
            Game(pk=seat.game_id),
            seat.number,
            {"kind": "vacation_end", "seat": seat.number},
            source,
            actor,
            change=lambda clock, rules: seatclock.vacation_ended(clock, rules, now),
        )
    except ClockError:
        return False
    return True


def end_due_vacations(now=None, batch=BATCH):
    """Periodic: end the vacations whose end date has come (a bounded batch). Idempotent."""
    now = now or timezone.now()
    ended = 0
    for vacation in (
        Vacation.objects.filter(ended_at__isnull=True, ends_at__lte=now)
        .select_related("user")
        .order_by("ends_at")[:batch]
    ):
        if end_vacation(vacation.user, now, source=Event.Source.TIMEOUT) is not None:
            ended += 1
    return ended


def spend_day_instead(game, seat, now):
    """Called by the timeout sweep, under the game's lock: keep this overdue `seat`'s game going
    with a vacation day, if the game allows it. Vacation counts per calendar day of the player
    (their local date of the deadline missed): the first game out of time that day charges a
    whole day, if one is left; every other game of theirs out of time that day is covered by it.
    The deadline moves a day on, the log says so, the player is told. True if covered."""
    player = seat.player
    if player is None or not seatclock.allows_vacation_day(deadlines.clock_of(seat), deadlines.rules_for(game, seat)):
        return False
    day = seat.deadline.astimezone(player.zone).date()
    charged = VacationDay.objects.filter(user=player, day=day).exists()
    if not charged and seconds_left(player, now) < DAY_SECONDS:  # no lock yet: most who time out have none
        return False
    with transaction.atomic():
        user = _settled(player.pk, now)  # one sweep at a time charges this player
        if not VacationDay.objects.filter(user=user, day=day).exists():
            if user.vacation_seconds < DAY_SECONDS:
                return False
            user.vacation_seconds -= DAY_SECONDS
            user.save(update_fields=["vacation_seconds", "vacation_days_at"])
            VacationDay.objects.create(user=user, day=day, spent_at=now)
            charged_now = 1
        else:
            charged_now = 0
        data = {
            "kind": "vacation_day",
            "seat": seat.number,
            "days": charged_now,
            "day": day.isoformat(),
            "days_left": user.vacation_seconds // DAY_SECONDS,
        }
        _, event, _ = record_clock_event(
            game,
            seat.number,
            data,
            Event.Source.TIMEOUT,
            change=lambda clock, rules: seatclock.vacation_day_spent(clock, rules, now),
        )
        notices.owe_vacation_day(game.pk, seat.number, event.seq)
    return True
