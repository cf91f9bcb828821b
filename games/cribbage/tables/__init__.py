"""The generators of the shipped tables in ``data/``, each a command (``nice -n 10`` advised):

* ``python -m games.cribbage.tables.crib_model`` writes ``crib_model.json`` (with
  ``one_card_crib`` for three and four players); ``... crib_model patterns`` writes
  ``kept_patterns.json`` from it (``rank_hands``: the rank-only hands both walk);
* ``python -m games.cribbage.tables.peg_table [samples]`` writes ``peg_table.json``;
* ``python -m games.cribbage.tables.win_tables [deals]`` writes ``win_chance.json`` and
  ``win_chance_deals.json``.

Shared by the generators: ``rank_hands`` (the rank-only hands, and ``best_throws``, what each
throws under a crib's values) and ``shipped.write_table`` (how a table file is written).

The look-ups that read the tables at play are in ``games.cribbage.strategy``. Only this
package imports a generator: the game never runs one.
"""
