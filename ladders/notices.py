"""Ladder notices by email, owed in the outbox in the transaction that causes them.

A notice is words the ladder's service chose at the time (a subject, a few
sentences, a link), kept as the outbox row's context and put into
templates ladders/email/ladder_notice.* when it is sent. Never put cards in a notice.
"""

from django.conf import settings

from mail import event_replies, messages, outbox
from mail.models import OutboundEmail


def ladder_address(ladder):
    """The ladder's own address: its players write "standings", "challenge NAME", ... to it, and
    every ladder email takes replies there (ladders.replies)."""
    return event_replies.event_address("ladder", ladder.slug)


def send(users, subject, lines, url="", *, cause, ladder=None):
    """Owe each of `users` (who has not turned email off) this notice, sent after commit.

    `lines` are plain sentences; `url` a path on this site; `cause` names the
    ladder event (unique per event and notice), so owing it twice sends it once;
    replies go to `ladder`'s address.
    """
    recipients = [u for u in users if u is not None and u.wants_email]
    link = f"{settings.SITE_URL}{url}" if url and url.startswith("/") else url
    context = {"subject": subject, "lines": list(lines), "url": link}
    if ladder is not None:
        context["reply_to"] = ladder_address(ladder)
    return len(
        outbox.write(
            outbox.owed(OutboundEmail.Kind.LADDER, user, f"{cause}:{user.pk}", context=context) for user in recipients
        )
    )


def compose(row):
    """The outbox's composer for ladder notices (registered in LaddersConfig.ready())."""
    return messages.build(
        "ladders/email/ladder_notice",
        row.context,
        to=row.user.email,
        user=row.user,
        reply_to=row.context.get("reply_to"),
    )
