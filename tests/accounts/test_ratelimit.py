from datetime import timedelta

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.factories import make_user

pytestmark = pytest.mark.django_db


def ask_for_link(client, email):
    return client.post(reverse("accounts:login_link"), {"email": email})


def test_at_most_three_login_links_per_address_in_fifteen_minutes(client, mailoutbox):
    make_user(email="ann@example.com")
    for _ in range(3):
        assert ask_for_link(client, "ann@example.com").status_code == 302
    response = ask_for_link(client, "ANN@example.com")
    assert response.status_code == 429 and "Too many emails" in response.text
    assert len(mailoutbox) == 3
    assert ask_for_link(client, "bob@example.com").status_code == 302  # other addresses unaffected


def test_the_limit_applies_to_unknown_addresses_alike(client, mailoutbox):
    for _ in range(3):
        assert ask_for_link(client, "nobody@example.com").status_code == 302
    assert ask_for_link(client, "nobody@example.com").status_code == 429
    assert mailoutbox == []


def test_the_limit_lifts_when_the_window_ends(client, mailoutbox, settings):
    settings.ACCOUNTS_MAIL_WINDOW = 1
    make_user(email="ann@example.com")
    for _ in range(3):
        ask_for_link(client, "ann@example.com")
    assert ask_for_link(client, "ann@example.com").status_code == 429
    cache.clear()  # what the cache does when the window's key expires
    assert ask_for_link(client, "ann@example.com").status_code == 302
    assert len(mailoutbox) == 4


def test_confirmations_and_login_links_share_the_limit(client, mailoutbox):
    user = make_user(email="ann@example.com", email_confirmed=False)
    client.force_login(user)
    for _ in range(2):
        client.post(reverse("accounts:resend_confirmation"))
    ask_for_link(client, "ann@example.com")
    response = client.post(reverse("accounts:resend_confirmation"), follow=True)
    assert "Too many emails" in response.text
    assert len(mailoutbox) == 3


def test_password_resets_are_limited_too(client, mailoutbox):
    make_user(email="ann@example.com")
    for _ in range(3):
        client.post(reverse("accounts:password_reset"), {"email": "ann@example.com"})
    response = client.post(reverse("accounts:password_reset"), {"email": "ann@example.com"})
    assert response.status_code == 429 and "Too many emails" in response.text
    assert len(mailoutbox) == 3


def test_the_window_is_fifteen_minutes_by_default():
    from accounts import ratelimit

    assert (ratelimit.DEFAULT_LIMIT, ratelimit.DEFAULT_WINDOW) == (3, timedelta(minutes=15).seconds)
