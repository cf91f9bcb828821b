"""Which event a game is played in, by the event's own numbering, for what lies below the event
apps: the game page's title and every email's subject (mail.subjects). Each event app registers
its namer in its AppConfig.ready(), as games cannot import them."""

from collections.abc import Callable
from dataclasses import dataclass


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
