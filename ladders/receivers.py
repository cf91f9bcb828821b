"""Ladders react to finished games: a ladder game counts in its match."""

from django.dispatch import receiver

from games.models import Game
from games.signals import game_finished
from ladders.matches import record_game_result


@receiver(game_finished, sender=Game, dispatch_uid="ladders.count_game")
def count_game(sender, game_id, **kwargs):
    record_game_result(game_id)  # idempotent; nothing for a game outside a ladder
