"""Events react to finished games: an event game counts in its pairing."""

from games.signals import game_finished
from tournaments.services import record_game_result

# Idempotent; nothing for a game outside an event.
game_finished.listen("tournaments.count_game", record_game_result)
