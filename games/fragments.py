"""The game page's fragments kept in the cache, so an unchanged table renders nothing twice.

A fragment (`{% fragment "name" %}...{% endfragment %}` in games/game.html, `{% load fragments %}`)
is kept under a key made of what decides its markup: the game (`Game.kept_as`), the reader's seat (a spectator
is a seat of its own), the last event that reader sees (`Game.seen_seq`: a move anyone sees, or
the seat's own private one, is a new key; another seat's plan is not), the game's status, the
players' names as the page says them, and the version of the code and templates that draw it.
A seat never reads another seat's fragment: its number is in the key. Nothing there depends on
the request: the CSRF token, the form's one-time token, the deadline in the reader's time zone,
the table talk and the review (written by the worker, not by an event) stay outside.

The cache is the default one (Redis in production, shared by every process; each process's own
memory otherwise). A cache that is down renders the fragment as if it were not kept.
"""

import hashlib
import logging
from functools import cache
from pathlib import Path

from django.conf import settings
from django.core.cache import cache as default_cache

log = logging.getLogger(__name__)

KEPT_SECONDS = 3600  # a game nobody looks at lets its fragments go
GAMES = Path(__file__).resolve().parent
# What draws a fragment: its templates and the code that makes their markup.
SOURCES = ("templates/games/*.html", "games/board*.py", "games/presentation.py", "games/presenter/*.py")
SOURCES_IN_APP = ("templatetags/*.py", "coaching.py", "fragments.py")


@cache
def version():
    """A digest of the files that draw the fragments: a deploy that changes one reads new keys."""
    digest = hashlib.blake2b(digest_size=6)
    paths = [p for pattern in SOURCES for p in Path(settings.BASE_DIR).glob(pattern)]
    paths += [p for pattern in SOURCES_IN_APP for p in GAMES.glob(pattern)]
    for path in sorted(set(paths)):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def key(game, seat, seats):
    """The key of `game`'s fragments for the reader at `seat` (a Seat, or None: a spectator);
    `seats`: the game's seats with their players."""
    names = hashlib.blake2b("\x1f".join(str(s) for s in seats).encode(), digest_size=6).hexdigest()
    reader = "s" if seat is None else seat.number
    return f"games:fragment:{version()}:{game.kept_as}:{reader}:{game.seen_seq(seat)}:{game.status}:{names}"


def get(full_key):
    try:
        return default_cache.get(full_key)
    except Exception:  # a cache that is down answers like a miss
        log.warning("A page fragment could not be read from the cache.", exc_info=True)
        return None


def put(full_key, html):
    try:
        default_cache.set(full_key, html, KEPT_SECONDS)
    except Exception:
        log.warning("A page fragment could not be kept in the cache.", exc_info=True)
