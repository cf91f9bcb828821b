"""An organiser writes to every entrant of an event, for every event app: the organiser checked,
the entrants found, then mail.announcements keeps the announcement and owes each email."""

from mail import announcements
from mail.models import Announcement


def event_key(event):
    """The name the record keeps the event's announcements under ("ladder:3", "tournament:5")."""
    return f"{event._meta.model_name}:{event.pk}"


def announce(event, subject, body, *, actor, players, refusal, noun, nobody, reply_to=""):
    """Email `subject` and `body` to `players` (the entrants of `event`, a `noun`) who take
    announcements; the Announcement kept. `refusal` (the app's error), nothing sent, for someone
    who does not run the event, an event with nobody in it (`nobody` says so), or an empty
    subject or message."""
    if not event.is_organiser(actor):
        raise refusal(f"Only an organiser of this {noun} may write to its entrants.")
    if not players:
        raise refusal(nobody)
    try:
        return announcements.announce(
            players,
            subject,
            body,
            event_label=event.name,
            key=event_key(event),
            sender=actor,
            url=event.get_absolute_url(),
            reply_to=reply_to,
        )
    except announcements.AnnouncementError as exc:
        raise refusal(exc.message) from exc


def sent_on(event):
    """The event's announcements, newest first."""
    return Announcement.objects.filter(event=event_key(event)).select_related("sender")
