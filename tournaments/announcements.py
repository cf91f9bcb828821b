"""An organiser writes to every entrant of an event (events.announcements does it for every
event app)."""

from events import announcements

from .services import TournamentError


def announce(event, subject, body, *, actor):
    """Email every entrant of `event` (who takes announcements); TournamentError, nothing sent,
    when it cannot be (events.announcements.announce)."""
    players = [e.player for e in event.entrants.select_related("player")]
    return announcements.announce(
        event,
        subject,
        body,
        actor=actor,
        players=players,
        refusal=TournamentError,
        noun="event",
        nobody="Nobody is entered yet: nothing was sent.",
    )
