"""Delivery that outlasts outages: retries for days, then giving up where staff and the player
see it; refusals not retried; bounces and complaints reported by the ESP stop mail until the
player confirms the address again."""

import re
import smtplib
from datetime import timedelta
from unittest import mock

import pytest
import time_machine
from anymail.exceptions import AnymailAPIError, AnymailRecipientsRefused
from django.core import mail
from django.db import OperationalError
from django.utils import timezone

from accounts.models import User
from games import tasks as after_commit
from mail import delivery, tasks
from mail import services as mail_services
from mail.models import OutboundEmail
from tests.factories import make_user
from tests.mail import payloads

BANNER = "We could not email you: check your address"


def _owed_again(game, seat=0):
    """Seat `seat`'s turn email, made READY again as if just written."""
    row = OutboundEmail.objects.get(game=game, seat=seat)
    OutboundEmail.objects.filter(pk=row.pk).update(
        status="ready", attempts=0, created_at=timezone.now(), claimed_at=None, next_attempt_at=None, sent_at=None
    )
    mail.outbox.clear()
    return OutboundEmail.objects.get(pk=row.pk)


def _sweep_when_due(clock, row):
    """Move the clock to when the sweeper takes `row` again, and sweep (tasks run eagerly here)."""
    row.refresh_from_db()
    clock.move_to(max(row.next_attempt_at, row.claimed_at + mail_services.REQUEUE_AFTER + timedelta(seconds=1)))
    return after_commit.sweep.apply().get()


def test_the_waits_double_from_a_minute_to_four_hours():
    waits = [delivery.retry_delay(n) / timedelta(minutes=1) for n in range(1, 12)]
    assert waits == [1, 2, 4, 8, 16, 32, 64, 128, 240, 240, 240]


@pytest.mark.parametrize(
    "error, transient",
    [
        (ConnectionRefusedError(111, "Connection refused"), True),
        (TimeoutError("timed out"), True),
        (smtplib.SMTPServerDisconnected("Connection unexpectedly closed"), True),
        (smtplib.SMTPDataError(451, b"4.3.0 try again later"), True),
        (smtplib.SMTPRecipientsRefused({"a@example.com": (450, b"4.2.0 greylisted")}), True),
        (smtplib.SMTPDataError(554, b"5.7.1 rejected as spam"), False),
        (smtplib.SMTPRecipientsRefused({"a@example.com": (550, b"5.1.1 no such user")}), False),
        (smtplib.SMTPSenderRefused(553, b"5.7.1 sender refused", "play@example.org"), False),
        (AnymailAPIError("ESP down", status_code=503), True),
        (AnymailAPIError("too many requests", status_code=429), True),
        (AnymailAPIError("network error"), True),  # no response at all
        (AnymailAPIError("invalid request", status_code=422), False),
        (AnymailRecipientsRefused("all recipients refused"), False),
        (OperationalError("the database went away"), True),
    ],
)
def test_which_failures_are_tried_again(error, transient):
    assert delivery.is_transient(error) is transient


def test_a_row_that_keeps_failing_is_swept_for_three_days_then_gives_up(game, client):
    row = _owed_again(game)
    refused = ConnectionRefusedError(111, "Connection refused")
    with (
        mock.patch.object(mail.EmailMessage, "send", side_effect=refused),
        time_machine.travel(row.created_at, tick=False) as clock,
    ):
        assert tasks.send_outbound.apply(args=[row.pk]).get() == "ready"
        tried_at = [timezone.now()]
        while OutboundEmail.objects.get(pk=row.pk).status == "ready":
            assert _sweep_when_due(clock, row) == 1
            tried_at.append(timezone.now())
        assert mail_services.unsent_batch(now=timezone.now() + timedelta(days=30)) == []  # never again
    row.refresh_from_db()
    assert row.status == "gave_up" and row.attempts == len(tried_at) == 26
    assert tried_at[-1] - row.created_at == timedelta(days=3)  # the last try is at the horizon
    assert max(b - a for a, b in zip(tried_at, tried_at[1:])) <= timedelta(hours=4, minutes=2)
    assert "Connection refused" in row.last_error and mail.outbox == []
    alice = User.objects.get(email="alice@example.com")
    assert alice.email_trouble == "undelivered"
    # The player sees it on the site; mail to them is not stopped: the next email that goes clears it.
    client.force_login(alice)
    assert BANNER in client.get("/").content.decode()
    assert mail_services.send_outbound(_owed_again(game).pk) == "sent"
    assert BANNER not in client.get("/").content.decode()


def test_the_give_up_horizon_is_a_setting(game, settings):
    settings.MAIL_GIVE_UP_AFTER = timedelta(hours=1)
    row = _owed_again(game)
    with (
        mock.patch.object(mail.EmailMessage, "send", side_effect=TimeoutError("timed out")),
        time_machine.travel(row.created_at, tick=False) as clock,
    ):
        tasks.send_outbound.apply(args=[row.pk]).get()
        while OutboundEmail.objects.get(pk=row.pk).status == "ready":
            _sweep_when_due(clock, row)
        assert timezone.now() - row.created_at == timedelta(hours=1)
    row.refresh_from_db()
    assert row.status == "gave_up" and row.attempts == 7  # 0, 2, 4, 8, 16, 32 minutes, then at 60


def test_a_refusal_is_not_tried_again(game):
    row = _owed_again(game)
    with mock.patch.object(mail.EmailMessage, "send", side_effect=smtplib.SMTPDataError(554, b"5.7.1 spam")):
        assert tasks.send_outbound.apply(args=[row.pk]).get() == "failed"
    row.refresh_from_db()
    assert row.status == "failed" and row.attempts == 1 and row.next_attempt_at is None
    assert mail_services.unsent_batch(now=timezone.now() + timedelta(days=1)) == []
    # The message was refused, not the address: mail to the player goes on.
    assert User.objects.get(email="alice@example.com").email_trouble == ""


def test_a_refused_address_stops_mail_to_it(game, client):
    row = _owed_again(game)
    refused = smtplib.SMTPRecipientsRefused({"alice@example.com": (550, b"5.1.1 no such user")})
    with mock.patch.object(mail.EmailMessage, "send", side_effect=refused):
        assert mail_services.send_outbound(row.pk) == "failed"
    alice = User.objects.get(email="alice@example.com")
    assert alice.email_trouble == "refused" and not alice.wants_email
    assert mail_services.send_outbound(_owed_again(game).pk) == "skipped" and mail.outbox == []
    client.force_login(alice)
    assert BANNER in client.get("/").content.decode()


def test_the_sweeper_leaves_a_row_until_its_next_attempt(game):
    row = _owed_again(game)
    with (
        mock.patch.object(mail.EmailMessage, "send", side_effect=TimeoutError("timed out")),
        time_machine.travel(row.created_at, tick=False) as clock,
    ):
        for _ in range(5):  # waits of 1, 2, 4, 8 minutes: the next is 16 minutes after the fifth try
            tasks.send_outbound.apply(args=[row.pk]).get()
            row.refresh_from_db()
            clock.move_to(row.next_attempt_at)
        clock.move_to(row.claimed_at + timedelta(minutes=15))
        assert mail_services.unsent_batch() == []
        clock.move_to(row.claimed_at + timedelta(minutes=16))
        assert mail_services.unsent_batch() == [row.pk]


def test_staff_find_the_emails_that_gave_up_in_the_admin(game, client):
    given_up = _owed_again(game, seat=0)
    OutboundEmail.objects.filter(pk=given_up.pk).update(status="gave_up", last_error="TimeoutError('timed out')")
    client.force_login(make_user(is_staff=True, is_superuser=True))
    page = client.get("/admin/mail/outboundemail/", {"trouble": "gave_up"}).content.decode()
    assert "alice@example.com" in page and "bob@example.com" not in page
    assert "TimeoutError" in page
    assert "Gave up" in client.get("/admin/mail/outboundemail/").content.decode()  # the filter is offered


# --- Bounces and complaints reported by the ESP -----------------------------------------

TRACKING_CASES = {
    "postmark hard bounce": ("postmark", lambda to: payloads.postmark_bounce(to, "HardBounce"), "refused"),
    "postmark spam complaint": ("postmark", lambda to: payloads.postmark_bounce(to, "SpamComplaint"), "complained"),
    "postmark soft bounce": ("postmark", lambda to: payloads.postmark_bounce(to, "SoftBounce"), ""),
    "mailgun permanent failure": ("mailgun", lambda to: payloads.mailgun_event(to), "refused"),
    "mailgun temporary failure": (
        "mailgun",
        lambda to: payloads.mailgun_event(to, severity="temporary", reason="generic"),
        "",
    ),
    "mailgun complaint": ("mailgun", lambda to: payloads.mailgun_event(to, event="complained"), "complained"),
    "mailgun delivered": ("mailgun", lambda to: payloads.mailgun_event(to, event="delivered"), ""),
}


@pytest.mark.parametrize("case", TRACKING_CASES)
def test_the_tracking_webhook_stops_mail_on_a_bounce_or_complaint(game, client, settings, case):
    settings.ANYMAIL = payloads.ANYMAIL_SETTINGS
    esp, payload, trouble = TRACKING_CASES[case]
    response = payloads.post_tracking(client, esp, payload("Alice@Example.com"))
    assert response.status_code == 200
    alice = User.objects.get(email="alice@example.com")
    assert alice.email_trouble == trouble
    assert User.objects.get(email="bob@example.com").email_trouble == ""
    expected = "skipped" if trouble else "sent"
    assert mail_services.send_outbound(_owed_again(game).pk) == expected


def test_a_tracking_post_without_the_secret_changes_nothing(game, client, settings):
    settings.ANYMAIL = payloads.ANYMAIL_SETTINGS
    response = payloads.post_tracking(
        client, "postmark", payloads.postmark_bounce("alice@example.com"), secret="wrong:secret"
    )
    assert response.status_code == 400
    assert User.objects.get(email="alice@example.com").email_trouble == ""


def test_confirming_the_address_again_starts_mail_again(game, client, settings):
    settings.ANYMAIL = payloads.ANYMAIL_SETTINGS
    payloads.post_tracking(client, "postmark", payloads.postmark_bounce("alice@example.com"))
    alice = User.objects.get(email="alice@example.com")
    client.force_login(alice)
    page = client.get("/accounts/profile/").content.decode()
    assert BANNER in page and "Send a new confirmation link" in page
    mail.outbox.clear()
    client.post("/accounts/confirm/resend/")
    (confirmation,) = mail.outbox  # asked for by the player: sent though the address bounced
    link = re.search(r"https?://\S+(/accounts/confirm/\S+/)", confirmation.body).group(1)
    assert client.post(link).status_code == 302
    alice.refresh_from_db()
    assert alice.email_trouble == "" and alice.wants_email
    assert BANNER not in client.get("/").content.decode()
    assert mail_services.send_outbound(_owed_again(game).pk) == "sent"


def test_a_complaint_is_not_undone_by_a_later_bounce_report(game, client, settings):
    settings.ANYMAIL = payloads.ANYMAIL_SETTINGS
    payloads.post_tracking(client, "mailgun", payloads.mailgun_event("alice@example.com", event="complained"))
    payloads.post_tracking(client, "mailgun", payloads.mailgun_event("alice@example.com"))
    assert User.objects.get(email="alice@example.com").email_trouble == "complained"
