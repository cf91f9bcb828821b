"""Clock events: a change of a seat's clock, written in the game's own log.

More time, a timeout the opponent may claim, a vacation day spent, a vacation
starting or ending: each is an Event (kind in games.models.CLOCK_EVENT_KINDS)
appended through games.services.append_clock_event with the next seq, under
the game's row lock, in the same transaction as the change of the seats'
clocks. The rules engine never sees them.
"""
from django.db import transaction

from games import services
from games.models import Game, Seat


class ClockError(Exception):
    """A clock change that is not allowed. Nothing was written."""

    def __init__(self, message):
        super().__init__(message)
        self.message = message


def record_clock_event(game, seat, data, source, actor=None, *, change=None):
    """Append clock event `data` (seat number `seat` made or suffered it) to `game`.

    `change(game, seats)`, given the locked game and its seats by number (with
    players), checks and changes the clocks: it returns the [(seat, fields)] to
    save, may add to `data`, and raises ClockError to write nothing. Returns
    (game, event).
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.is_finished:
            raise ClockError("This game is over.")
        seats = {s.number: s for s in Seat.objects.filter(game=game).select_related("player")}
        to_save = change(game, seats) if change else []
        game, event = services.append_clock_event(game, data, seat=seat, source=source, actor=actor)
        for row, fields in to_save:
            row.save(update_fields=fields)
    return game, event
