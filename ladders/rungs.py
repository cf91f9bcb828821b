"""Ladder positions as a fold over a ledger of operations (plain Python, no Django).

Every change to who stands where is one operation in the ladder's history;
the positions are what you get by applying the operations, oldest first, to
an empty ladder. `Entrant.position` caches the fold, as `Game.snapshot` does
for a game. Undoing a result removes its operation from the fold and applies
every later one again to the positions that result.

THE ORDERING RULE (results finishing out of order, overlapping rungs):
results are applied one at a time in the order their matches finish (a
forfeited challenge "finishes" when its answer was due; ties by match id),
each to the positions at that moment:
  * a winning challenger who still stands below the defender takes the
    defender's current place, and everyone from that place down to the
    challenger's old place moves down one;
  * a winning challenger who already stands above the defender (another
    result moved them) stays where they are;
  * a defender's win moves nobody;
  * a result involving someone no longer on the ladder moves nobody.

Operations (dicts, JSON-friendly; entrants are ids):
  {"op": "append", "entrant": e}                 join at the bottom
  {"op": "remove", "entrant": e}                 leave; those below move up one
  {"op": "order", "order": [e, ...]}             set the whole order (organiser, new season)
  {"op": "promote", "winner": e, "over": d}      a challenger's match win
  {"op": "drop", "entrant": e, "places": k}      idle rule: down k places (not past the bottom)
"""


def apply_op(order, op):
    """The order (a list of entrant ids, top first) after one operation."""
    order = list(order)
    kind = op["op"]
    if kind == "append":
        if op["entrant"] not in order:
            order.append(op["entrant"])
    elif kind == "remove":
        if op["entrant"] in order:
            order.remove(op["entrant"])
    elif kind == "order":
        # Only those on the ladder count; anyone not named keeps their relative
        # order below those named.
        listed = [e for e in op["order"] if e in order]
        order = listed + [e for e in order if e not in listed]
    elif kind == "promote":
        winner, over = op["winner"], op["over"]
        if winner in order and over in order:
            w, d = order.index(winner), order.index(over)
            if w > d:
                order.pop(w)
                order.insert(d, winner)
    elif kind == "drop":
        entrant = op["entrant"]
        if entrant in order:
            i = order.index(entrant)
            order.pop(i)
            order.insert(min(i + int(op["places"]), len(order)), entrant)
    else:
        raise ValueError(f"Unknown ladder operation {kind!r}")
    return order


def fold(ops, order=()):
    """The order after applying `ops` in turn."""
    order = list(order)
    for op in ops:
        order = apply_op(order, op)
    return order


def positions(order):
    """{entrant id: position} with 1 at the top."""
    return {entrant: i for i, entrant in enumerate(order, start=1)}
