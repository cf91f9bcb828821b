"""Ladders react to finished games: a ladder game counts in its match."""

from games.signals import game_finished
from ladders.matches import record_game_result

# Idempotent; nothing for a game outside a ladder.
game_finished.listen("ladders.count_game", record_game_result)
