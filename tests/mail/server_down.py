"""The mail server down, then back: a real SMTP server (tests.mail.smtp_sink) on a port that
refuses until it comes up there, and the outbox row that waited for it."""

from games import tasks as after_commit
from mail.models import OutboundEmail

from .smtp_sink import SmtpSink


def smtp_at(settings, port):
    """Send through the SMTP server at 127.0.0.1:`port` (nothing there yet: refused)."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_USE_TLS, settings.EMAIL_HOST_USER, settings.EMAIL_HOST_PASSWORD = False, "", ""


def waiting(kind):
    """The one row of `kind`: tried once in vain, kept to be tried again."""
    row = OutboundEmail.objects.get(kind=kind)
    assert (row.status, row.attempts) == (OutboundEmail.Status.READY, 1)
    assert "refused" in row.last_error.lower() and row.next_attempt_at is not None
    return row


def sent_when_back(port, row):
    """The server comes back and one sweep sends the row, once (the clock past its next try):
    the message the server got."""
    with SmtpSink(port=port) as sink:
        assert after_commit.sweep.apply().get() == 1
        _, recipients, message = sink.next(timeout=10)
        assert sink.drain(timeout=0.3) == []
        assert after_commit.sweep.apply().get() == 0  # nothing left owed
    row.refresh_from_db()
    assert row.status == OutboundEmail.Status.SENT and recipients == [row.to]
    assert row.message_id == message["Message-ID"].strip()
    return message
