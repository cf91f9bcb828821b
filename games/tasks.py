"""Follow-ups of a move, run after its transaction commits. Each is idempotent."""

import logging

from celery import shared_task
from django.utils import timezone

from games import computer, follow_ups, signals
from games.models import Game

log = logging.getLogger(__name__)


@shared_task
def game_moved(game_id, seq):
    """What the state after event `seq` calls for: a finished game's news, the computer's turn."""
    if Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).exists():
        signals.game_finished.send(sender=Game, game_id=game_id)  # ladders count it (idempotent)
    computer.play_turn(game_id, seq)


@shared_task
def sweep_stalled_turns():
    """Periodic (beat "games-sweep-stalled-turns", every 2 minutes): queue again the computer's
    turns whose task was lost, so a move saved while the broker was down is answered later."""
    stalled = computer.stalled_turns(timezone.now())
    for game_id, seq in stalled:
        if not follow_ups.enqueue(game_moved, game_id, seq):
            break
    if stalled:
        log.info("Re-queued the computer's turn in %d games.", len(stalled))
    return len(stalled)
