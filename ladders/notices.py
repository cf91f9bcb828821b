"""Ladder notices by email: plain text with an HTML alternative, sent after commit."""
import logging

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.template.loader import render_to_string

log = logging.getLogger(__name__)


def send(users, subject, lines, url=""):
    """Email each of `users` (who has not turned email off) once the transaction commits.

    `lines` are plain sentences; `url` a path on this site. Never put cards in a notice.
    """
    recipients = [u for u in users if u is not None and u.wants_email]
    if not recipients:
        return
    link = f"{settings.SITE_URL}{url}" if url and url.startswith("/") else url
    context = {"subject": subject, "lines": list(lines), "url": link, "site_url": settings.SITE_URL}

    def deliver():
        text = render_to_string("ladders/email/notice.txt", context)
        html = render_to_string("ladders/email/notice.html", context)
        for user in recipients:
            message = EmailMultiAlternatives(subject, text, settings.DEFAULT_FROM_EMAIL, [user.email],
                                             headers={"Auto-Submitted": "auto-generated"})
            message.attach_alternative(html, "text/html")
            try:
                message.send()
            except Exception:  # one bad address must not stop the others
                log.exception("Ladder notice to %s failed", user.email)

    transaction.on_commit(deliver)
