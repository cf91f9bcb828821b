"""Events react to finished games: an event game counts in its pairing."""

from django.dispatch import receiver

from games.models import Game
from games.signals import game_finished
from tournaments.services import record_game_result


@receiver(game_finished, sender=Game, dispatch_uid="tournaments.count_game")
def count_game(sender, game_id, **kwargs):
    record_game_result(game_id)  # idempotent; nothing for a game outside an event
