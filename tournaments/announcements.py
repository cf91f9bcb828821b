"""An organiser writes to every entrant of an event: mail.announcements does the sending,
as it does for ladders (ladders/announcements.py)."""

from mail import announcements
from mail.models import Announcement

from .models import Tournament
from .services import TournamentError


def event_key(event):
    return f"tournament:{event.pk}"


def announce(event, subject, body, *, actor):
    """Email `subject` and `body` to every entrant of `event` (who takes announcements); the
    Announcement kept. TournamentError, nothing sent, for someone who does not run the event,
    an event with nobody entered, or an empty subject or message."""
    if not event.is_organiser(actor):
        raise TournamentError("Only an organiser of this event may write to its entrants.")
    players = [e.player for e in event.entrants.select_related("player")]
    if not players:
        raise TournamentError("Nobody is entered yet: nothing was sent.")
    try:
        return announcements.announce(
            players,
            subject,
            body,
            event_label=event.name,
            key=event_key(event),
            sender=actor,
            url=event.get_absolute_url(),
        )
    except announcements.AnnouncementError as exc:
        raise TournamentError(exc.message) from exc


def sent_on(event: Tournament):
    """The event's announcements, newest first."""
    return Announcement.objects.filter(event=event_key(event)).select_related("sender")
