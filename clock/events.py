"""Clock events: a change of a seat's clock, written in the game's own log.

More time, a timeout the opponent may claim, a vacation day spent, a vacation
starting or ending: each is an Event (kind in games.models.CLOCK_EVENT_KINDS)
appended through games.services.append_clock_event with the next seq, under
the game's row lock, in the same transaction as the change of the seat's
clock. The rules engine never sees them.
"""

from django.db import transaction

from clock import deadlines
from clock.seatclock import ClockError  # noqa: F401 (raised by the changes; callers catch it from here)
from games import services
from games.models import Game, Seat


def record_clock_event(game, seat, data, source, actor=None, *, change, on=None):
    """Append clock event `data` to `game`, changing the clock of seat number `on` (default `seat`,
    the seat that made or suffered it) by `change(clock, rules)`: a pure function of
    clock.seatclock that returns the new SeatClock, or raises ClockError to write nothing.

    The event records the seat's new deadline (None if it is not their turn) and, for a
    pause, when it ends. Returns (game, event, clock).
    """
    on = seat if on is None else on
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.is_finished:
            raise ClockError("This game is over.", code="stale")
        row = Seat.objects.select_related("player").get(game=game, number=on)
        before = deadlines.clock_of(row)
        after = change(before, deadlines.rules_for(game, row))
        data = {**data, "deadline": after.deadline.isoformat() if after.to_act and after.deadline else None}
        if after.paused_until and after.paused_until != before.paused_until:
            data["until"] = after.paused_until.isoformat()
        game, event = services.append_clock_event(game, data, seat=seat, source=source, actor=actor)
        deadlines.save(row, after)
    return game, event, after
