"""Which event a game is played in, by the event's own numbering, for what lies below the event
apps: the game page's title and every email's subject (mail.subjects). Each event app registers
its namer in its AppConfig.ready(), as games cannot import them."""

import logging
from collections.abc import Callable
from dataclasses import dataclass

from django.core.cache import cache

log = logging.getLogger(__name__)
KEPT_SECONDS = 300  # how long a renamed event's old name may still head its games' pages
_MISSING = object()


@dataclass(frozen=True)
class EventGame:
    event: str  # the event's name: "Winter League"
    url: str  # the event's page
    title: str  # the game in the event's numbering, as the event's page says it: "Round 2, table 3 · game 1"
    subject: str  # how an email's subject names it: "Winter League, round 2"


_NAMERS: list[Callable[[int], EventGame | None]] = []


def register(namer):
    """Register `namer(game_id)`: the EventGame of a game of the app's events, or None."""
    _NAMERS.append(namer)


def of(game_id) -> EventGame | None:
    for namer in _NAMERS:
        found = namer(game_id)
        if found is not None:
            return found
    return None


def of_kept(game_id, kept=_MISSING) -> EventGame | None:
    """`of`, kept a few minutes in the cache, for the game page, which is looked at again and again
    (a game in no event asks every namer for nothing). A game's event never changes once it
    started: the event's service starts the game and records it in one transaction. So only an
    event renamed since shows its old name, for at most KEPT_SECONDS; a cache that is down asks.
    `kept`: what the cache holds under `kept_key(game_id)`, when the caller read it with other
    keys (the game page reads it with its fragments, games.fragments.Page); MISSING when none."""
    key = kept_key(game_id)
    found = kept
    if found is _MISSING:
        try:
            found = cache.get(key, _MISSING)
        except Exception:
            log.warning("The event of a game could not be read from the cache.", exc_info=True)
            found = _MISSING
    if found is _MISSING:
        found = of(game_id)
        try:
            cache.set(key, found, KEPT_SECONDS)
        except Exception:
            log.warning("The event of a game could not be kept in the cache.", exc_info=True)
    return found


def kept_key(game_id):
    """The cache's key of the game's event (`of_kept`)."""
    return f"games:event_game:{game_id}"


MISSING = _MISSING
