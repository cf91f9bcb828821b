"""Follow-ups of a move, run after its transaction commits. Each is idempotent."""
from celery import shared_task

from games import computer, signals
from games.models import Game


@shared_task
def game_moved(game_id, seq):
    """What the state after event `seq` calls for: a finished game's news, the computer's turn."""
    if Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).exists():
        signals.game_finished.send(sender=Game, game_id=game_id)  # ladders count it (idempotent)
    computer.play_turn(game_id, seq)
