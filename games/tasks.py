"""Follow-ups of a move, run after its transaction commits. Each is idempotent."""
from celery import shared_task


@shared_task
def game_moved(game_id, seq):
    """Whatever the state after event `seq` calls for: the computer's turn, for now."""
    from games import computer

    computer.play_turn(game_id, seq)
