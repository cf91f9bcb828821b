"""An organiser's announcement to every entrant of an event, for any event app (ladders, tournaments).

The event app checks that the sender runs the event and gives the entrants;
`announce` keeps the message (mail.models.Announcement: who, when, the words)
and owes each entrant who takes event announcements one outbox email, sent
after commit. Each email offers an unsubscribe that stops announcements only
(links.events_unsubscribe_url), as a link and in the List-Unsubscribe headers.
"""

from django.db import transaction

from . import links, messages, outbox
from .models import Announcement, OutboundEmail

MAX_SUBJECT = 150
MAX_BODY = 10_000


class AnnouncementError(Exception):
    """An announcement that cannot be sent as written; nothing was sent."""

    def __init__(self, message):
        super().__init__(message)
        self.message = message


def takes_announcements(user):
    return user is not None and user.event_announcements and user.wants_email


def announce(recipients, subject, body, *, event_label, key, sender, url="", reply_to=""):
    """Keep the announcement and owe it to each of `recipients` who takes announcements.

    `key` names the event for the record ("ladder:3": every announcement of one event
    shares it); `event_label` is its name in the email; `url` its page (a path or a full
    address); `reply_to` the event's address, where replies go. Returns the Announcement.
    Raises AnnouncementError, sending nothing, for an empty or oversized subject or body.
    """
    subject = " ".join((subject or "").split())
    body = (body or "").replace("\r\n", "\n").strip()
    if not subject:
        raise AnnouncementError("Write a subject: nothing was sent.")
    if not body:
        raise AnnouncementError("Write the message: nothing was sent.")
    if len(subject) > MAX_SUBJECT or len(body) > MAX_BODY:
        raise AnnouncementError(
            f"Keep the subject under {MAX_SUBJECT} characters and the message under {MAX_BODY}: nothing was sent."
        )
    if "\x00" in subject + body:
        raise AnnouncementError("The text holds a character that cannot be sent (NUL): nothing was sent.")
    people = {user.pk: user for user in recipients if takes_announcements(user)}
    with transaction.atomic():
        announcement = Announcement.objects.create(
            event=key,
            event_label=event_label[:200],
            sender=sender,
            subject=subject,
            body=body,
            url=links.absolute(url) if url.startswith("/") else url,
            reply_to=reply_to,
            recipients=len(people),
        )
        outbox.write(
            outbox.owed(
                OutboundEmail.Kind.ANNOUNCEMENT,
                user,
                f"{announcement.pk}:{user.pk}",
                context={"announcement": announcement.pk},
            )
            for user in people.values()
        )
    return announcement


def compose(row):
    """The outbox's composer for announcements (registered in MailConfig.ready())."""
    announcement = Announcement.objects.select_related("sender").filter(pk=row.context.get("announcement")).first()
    if announcement is None:
        return "the announcement is gone"
    if not row.user.event_announcements:
        return "the player stopped event announcements"
    context = {
        "announcement": announcement,
        "paragraphs": [p.strip() for p in announcement.body.split("\n\n") if p.strip()],
        "unsubscribe_url": links.events_unsubscribe_url(row.user),
    }
    return messages.build(
        "mail/email/announcement", context, to=row.user.email, user=row.user, reply_to=announcement.reply_to or None
    )


def stop(user):
    """The one-click unsubscribe of an announcement: no more announcements, every other email as before."""
    type(user).objects.filter(pk=user.pk).update(event_announcements=False)
    user.event_announcements = False
