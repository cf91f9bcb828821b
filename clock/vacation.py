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
import math
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from accounts.models import User, Vacation
from clock import deadlines
from clock.events import ClockError, record_clock_event
from games.models import Event, Game, Seat

log = logging.getLogger(__name__)

ACCRUAL_DAYS = 12      # one vacation day earned every 12 days
CAP_DAYS = 30          # at most this many days held
MAX_LENGTH_DAYS = 30   # one vacation lasts at most this long
BATCH = 200


class VacationError(ClockError):
    pass


def days_left(user, now=None):
    """The vacation days `user` holds now (a fraction grows day by day)."""
    now = now or timezone.now()
    held = user.vacation_days
    if held >= CAP_DAYS:
        return held
    earned = max(0.0, (now - user.vacation_days_at) / timedelta(days=ACCRUAL_DAYS))
    return min(CAP_DAYS, held + earned)


def _settled(user_id, now):
    """The user's row, locked, with the allowance brought up to `now`."""
    user = User.objects.select_for_update().get(pk=user_id)
    user.vacation_days, user.vacation_days_at = days_left(user, now), now
    return user


def start_vacation(user, days, now=None, source=Event.Source.WEB):
    """Go away for `days` whole days from now: every clock of `user` stops; opponents are told."""
    now = now or timezone.now()
    try:
        days = int(days)
    except (TypeError, ValueError):
        raise VacationError("Say how many days, e.g. 7.") from None
    if not 1 <= days <= MAX_LENGTH_DAYS:
        raise VacationError(f"A vacation lasts 1 to {MAX_LENGTH_DAYS} days.")
    with transaction.atomic():
        user = _settled(user.pk, now)
        if user.away_until and user.away_until > now:
            raise VacationError(f"You are already on vacation until {deadlines.deadline_text(user.away_until, user, now)}.")
        if days > math.floor(user.vacation_days + 1e-9):
            raise VacationError(f"You have {math.floor(user.vacation_days + 1e-9)} whole vacation days left, "
                                f"not {days}.")
        until = now + timedelta(days=days)
        user.vacation_days -= days
        user.away_until = until
        user.save(update_fields=["vacation_days", "vacation_days_at", "away_until"])
        vacation = Vacation.objects.create(user=user, starts_at=now, ends_at=until, days=days)
    paused = []
    for seat in _turns_of(user):
        if _pause(seat, now, until, source, user):
            paused.append(seat.game_id)
    from clock import reminders

    reminders.notify_later("send_vacation_notices", user.pk, "start")
    return vacation, paused


def _turns_of(user):
    return list(Seat.objects.filter(player=user, to_act=True, game__status=Game.Status.ACTIVE)
                .order_by("game_id").only("pk", "game_id", "number"))


def _pause(seat, now, until, source, actor):
    data = {"kind": "vacation_start", "seat": seat.number}

    def change(game, seats):
        row = seats[seat.number]
        if not row.to_act or row.timed_out_at or row.deadline is None:
            raise VacationError("nothing to pause")
        left = deadlines.vacation_left(game, row)
        pause = until - now if left is None else min(until - now, left)
        if pause <= timedelta(0):
            raise VacationError("this game allows no more vacation")
        pauses = deadlines.pauses_for(game, row)
        remaining = deadlines.running_time_between(max(now, row.paused_until or now), row.deadline, **pauses)
        row.paused_until = now + pause
        row.vacation_seconds += int(pause.total_seconds())
        row.deadline = deadlines.deadline_after(row.paused_until, remaining, **pauses)
        deadlines.schedule_reminder(game, row)
        data.update(until=row.paused_until.isoformat(), deadline=row.deadline.isoformat())
        return [(row, ["paused_until", "vacation_seconds", "deadline", "remind_at"])]

    try:
        record_clock_event(Game(pk=seat.game_id), seat.number, data, source, actor, change=change)
    except ClockError:
        return False
    return True


def end_vacation(user, now=None, source=Event.Source.WEB):
    """Come back (by hand, or by the sweep at the end date): paused clocks run again from now;
    days not used go back to the allowance. Returns the vacation, or None if none was under way."""
    now = now or timezone.now()
    with transaction.atomic():
        user = _settled(user.pk, now)   # the user's row first, as start_vacation locks it
        vacation = Vacation.objects.select_for_update().filter(user=user, ended_at__isnull=True).first()
        if vacation is None:
            return None
        unused = max(timedelta(0), vacation.ends_at - now) / timedelta(days=1)
        user.vacation_days += unused
        user.away_until = None
        user.save(update_fields=["vacation_days", "vacation_days_at", "away_until"])
        vacation.ended_at = min(now, vacation.ends_at)
        vacation.days -= unused
        vacation.save(update_fields=["ended_at", "days"])
    for seat in Seat.objects.filter(player=user, to_act=True, paused_until__gt=now).only("pk", "game_id", "number"):
        _resume(seat, now, source, user)
    if unused > 0:  # came back early: tell the opponents
        from clock import reminders

        reminders.notify_later("send_vacation_notices", user.pk, "end")
    return vacation


def _resume(seat, now, source, actor):
    data = {"kind": "vacation_end", "seat": seat.number}

    def change(game, seats):
        row = seats[seat.number]
        if not row.paused_until or row.paused_until <= now:
            raise VacationError("not paused")
        pauses = deadlines.pauses_for(game, row)
        remaining = deadlines.running_time_between(row.paused_until, row.deadline, **pauses)
        row.vacation_seconds = max(0, row.vacation_seconds - int((row.paused_until - now).total_seconds()))
        row.paused_until = None
        row.deadline = deadlines.deadline_after(now, remaining, **pauses)
        deadlines.schedule_reminder(game, row)
        data["deadline"] = row.deadline.isoformat()
        return [(row, ["paused_until", "vacation_seconds", "deadline", "remind_at"])]

    try:
        record_clock_event(Game(pk=seat.game_id), seat.number, data, source, actor, change=change)
    except ClockError:
        return False
    return True


def end_due_vacations(now=None, batch=BATCH):
    """Periodic: end the vacations whose end date has come (a bounded batch). Idempotent."""
    now = now or timezone.now()
    ended = 0
    for vacation in (Vacation.objects.filter(ended_at__isnull=True, ends_at__lte=now)
                     .select_related("user").order_by("ends_at")[:batch]):
        if end_vacation(vacation.user, now, source=Event.Source.TIMEOUT) is not None:
            ended += 1
    return ended


def spend_day_instead(game, seat, now):
    """Called by the timeout sweep, under the game's lock: if the player of this overdue
    `seat` has a whole vacation day left (and the game allows it), spend it: the
    deadline moves a day on, the log says so, the player is told. True if spent."""
    player = seat.player
    if player is None or deadlines.vacation_left(game, seat) is not None and \
            deadlines.vacation_left(game, seat) < timedelta(days=1):
        return False
    if days_left(player, now) < 1:   # read without a lock first: most players who time out have none
        return False
    with transaction.atomic():
        user = _settled(player.pk, now)
        if user.vacation_days < 1:
            return False
        user.vacation_days -= 1
        user.save(update_fields=["vacation_days", "vacation_days_at"])
        data = {"kind": "vacation_day", "seat": seat.number, "days": 1}

        def change(game, seats):
            row = seats[seat.number]
            row.deadline = max(row.deadline + deadlines.DAY, now + timedelta(hours=1))
            row.vacation_seconds += 86400
            row.remind_at = None   # told now, with the new deadline
            data.update(deadline=row.deadline.isoformat(), days_left=math.floor(user.vacation_days + 1e-9))
            return [(row, ["deadline", "vacation_seconds", "remind_at"])]

        record_clock_event(game, seat.number, data, Event.Source.TIMEOUT, change=change)
    from clock import reminders

    reminders.notify_later("send_vacation_day", game.pk, seat.number)
    return True
