"""The games app's own follow-ups of a move: the computer's turn and a finished game's news."""

from django.dispatch import receiver

from games import cribbage, signals
from games.models import Game


@receiver(signals.move_applied, sender=Game, dispatch_uid="games.follow_up")
def follow_up(sender, game, seats, state, **kwargs):
    # Owed in the move's transaction, done after commit (games.follow_ups); a move between
    # people needs nothing beyond what the other receivers write. A computer that waits
    # (Game.computer_delay) is played by the sweeper when its wait is over.
    if game.is_finished:
        signals.game_finished.owe(game.pk)
    elif any(seats[n].is_computer for n in cribbage.to_act(state)):
        signals.computer_turn.owe(game.pk, seq=game.seq, after=game.computer_delay)
