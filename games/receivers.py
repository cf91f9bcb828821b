"""The games app's own follow-ups of a move: the computer's turn and a finished game's news."""

from django.dispatch import receiver

from games import cribbage, follow_ups, signals, tasks
from games.models import Game


@receiver(signals.move_applied, sender=Game, dispatch_uid="games.follow_up")
def follow_up(sender, game, seats, state, **kwargs):
    # A finished game (its ladder result) and a computer's turn call for a task after
    # commit; a move between people needs nothing beyond what the other receivers write.
    # A computer that waits (Game.computer_delay) is played by the sweeper when its wait is over.
    computer = any(seats[n].is_computer for n in cribbage.to_act(state)) and not game.computer_delay
    if game.is_finished or computer:
        follow_ups.enqueue_on_commit(tasks.game_moved, game.pk, game.seq)
