"""The computer's play: what to throw and what to lay, at three levels, on the rules below.

A strategy module reads the rules (``games.cribbage``) and the shipped tables in ``data/``,
never the coach above it, never the generators of ``tables``. What callers outside use:

* ``choose_move(state, seat, level, rng)``: one of the legal moves (``players``);
* ``discard_options(hand, is_dealer, ...)``: every throw with its expected points (``analysis``);
* ``evaluate_plays(table)`` and ``table_from_plays(...)``: each playable card's net points now;
* ``has_table(variant, target)``: whether a win-chance table covers the game (``win_chance``).

The modules: ``players`` (the levels), ``analysis`` and ``stats`` (the show's expectation),
``crib_model`` and ``peg_table`` (the look-ups of the shipped tables), ``knowledge`` (what
a seat knows), ``peg_search`` and ``peg_search_multi`` (the pegging searches, two players
and three or four), ``play_positions`` (their numbered positions), ``endgame`` and
``win_chance`` (playing for the game near its end). ``win_chance`` the function is not
re-exported here: it would hide the module of the same name.
"""

from .analysis import DiscardOption, discard_options
from .players import BASELINES, EXPERT_PIECES, LEVELS, Table, choose_move, evaluate_plays, table_from_plays
from .win_chance import has_table

__all__ = [
    "BASELINES",
    "EXPERT_PIECES",
    "LEVELS",
    "DiscardOption",
    "Table",
    "choose_move",
    "discard_options",
    "evaluate_plays",
    "has_table",
    "table_from_plays",
]
