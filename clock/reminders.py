"""Reminders before a deadline.

At most one per stage of a turn (see clock.deadlines.reminder_moments),
claimed by a conditional UPDATE of the seat's `reminder_stage` in the same
transaction that owes the reminder in the outbox (mail.outbox), so two sweeps
at once owe it once; it is rendered and sent after commit (clock.emails), and
a failed send is retried by the outbox. Nobody is reminded while looking at
the game (visits.note_seen), nor if they chose no email.
"""

import logging

from django.db import transaction
from django.utils import timezone

from clock import deadlines
from games import visits
from games.models import Seat
from mail import outbox
from mail.models import OutboundEmail

log = logging.getLogger(__name__)

BATCH = 200


def due_reminders(now, limit=BATCH):
    """Seat ids whose next reminder is due (the partial index on Seat.remind_at)."""
    return list(
        Seat.objects.filter(to_act=True, remind_at__lte=now, game__practice=False)
        .order_by("remind_at")
        .values_list("pk", flat=True)[:limit]
    )


def send_due_reminders(now=None, batch=BATCH):
    """Periodic: owe the reminders that are due (a bounded batch). Returns how many are owed."""
    now = now or timezone.now()
    sent = 0
    for seat_id in due_reminders(now, batch):
        try:
            sent += remind(seat_id, now)
        except Exception:
            log.exception("Reminder for seat %s not owed; the next sweep tries again.", seat_id)
    return sent


def remind(seat_id, now=None):
    """Owe `seat`'s due reminder once (1), or nothing (0: not due, already owed, looking, no email)."""
    now = now or timezone.now()
    seat = Seat.objects.select_related("game", "player").get(pk=seat_id)
    game = seat.game
    if not seat.to_act or seat.remind_at is None or seat.remind_at > now or game.is_finished:
        return 0
    if visits.is_looking(seat, now):
        return 0  # they are at the table; the next sweep looks again
    start = max(seat.turn_started_at, seat.paused_until or seat.turn_started_at)
    moments = deadlines.reminder_moments(start, seat.deadline, game.days_per_move)
    stage = max(deadlines.reminders_due(start, seat.deadline, game.days_per_move, now), seat.reminder_stage + 1)
    later = [m for m in moments if m > now]
    with transaction.atomic():
        claimed = Seat.objects.filter(
            pk=seat.pk,
            to_act=True,
            turn_started_at=seat.turn_started_at,
            reminder_stage=seat.reminder_stage,
            deadline=seat.deadline,
        ).update(reminder_stage=stage, remind_at=later[0] if later else None)
        if not claimed:
            return 0
        user = seat.player
        if user is None or not user.wants_email:
            return 0
        started = seat.turn_started_at.isoformat()
        return outbox.owe(
            OutboundEmail.Kind.REMINDER,
            user,
            f"{seat.pk}:{started}:{stage}",
            context={"turn_started_at": started},
            game_id=game.pk,
            seat=seat.number,
        )
