"""What the game page's poll answers from: the last event each reader of a game sees.

A poll asks whether anything its reader can see has happened. The answer is the game's
`public_seq` (with the seat's `private_seq`) and status: with a cache shared by every process
(settings.POLL_FROM_CACHE, on with CACHE_URL) it is kept there, set by each move as it commits,
so an unchanged poll reads neither the game nor its log. A process's own memory would not hear
of a move made in the worker, so without a shared cache the numbers are read in one SELECT.
"""

import logging
from functools import partial

from django.conf import settings
from django.core.cache import DEFAULT_CACHE_ALIAS, cache
from django.db import transaction

from games.models import Seat

log = logging.getLogger(__name__)

KEPT_SECONDS = 600  # bounds how long a number set out of order could stand


def _key(game_id):
    return f"games:poll:{game_id}"


def numbers(game_id, session=None):
    """{"public": .., "status": .., "sealable": .., "seats": {player id: (seat id, private seq)}},
    or None for no such game. The reader's `session`, when its store can (cribsite.sessions'
    read_beside), is read from the cache in the same trip."""
    if settings.POLL_FROM_CACHE:
        try:
            found = _cached(_key(game_id), session)
        except Exception:  # a cache that is down answers like a miss
            log.warning("The poll cache could not be read.", exc_info=True)
            found = None
        if found is not None:
            return found
    found = _read(game_id)
    if found is not None and settings.POLL_FROM_CACHE:
        # add, not set: a move that committed meanwhile has set newer numbers, which stay.
        _quietly(cache.add, _key(game_id), found, KEPT_SECONDS)
    return found


def _cached(key, session):
    read_beside = getattr(session, "read_beside", None)
    return cache.get(key) if read_beside is None else read_beside(DEFAULT_CACHE_ALIAS, [key]).get(key)


def _read(game_id):
    rows = Seat.objects.filter(game__pk=game_id).values_list(  # (game__pk: an id past any row is none)
        "pk", "player_id", "private_seq", "game__public_seq", "game__status", "game__deal_seed"
    )
    found = None
    for pk, player_id, private_seq, public_seq, status, deal_seed in rows:
        found = found or {"public": public_seq, "status": status, "sealable": bool(deal_seed), "seats": {}}
        if player_id is not None:
            found["seats"][player_id] = (pk, private_seq)
    return found


def of_game(game, seats):
    """The numbers of `game` with its seats (Seat objects), as they stand in memory."""
    return {
        "public": game.public_seq,
        "status": str(game.status),  # the value: a Game.Status kept is unpickled by a call to its enum
        "sealable": bool(game.deal_seed),
        "seats": {s.player_id: (s.pk, s.private_seq) for s in seats if s.player_id is not None},
    }


def seen(found, player_id):
    """The last event the reader `player_id` (None: a spectator) sees, from `numbers`."""
    seat = found["seats"].get(player_id) if player_id is not None else None
    return max(found["public"], seat[1]) if seat else found["public"]


def tag(game_id, seen, status):
    """The poll's ETag: the game, the last event its reader sees and its status."""
    return f'"{game_id}-{seen}-{status}"'


def remember(game, seats):
    """Once the transaction commits, the poll's numbers are those of `game` and its `seats` now."""
    if settings.POLL_FROM_CACHE:
        transaction.on_commit(partial(_quietly, cache.set, _key(game.pk), of_game(game, seats), KEPT_SECONDS))


def forget(game_id):
    """Once the transaction commits, the poll reads the game's numbers again."""
    if settings.POLL_FROM_CACHE:
        transaction.on_commit(partial(_quietly, cache.delete, _key(game_id)))


def _quietly(operation, *args):
    # Saved means success: a cache that is down never fails a committed move or a poll.
    if not settings.POLL_FROM_CACHE:
        return
    try:
        operation(*args)
    except Exception:
        log.warning("The poll cache could not be written.", exc_info=True)
