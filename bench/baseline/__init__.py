"""A frozen copy of the expert as it played before the crib model, the win-chance tables and
the pegging search (players.py and analysis.py, imports pointed at the engine): the baseline
the strength benchmark measures the new expert against. Never edit it."""

from .players import choose_move

__all__ = ["choose_move"]
