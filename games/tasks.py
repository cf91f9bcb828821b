"""Follow-ups of a move, run after its transaction commits. Each is idempotent."""
from celery import shared_task


@shared_task
def game_moved(game_id, seq):
    """What the state after event `seq` calls for: a finished game's ladder result, the computer's turn."""
    from ladders.services import record_game_result

    record_game_result(game_id)  # a finished ladder game counts in its match (idempotent)

    from games import computer

    computer.play_turn(game_id, seq)
