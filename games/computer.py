"""The computer at the table: it moves through the same service as everyone."""

import logging

from django.utils import timezone

from games import follow_ups, services
from games.cribbage.strategy import choose_move
from games.models import Event, Game

log = logging.getLogger(__name__)


def play_turn(game_id, seq):
    """Make one computer move in `game_id` if the state after `seq` awaits one.

    A task for an older state does nothing: the newer state has its own task.
    """
    game = Game.objects.get(pk=game_id)
    if game.seq != seq or game.is_finished:
        return None
    if game.computer_delay and timezone.now() < game.updated_at + game.computer_delay:
        raise follow_ups.Later(game.updated_at + game.computer_delay)  # the sweeper plays it then
    state = services.engine_state(game)
    for seat in game.seats.filter(to_act=True, player__isnull=True):
        move = choose_move(state, seat.number, level=seat.computer_level)
        try:
            return services.submit_move(game, seat.number, move, expected_seq=seq, source=Event.Source.COMPUTER)
        except services.StaleMove:
            log.info("Game %s moved on before the computer played; skipping.", game_id)
            return None
    return None
