"""The computer at the table: it moves through the same service as everyone."""

import logging
from datetime import timedelta

from django.db.models import DateTimeField, ExpressionWrapper, F, Q
from django.utils import timezone

from games import services
from games.cribbage.strategy import choose_move
from games.models import Event, Game

log = logging.getLogger(__name__)

# A computer's turn untouched this long lost its task (the broker was down, a worker died).
STALLED_AFTER = timedelta(minutes=2)


def stalled_turns(now, limit=200):
    """(game id, seq) of the active games where the computer has been to act for STALLED_AFTER,
    or, in a game where it waits (Game.computer_delay), whose wait is over: the sweeper queues
    their turn (play_turn does nothing for a state that moved on, or before the wait is over)."""
    due = ExpressionWrapper(F("updated_at") + F("computer_delay"), output_field=DateTimeField())
    return list(
        Game.objects.alias(due=due)
        .filter(
            Q(computer_delay=timedelta(0), updated_at__lt=now - STALLED_AFTER)
            | Q(computer_delay__gt=timedelta(0), due__lte=now),
            status=Game.Status.ACTIVE,
            seats__to_act=True,
            seats__player__isnull=True,
        )
        .order_by("updated_at")
        .values_list("pk", "seq")
        .distinct()[:limit]
    )


def play_turn(game_id, seq):
    """Make one computer move in `game_id` if the state after `seq` awaits one.

    A task for an older state does nothing: the newer state has its own task.
    """
    game = Game.objects.get(pk=game_id)
    if game.seq != seq or game.is_finished:
        return None
    if game.computer_delay and timezone.now() < game.updated_at + game.computer_delay:
        return None  # not yet: the sweeper plays it when the wait is over
    state = services.engine_state(game)
    for seat in game.seats.filter(to_act=True, player__isnull=True):
        move = choose_move(state, seat.number, level=seat.computer_level)
        try:
            return services.submit_move(game, seat.number, move, expected_seq=seq, source=Event.Source.COMPUTER)
        except services.StaleMove:
            log.info("Game %s moved on before the computer played; skipping.", game_id)
            return None
    return None
