from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.shortcuts import resolve_url
from django.urls import reverse
from django.utils import timezone

from accounts import tokens
from accounts.models import User
from tests.accounts.conftest import link_in
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def logged_in_user(client):
    return client.get(reverse("home")).context["user"]


# --- password login and logout ---------------------------------------------------


def test_the_login_page_offers_every_way_in(client):
    response = client.get(reverse("accounts:login") + "?next=/calculator/")
    assert response.status_code == 200
    assert reverse("accounts:login_link") + "?next=/calculator/" in response.text
    assert reverse("accounts:password_reset") in response.text
    assert reverse("accounts:signup") in response.text


def test_logging_in_with_a_password(client):
    user = make_user(email="ann@example.com")
    response = client.post(reverse("accounts:login"), {"username": "ANN@example.com", "password": "pw-Secret-123"})
    assert response.status_code == 302 and response.url == resolve_url(settings.LOGIN_REDIRECT_URL)
    assert logged_in_user(client) == user


def test_a_wrong_password_is_refused(client):
    make_user(email="ann@example.com")
    response = client.post(reverse("accounts:login"), {"username": "ann@example.com", "password": "nope"})
    assert response.status_code == 200
    assert "correct email address and password" in response.text
    assert not logged_in_user(client).is_authenticated


def test_logging_out_takes_a_post(client):
    client.force_login(make_user())
    assert client.get(reverse("accounts:logout")).status_code == 405
    assert logged_in_user(client).is_authenticated
    client.post(reverse("accounts:logout"))
    assert not logged_in_user(client).is_authenticated


def nav_of(response):
    """The site's main navigation (the home page's sample email has links of its own)."""
    return response.text.split('<nav aria-label="Main">', 1)[1].split("</nav>", 1)[0]


def test_the_nav_shows_profile_and_logout_or_login_and_signup(client):
    nav = nav_of(client.get(reverse("home")))
    assert reverse("accounts:login") in nav and reverse("accounts:signup") in nav
    assert reverse("accounts:profile") not in nav
    client.force_login(make_user(display_name="Ann"))
    response = client.get(reverse("home"))
    nav = nav_of(response)
    assert reverse("accounts:profile") in nav and "Log out" in nav
    assert reverse("accounts:signup") not in nav
    assert "Confirm your email" not in response.text  # confirmed


# --- login links -----------------------------------------------------------------


def ask_for_link(client, email, next_url=""):
    return client.post(reverse("accounts:login_link"), {"email": email, "next": next_url})


def test_the_login_link_page_shows_the_form(client):
    response = client.get(reverse("accounts:login_link") + "?next=/calculator/")
    assert response.status_code == 200
    assert 'name="email"' in response.text and 'value="/calculator/"' in response.text


def test_a_login_link_is_mailed_and_a_get_only_shows_a_button(client, mailoutbox):
    user = make_user(email="ann@example.com", display_name="Ann")
    response = ask_for_link(client, "Ann@Example.com ")
    assert response.status_code == 302 and response.url == reverse("accounts:login_link_sent")
    [message] = mailoutbox
    assert message.to == ["ann@example.com"] and "login link" in message.subject
    path = link_in(message)
    for _ in range(2):  # mail scanners open links: that must not log in or spend the link
        page = client.get(path)
        assert page.status_code == 200 and "Log in as Ann" in page.text
    assert not logged_in_user(client).is_authenticated
    user.refresh_from_db()
    assert user.last_login is None


def test_a_login_link_logs_in_once(client, mailoutbox):
    user = make_user(email="ann@example.com")
    ask_for_link(client, "ann@example.com")
    path = link_in(mailoutbox[0])
    response = client.post(path)
    assert response.status_code == 302 and response.url == resolve_url(settings.LOGIN_REDIRECT_URL)
    assert logged_in_user(client) == user
    client.post(reverse("accounts:logout"))
    for method in (client.get, client.post):
        again = method(path)
        assert again.status_code == 400 and "already been used" in again.text
    assert not logged_in_user(client).is_authenticated


def test_a_login_link_goes_on_to_the_page_asked_for_but_never_off_site(client, mailoutbox):
    make_user(email="ann@example.com")
    ask_for_link(client, "ann@example.com", "/calculator/")
    assert client.post(link_in(mailoutbox[0])).url == "/calculator/"
    client.post(reverse("accounts:logout"))
    ask_for_link(client, "ann@example.com", "https://evil.example/")
    assert client.post(link_in(mailoutbox[1])).url == resolve_url(settings.LOGIN_REDIRECT_URL)


def test_a_login_link_confirms_the_address(client, mailoutbox):
    user = make_user(email="ann@example.com", email_confirmed=False)
    ask_for_link(client, "ann@example.com")
    client.post(link_in(mailoutbox[0]))
    user.refresh_from_db()
    assert user.email_confirmed


def test_an_expired_login_link_is_refused(client, mailoutbox):
    make_user(email="ann@example.com")
    ask_for_link(client, "ann@example.com")
    path = link_in(mailoutbox[0])
    with time_machine.travel(timezone.now() + timedelta(minutes=31)):
        response = client.post(path)
    assert response.status_code == 400 and "expired" in response.text
    assert not logged_in_user(client).is_authenticated


def test_forged_login_links_are_refused(client):
    user = make_user()
    for token in (
        "x",
        tokens.make_token(user, tokens.CONFIRM),
        tokens.make_token(user, tokens.INVITE),
        tokens.make_token(user, tokens.LOGIN)[:-2],
    ):
        response = client.post(reverse("accounts:login_link_use", args=[token]))
        assert response.status_code == 400 and "not valid" in response.text
    assert not logged_in_user(client).is_authenticated
    user.refresh_from_db()
    assert user.last_login is None


def test_an_inactive_account_gets_no_link_and_cannot_use_one(client, mailoutbox):
    user = make_user(email="ann@example.com", is_active=False)
    ask_for_link(client, "ann@example.com")
    assert mailoutbox == []
    response = client.post(reverse("accounts:login_link_use", args=[tokens.make_token(user, tokens.LOGIN)]))
    assert response.status_code == 400


def test_an_unknown_address_looks_the_same_and_gets_nothing(client, mailoutbox):
    make_user(email="ann@example.com")
    known = ask_for_link(client, "ann@example.com")
    unknown = ask_for_link(client, "nobody@example.com")
    assert (known.status_code, known.url) == (unknown.status_code, unknown.url)
    assert [m.to for m in mailoutbox] == [["ann@example.com"]]
    page = client.get(unknown.url)
    assert "If an account uses that address" in page.text and "within 30 minutes" in page.text
    assert not User.objects.filter(email="nobody@example.com").exists()


def test_a_malformed_address_is_refused(client, mailoutbox):
    response = ask_for_link(client, "not an address")
    assert response.status_code == 400 and "valid email" in response.text
    assert mailoutbox == []


def test_logging_in_by_link_while_someone_else_is_logged_in_switches_user(client, mailoutbox):
    ann, bob = make_user(email="ann@example.com", display_name="Ann"), make_user(display_name="Bob")
    client.force_login(bob)
    ask_for_link(client, "ann@example.com")
    page = client.get(link_in(mailoutbox[0]))
    assert "You are logged in as Bob" in page.text
    client.post(link_in(mailoutbox[0]))
    assert logged_in_user(client) == ann
