"""The account's address is guarded as an attacker would try it: a borrowed session cannot change
it without the password (or, for an account without one, a login link followed lately); the
old address is told, and its link undoes the change for a week; a taken address is answered
as a free one, its owner told instead."""

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from mail.models import OutboundEmail
from tests.accounts.conftest import link_in
from tests.factories import make_user

pytestmark = pytest.mark.django_db
PASSWORD = "pw-Secret-123"
SENT = "We sent a link to the new address: it becomes yours once you follow it."


def change(client, email, **fields):
    response = client.post(reverse("accounts:change_email"), {"email": email, **fields}, follow=True)
    assert [status for _, status in response.redirect_chain] == [302]
    return [str(m) for m in response.context["messages"]]


def test_a_borrowed_session_changes_nothing_without_the_password(client):
    olga = make_user("olga@example.com", "Olga")
    client.force_login(olga)  # someone else at Olga's unlocked computer
    assert change(client, "thief@example.net") == ["That is not your password: nothing was changed."]
    for _ in range(4):
        assert change(client, "thief@example.net", password="guess") == [
            "That is not your password: nothing was changed."
        ]
    # Six tries an hour at most, even with the right one (a guesser does not get to go on).
    assert change(client, "thief@example.net", password=PASSWORD)[0].startswith("Too many passwords tried")
    assert not mail.outbox and User.objects.get(pk=olga.pk).email == "olga@example.com"


def test_the_owner_with_the_password_is_sent_the_link(client):
    olga = make_user("olga@example.com", "Olga")
    client.force_login(olga)
    assert change(client, "new@example.com", password=PASSWORD) == [SENT]
    [message] = mail.outbox
    assert message.to == ["new@example.com"]


def test_an_account_without_a_password_changes_it_only_after_a_fresh_login_link(client):
    pia = make_user("pia@example.com", "Pia", password=None)
    client.force_login(pia)  # a session alone: borrowed, or its login link forwarded long ago
    [said] = change(client, "thief@example.net")
    assert "first follow the login link we sent to pia@example.com" in said
    [login_mail] = mail.outbox
    assert login_mail.to == ["pia@example.com"] and User.objects.get(pk=pia.pk).email == "pia@example.com"
    owner = type(client)()
    path = link_in(login_mail)
    owner.get(path)
    assert owner.post(path).status_code == 302
    assert change(owner, "pia.new@example.com") == [SENT]
    assert mail.outbox[-1].to == ["pia.new@example.com"]
    with time_machine.travel(timezone.now() + timedelta(minutes=16)):
        assert "first follow the login link" in change(owner, "other@example.com")[0]


def test_a_taken_address_is_answered_as_a_free_one_and_its_owner_is_told(client):
    make_user("taken@example.com", "Tara")
    olga = make_user("olga@example.com", "Olga")
    client.force_login(olga)
    assert change(client, "Taken@Example.com", password=PASSWORD) == [SENT]
    [told] = mail.outbox
    assert told.to == ["taken@example.com"] and "asked to use this address" in told.body
    assert olga.email not in told.body  # the owner is not told who asked, the asker not whose it is
    assert change(client, "free@example.com", password=PASSWORD) == [SENT]
    assert mail.outbox[-1].to == ["free@example.com"]
    assert User.objects.get(pk=olga.pk).email == "olga@example.com"


def test_the_old_address_is_told_and_its_link_undoes_the_change_and_logs_everyone_out(client):
    olga = make_user("olga@example.com", "Olga")
    thief = type(client)()  # another browser, its on-commit work run as the client fixture's
    thief.force_login(olga)  # who knows her password, and has her session
    assert change(thief, "thief@example.net", password=PASSWORD) == [SENT]
    change_path = link_in(mail.outbox[-1])
    thief.post(change_path, follow=True)
    assert User.objects.get(pk=olga.pk).email == "thief@example.net"

    row = OutboundEmail.objects.get(kind=OutboundEmail.Kind.ADDRESS_CHANGED)
    assert row.to == "olga@example.com" and row.status == OutboundEmail.Status.SENT
    [notice] = [m for m in mail.outbox if m.to == ["olga@example.com"]]
    assert "changed from olga@example.com" in notice.body and "thief@example.net" in notice.body
    undo_path = link_in(notice)

    # The thief changes it again: the undo link still works (another change does not spend it).
    assert change(thief, "thief2@example.net", password=PASSWORD) == [SENT]
    thief.post(link_in(mail.outbox[-1]), follow=True)
    assert User.objects.get(pk=olga.pk).email == "thief2@example.net"

    with time_machine.travel(timezone.now() + timedelta(days=6)):
        assert "Make olga@example.com my address again" in client.get(undo_path).text
        response = client.post(undo_path)
    assert response.status_code == 302 and response.url == reverse("accounts:password_change")
    olga.refresh_from_db()
    assert (olga.email, olga.email_confirmed, olga.has_usable_password()) == ("olga@example.com", True, False)
    assert client.get(reverse("accounts:profile")).status_code == 200  # the owner, logged in here
    assert thief.get(reverse("accounts:profile")).status_code == 302  # the thief, logged out
    # Links sent meanwhile are spent: the first change link cannot take it again.
    thief.force_login(olga)
    assert thief.post(change_path).status_code == 400
    response = client.post(undo_path)
    assert response.status_code == 400 and "already back" in response.text
    assert User.objects.get(pk=olga.pk).email == "olga@example.com"


def test_the_undo_link_lasts_a_week(client):
    olga = make_user("olga@example.com", "Olga")
    client.force_login(olga)
    change(client, "new@example.com", password=PASSWORD)
    client.post(link_in(mail.outbox[-1]))
    [notice] = [m for m in mail.outbox if m.to == ["olga@example.com"]]
    with time_machine.travel(timezone.now() + timedelta(days=7, hours=1)):
        response = type(client)().post(link_in(notice))
    assert response.status_code == 400 and "expired" in response.text
    assert User.objects.get(pk=olga.pk).email == "new@example.com"
