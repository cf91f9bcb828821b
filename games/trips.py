"""One trip to the database for a move's writes and what its receivers owe.

A move writes its events, its game row and its seats (games.statements.write_move), and the
receivers of games.signals.move_applied write what it owes (the turn email's outbox row, the
follow-ups). On PostgreSQL, `one_trip` gathers those writes and sends them as one query, the
statements run in order and the first that fails stopping the rest: the move costs one trip to
the database fewer than when each receiver wrote its rows apart (bench web). A statement run
while a trip is open sends the trip first, so whatever reads meanwhile sees the writes.
"""

import weakref
from contextlib import contextmanager

from django.db import DEFAULT_DB_ALIAS, connection, connections


class Trip:
    """Statements gathered to go to the database together, each with what reads its result."""

    def __init__(self):
        self.parts = []

    def add(self, sql, params, then=None):
        """Send `sql` with `params` with the trip; `then(cursor)` reads its result (the cursor on it)."""
        self.parts.append((sql, params, then))

    def go(self):
        parts, self.parts = self.parts, []
        if not parts:
            return
        with connection.cursor() as cursor:
            # Each statement merged with its values apart (psycopg keeps each statement's parsing, up
            # to 50 values, where it would parse the joined query again every time), then sent as one.
            mogrify = cursor.cursor.mogrify  # (the driver's own, not asked through Django's wrapper each time)
            cursor.execute("; ".join(mogrify(sql, params) for sql, params, _ in parts))
            for index, (_, _, then) in enumerate(parts):
                if index:
                    cursor.nextset()
                if then is not None:
                    then(cursor)


_trips: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # connection -> its open Trip


def current():
    """The connection's open Trip, or None."""
    return _trips.get(connections[DEFAULT_DB_ALIAS])


@contextmanager
def one_trip():
    """On PostgreSQL, the writes `write_move` and `insert_new(..., then=...)` are asked for inside
    the block go to the database together, in one query (the statements run in order, the first
    that fails stopping the rest), when the block ends, or before any other statement the
    connection runs meanwhile (so a read inside sees them). Yields the Trip (None elsewhere:
    each write goes at once). Inside an open trip, it is that one."""
    wrapper = connections[DEFAULT_DB_ALIAS]
    open_trip = _trips.get(wrapper)
    if open_trip is not None or wrapper.vendor != "postgresql":
        yield open_trip
        return
    trip = _trips[wrapper] = Trip()

    def first_the_trip(execute, sql, params, many, context):
        trip.go()  # (empty, and so nothing, when it is the trip's own query)
        return execute(sql, params, many, context)

    try:
        with wrapper.execute_wrapper(first_the_trip):
            yield trip
            trip.go()
    finally:
        del _trips[wrapper]
