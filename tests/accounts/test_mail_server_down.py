"""The emails a person asks for on the site (a login link, a password reset, a confirmation) with
the mail server down: the page answers as ever, the email waits in the outbox and goes, its link
working, once the server is back. A real SMTP server (aiosmtpd) on a port that refuses until it
comes up there."""

import re
from datetime import timedelta
from urllib.parse import urlsplit

import pytest
import time_machine
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from accounts import services as accounts
from accounts.models import User
from cribsite.celery import app
from mail import services as mail_services
from mail import tasks as mail_tasks
from mail.models import OutboundEmail
from tests.accounts.conftest import SITE
from tests.factories import make_user
from tests.mail.server_down import sent_when_back, smtp_at, waiting
from tests.mail.smtp_sink import SmtpSink, free_port, text_part

pytestmark = pytest.mark.django_db
SWEPT = timedelta(minutes=3)  # past the first retry's wait and the sweeper's REQUEUE_AFTER


def the_link(message):
    """The path of the email's one action link (the help page's aside), in both of its parts."""
    [link] = {
        found for found in re.findall(re.escape(SITE) + r"/[^\s\"<]+", text_part(message)) if "/help/" not in found
    }
    assert f'href="{link}"' in message.get_body(preferencelist=("html",)).get_content()
    return urlsplit(link).path


def test_a_login_link_asked_for_while_the_server_is_down_arrives_when_it_is_back(client, settings):
    port = free_port()  # nothing listens there yet: every connection is refused
    smtp_at(settings, port)
    user = make_user(email="ann@example.com", display_name="Ann")
    response = client.post(reverse("accounts:login_link"), {"email": "ann@example.com", "next": "/calculator/"})
    assert response.status_code == 302 and response.url == reverse("accounts:login_link_sent")
    assert "we have sent it a login link" in client.get(response.url).text
    row = waiting(OutboundEmail.Kind.LOGIN_LINK)
    assert row.context == {"next_url": "/calculator/"}  # the link is made when it is sent
    # Asked again while it waits: the page is the same, and the one that goes serves both.
    again = client.post(reverse("accounts:login_link"), {"email": "ann@example.com", "next": "/calculator/"})
    assert again.url == reverse("accounts:login_link_sent")
    assert OutboundEmail.objects.count() == 1

    with time_machine.travel(timezone.now() + SWEPT, tick=False):
        message = sent_when_back(port, row)
        assert "login link" in message["Subject"] and "Auto-Submitted" not in message
        path = the_link(message)
        assert path.split("/")[-2] not in str(OutboundEmail.objects.values().get())  # stored nowhere
        assert "Log in as Ann" in client.get(path).text
        assert client.post(path).url == "/calculator/"
    assert client.get(reverse("home")).context["user"] == user


def test_a_password_reset_asked_for_while_the_server_is_down_arrives_when_it_is_back(client, settings):
    port = free_port()
    smtp_at(settings, port)
    user = make_user(email="ann@example.com")
    response = client.post(reverse("accounts:password_reset"), {"email": "ann@example.com"})
    assert response.url == reverse("accounts:password_reset_done")
    assert "Check your email" in client.get(response.url).text
    row = waiting(OutboundEmail.Kind.PASSWORD_RESET)
    assert row.context == {}

    with time_machine.travel(timezone.now() + SWEPT, tick=False):
        message = sent_when_back(port, row)
        form_page = client.get(the_link(message), follow=True)
        assert form_page.context["validlink"]
        done = client.post(
            form_page.redirect_chain[-1][0], {"new_password1": "new-Secret-456", "new_password2": "new-Secret-456"}
        )
    assert done.url == reverse("accounts:password_reset_complete")
    user.refresh_from_db()
    assert user.check_password("new-Secret-456")


def test_a_sign_up_while_the_server_is_down_is_confirmed_when_it_is_back(client, settings):
    port = free_port()
    smtp_at(settings, port)
    response = client.post(
        reverse("accounts:signup"),
        {
            "email": "new@example.com",
            "display_name": "Newt",
            "password1": "pw-Secret-123",
            "password2": "pw-Secret-123",
        },
    )
    assert response.status_code == 200 and "new@example.com" in response.text
    row = waiting(OutboundEmail.Kind.CONFIRM)
    with time_machine.travel(timezone.now() + SWEPT, tick=False):
        path = the_link(sent_when_back(port, row))
        client.post(path)
    assert User.objects.get(email="new@example.com").email_confirmed


def test_a_link_asked_for_before_the_address_changed_never_goes_to_the_old_one():
    user = make_user(email="ann@example.com")
    accounts.request_login_link("ann@example.com")  # owed; its commit never comes in this test
    row = OutboundEmail.objects.get(kind=OutboundEmail.Kind.LOGIN_LINK)
    user.email = "ann.new@example.com"
    user.save()
    assert mail_services.send_outbound(row.pk) == OutboundEmail.Status.SKIPPED
    assert mail.outbox == []


def test_a_confirmation_no_longer_needed_is_not_sent():
    user = make_user(email_confirmed=False)
    accounts.send_confirmation(user)
    user.email_confirmed = True  # by a login link meanwhile
    user.save()
    row = OutboundEmail.objects.get(kind=OutboundEmail.Kind.CONFIRM)
    assert mail_services.send_outbound(row.pk) == OutboundEmail.Status.SKIPPED and mail.outbox == []


@pytest.mark.redis
def test_with_a_broker_the_request_only_queues_the_email(client, settings, celery_on_redis):
    """In production a worker sends it: the request tries no mail server at all."""
    port = free_port()
    smtp_at(settings, port)
    make_user(email="ann@example.com")
    response = client.post(reverse("accounts:login_link"), {"email": "ann@example.com"})
    assert response.url == reverse("accounts:login_link_sent")
    row = OutboundEmail.objects.get(kind=OutboundEmail.Kind.LOGIN_LINK)
    assert (row.status, row.attempts, row.last_error) == (OutboundEmail.Status.READY, 0, "")
    app.conf.task_always_eager = True  # the worker's turn, here
    with SmtpSink(port=port) as sink:
        assert mail_tasks.send_outbound.apply(args=[row.pk]).get() == OutboundEmail.Status.SENT
        _, recipients, _ = sink.next(timeout=10)
    assert recipients == ["ann@example.com"]
