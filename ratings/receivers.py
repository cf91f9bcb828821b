"""Ratings react to finished games: a game that counts moves its players' ratings; every game
(practice apart) is tallied for its players' profiles."""

from games.signals import game_finished
from ratings.services import rate_game
from ratings.tallies import tally_game

# Each idempotent: nothing for a game that does not count; the player's profile figures.
game_finished.listen("ratings.rate_game", rate_game)
game_finished.listen("ratings.tally_game", tally_game)
