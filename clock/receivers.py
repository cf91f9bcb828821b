"""The clock's part in a move: each turn that starts gets its deadline and reminders."""

from django.dispatch import receiver

from games.models import Game
from games.signals import turns_changed

from . import deadlines


@receiver(turns_changed, sender=Game, dispatch_uid="clock.set_turns")
def set_turns(sender, game, seats, now, **kwargs):
    for seat in seats:
        deadlines.set_turn(game, seat, seat.to_act, now)  # the move service saves Seat.TURN_FIELDS
