"""An organiser writes to every entrant of a ladder: mail.announcements does the sending.

Tournaments and any other event call mail.announcements.announce the same way, with their own
organiser check, entrants and key.
"""

from django.db import transaction

from mail import announcements
from mail.models import Announcement

from . import notices, services
from .models import Ladder


def event_key(ladder):
    return f"ladder:{ladder.pk}"


def announce(ladder, subject, body, *, actor):
    """Email `subject` and `body` to everyone on `ladder` (who takes announcements); the
    Announcement kept. LadderError, nothing sent, for someone who does not run the ladder,
    a ladder with nobody on it, or an empty subject or message."""
    if not ladder.is_organiser(actor):
        raise services.LadderError("Only an organiser of this ladder may write to its entrants.")
    players = [e.player for e in ladder.entrants.filter(active=True).select_related("player")]
    if not players:
        raise services.LadderError("Nobody is on this ladder yet: nothing was sent.")
    with transaction.atomic():
        try:
            sent = announcements.announce(
                players,
                subject,
                body,
                event_label=ladder.name,
                key=event_key(ladder),
                sender=actor,
                url=ladder.get_absolute_url(),
                reply_to=notices.ladder_address(ladder),
            )
        except announcements.AnnouncementError as exc:
            raise services.LadderError(exc.message) from exc
        services.record_note(ladder, "announcement", f"{actor} wrote to the entrants: {sent.subject}", actor=actor)
    return sent


def sent_on(ladder: Ladder):
    """The ladder's announcements, newest first."""
    return Announcement.objects.filter(event=event_key(ladder)).select_related("sender")
