"""Ratings react to finished games: a game that counts moves its players' ratings; every game
(practice apart) is tallied for its players' profiles."""

from django.dispatch import receiver

from games.models import Game
from games.signals import game_finished
from ratings.services import rate_game
from ratings.tallies import tally_game


@receiver(game_finished, sender=Game, dispatch_uid="ratings.rate_game")
def rate_finished_game(sender, game_id, **kwargs):
    rate_game(game_id)  # idempotent; nothing for a game that does not count


@receiver(game_finished, sender=Game, dispatch_uid="ratings.tally_game")
def tally_finished_game(sender, game_id, **kwargs):
    tally_game(game_id)  # idempotent: the player's profile figures
