import re

import pytest
from django.urls import reverse

from accounts import tokens
from accounts.models import User
from tests.accounts.conftest import link_in
from tests.factories import make_user

pytestmark = pytest.mark.django_db

GOOD = {
    "email": "Ann@Example.com",
    "display_name": "  Ann  ",
    "password1": "pw-Secret-123",
    "password2": "pw-Secret-123",
}


def test_the_signup_page_shows_the_form(client):
    response = client.get(reverse("accounts:signup"))
    assert response.status_code == 200
    for name in ("email", "display_name", "password1", "password2"):
        assert f'name="{name}"' in response.text


def test_signing_up_mails_a_confirmation_link_that_logs_in(client, mailoutbox):
    response = client.post(reverse("accounts:signup"), GOOD)
    user = User.objects.get()
    assert (user.email, user.display_name, user.email_confirmed) == ("ann@example.com", "Ann", False)
    assert user.check_password("pw-Secret-123")
    assert response.status_code == 200 and "We have sent an email to ann@example.com" in response.text
    assert "_auth_user_id" not in client.session  # not before the address is proven
    [message] = mailoutbox
    assert message.to == ["ann@example.com"]
    assert "Confirm" in message.subject
    path = link_in(message)
    assert path.startswith("/accounts/confirm/")
    response = client.post(path, follow=True)
    assert response.context["user"] == user and "is confirmed" in response.text
    user.refresh_from_db()
    assert user.email_confirmed


@pytest.mark.parametrize(
    "change, field, text",
    [
        ({"password2": "pw-Secret-124"}, "password2", "didn’t match"),
        ({"email": "not-an-address"}, "email", "valid email"),
        ({"display_name": "   "}, "display_name", "required"),
        ({"password1": "short", "password2": "short"}, "password2", "too short"),
        ({"password1": "password123", "password2": "password123"}, "password2", "too common"),
    ],
)
def test_bad_signups_are_refused_with_a_message(client, mailoutbox, change, field, text):
    response = client.post(reverse("accounts:signup"), {**GOOD, **change})
    assert response.status_code == 400
    assert text in str(response.context["form"].errors[field])
    assert not User.objects.exists()
    assert mailoutbox == []


def unmasked(html):
    return re.sub(rb'name="csrfmiddlewaretoken" value="[^"]*"', b"", html)


def test_signing_up_with_an_address_in_use_tells_its_owner_and_the_page_nothing(client, mailoutbox):
    fresh = client.post(reverse("accounts:signup"), {**GOOD, "email": "new@example.com"})
    mailoutbox.clear()
    ann = make_user(email="ann@example.com", display_name="Ann the first", password="the-Old-one-1")
    response = client.post(reverse("accounts:signup"), GOOD)
    assert response.status_code == fresh.status_code == 200
    # The same page but for the address (and the form tokens, new on every page).
    assert unmasked(response.content) == unmasked(fresh.content).replace(b"new@example.com", b"ann@example.com")
    ann.refresh_from_db()
    assert ann.display_name == "Ann the first" and ann.check_password("the-Old-one-1")
    assert User.objects.filter(email="ann@example.com").count() == 1
    [message] = mailoutbox
    assert message.to == ["ann@example.com"] and message.subject == "You already have an account at Cribbage by mail"
    assert "nothing was created or changed" in message.body
    path = link_in(message)
    assert path.startswith("/accounts/login-link/")
    client.post(path)
    assert client.session["_auth_user_id"] == str(ann.pk)


def test_the_owner_of_an_address_in_use_is_emailed_within_the_address_limit(client, mailoutbox):
    make_user(email="ann@example.com")
    for _ in range(4):
        assert client.post(reverse("accounts:signup"), GOOD).status_code == 200
    assert len(mailoutbox) == 3


def signed_up(client, mailoutbox):
    client.post(reverse("accounts:signup"), GOOD)
    return User.objects.get(), link_in(mailoutbox[-1])


def test_the_confirmation_link_shows_a_button_and_changes_nothing_on_get(client, mailoutbox):
    user, path = signed_up(client, mailoutbox)
    for _ in range(2):  # a mail scanner, then the person
        response = client.get(path)
        assert response.status_code == 200
        assert '<form method="post"' in response.text and "Confirm ann@example.com" in response.text
    user.refresh_from_db()
    assert not user.email_confirmed


def test_posting_the_confirmation_confirms_even_when_logged_out(client, mailoutbox):
    user, path = signed_up(client, mailoutbox)
    client.logout()
    response = client.post(path, follow=True)
    assert "is confirmed" in response.text
    user.refresh_from_db()
    assert user.email_confirmed


def test_a_confirmation_link_works_once(client, mailoutbox):
    user, path = signed_up(client, mailoutbox)
    client.post(path)
    for method in (client.get, client.post):
        response = method(path)
        assert response.status_code == 400
        assert "already confirmed" in response.text


def test_a_forged_or_foreign_confirmation_link_is_refused(client):
    user = make_user(email_confirmed=False)
    login_token = tokens.make_token(user, tokens.LOGIN)
    for token in ("forged", login_token, tokens.make_token(user, tokens.CONFIRM) + "x"):
        response = client.post(reverse("accounts:confirm_email", args=[token]))
        assert response.status_code == 400
        assert "not valid" in response.text
    user.refresh_from_db()
    assert not user.email_confirmed


def test_an_expired_confirmation_link_is_refused(client):
    import time_machine
    from django.utils import timezone

    user = make_user(email_confirmed=False)
    path = reverse("accounts:confirm_email", args=[tokens.make_token(user, tokens.CONFIRM)])
    with time_machine.travel(timezone.now() + tokens.CONFIRM.max_age * 2):
        response = client.post(path)
    assert response.status_code == 400 and "expired" in response.text
    user.refresh_from_db()
    assert not user.email_confirmed


def test_an_unconfirmed_player_can_resend_the_confirmation(client, mailoutbox):
    user = make_user(email_confirmed=False)
    client.force_login(user)
    profile = client.get(reverse("accounts:profile"))
    assert "not confirmed yet" in profile.text
    assert reverse("accounts:resend_confirmation") in profile.text
    response = client.post(reverse("accounts:resend_confirmation"), follow=True)
    assert "new confirmation link" in response.text
    [message] = mailoutbox
    client.post(link_in(message))
    user.refresh_from_db()
    assert user.email_confirmed


def test_resending_needs_a_post_and_a_login(client, mailoutbox):
    url = reverse("accounts:resend_confirmation")
    assert client.post(url).status_code == 302  # to the login page
    client.force_login(make_user(email_confirmed=False))
    assert client.get(url).status_code == 405
    assert mailoutbox == []


def test_a_confirmed_player_is_not_sent_another_link(client, mailoutbox):
    client.force_login(make_user())
    response = client.post(reverse("accounts:resend_confirmation"), follow=True)
    assert "already confirmed" in response.text
    assert mailoutbox == []
    assert "Confirm your email" not in response.text
