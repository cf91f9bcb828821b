"""Failed logins are throttled per account and per client address (django-axes); sign-ups and
login-link requests per client address (accounts.ratelimit)."""

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from tests.accounts.conftest import link_in
from tests.factories import make_user

pytestmark = pytest.mark.django_db
RIGHT = "the-Right-one-1"


def log_in(client, email, password, address="192.0.2.1", path="accounts:login"):
    return client.post(reverse(path), {"username": email, "password": password}, REMOTE_ADDR=address)


def logged_in(client):
    return client.session.get("_auth_user_id")


def test_after_five_wrong_passwords_from_anywhere_the_right_one_waits(client, settings):
    ann = make_user(email="ann@example.com", password=RIGHT)
    for n in range(5):  # from five different addresses, in any case; the fifth is told at once
        status = log_in(client, "ANN@example.com" if n % 2 else "ann@example.com", "wrong", f"192.0.2.{n}").status_code
        assert status == (429 if n == 4 else 200)
    refused = log_in(client, "ann@example.com", RIGHT, "198.51.100.7")
    assert refused.status_code == 429 and "Too many failed logins" in refused.text
    assert "login link" in refused.text and logged_in(client) is None
    with time_machine.travel(timezone.now() + settings.AXES_COOLOFF_TIME * 1.1):
        assert log_in(client, "ann@example.com", RIGHT, "198.51.100.7").status_code == 302
    assert logged_in(client) == str(ann.pk)


def test_a_locked_account_can_still_log_in_by_an_emailed_link(client, mailoutbox):
    ann = make_user(email="ann@example.com", password=RIGHT)
    for n in range(5):
        log_in(client, "ann@example.com", "wrong", f"192.0.2.{n}")
    client.post(reverse("accounts:login_link"), {"email": "ann@example.com"})
    client.post(link_in(mailoutbox[-1]))
    assert logged_in(client) == str(ann.pk)


def test_four_wrong_passwords_then_the_right_one_logs_in_and_starts_the_count_again(client):
    ann = make_user(email="ann@example.com", password=RIGHT)
    for _ in range(4):
        log_in(client, "ann@example.com", "wrong")
    assert log_in(client, "ann@example.com", RIGHT).status_code == 302 and logged_in(client) == str(ann.pk)
    client.logout()
    for _ in range(4):
        log_in(client, "ann@example.com", "wrong", "192.0.2.99")
    assert log_in(client, "ann@example.com", RIGHT).status_code == 302


def test_one_address_guessing_at_many_accounts_is_stopped(client):
    make_user(email="zoe@example.com", password=RIGHT)
    for n in range(5):
        log_in(client, f"guess{n}@example.com", "wrong", "203.0.113.5")
    assert log_in(client, "zoe@example.com", RIGHT, "203.0.113.5").status_code == 429
    assert logged_in(client) is None
    assert log_in(client, "zoe@example.com", RIGHT, "203.0.113.6").status_code == 302  # Zoe from home


def test_the_admin_login_is_throttled_alike(client):
    make_user(email="boss@example.com", password=RIGHT, is_staff=True, is_superuser=True)
    for n in range(5):
        assert log_in(client, "boss@example.com", "wrong", path="admin:login").status_code == (429 if n == 4 else 200)
    assert log_in(client, "boss@example.com", RIGHT, path="admin:login").status_code == 429
    assert logged_in(client) is None


def sign_up(client, email, address):
    return client.post(
        reverse("accounts:signup"),
        {"email": email, "display_name": "Someone", "password1": "pw-Secret-123", "password2": "pw-Secret-123"},
        REMOTE_ADDR=address,
    )


def test_sign_ups_are_limited_per_client_address(client, mailoutbox):
    for n in range(5):
        assert sign_up(client, f"p{n}@example.com", "192.0.2.10").status_code == 200
    refused = sign_up(client, "p5@example.com", "192.0.2.10")
    assert refused.status_code == 429 and "Too many requests from your address" in refused.text
    assert not User.objects.filter(email="p5@example.com").exists() and len(mailoutbox) == 5
    assert sign_up(client, "p5@example.com", "192.0.2.11").status_code == 200


def test_login_link_requests_are_limited_per_client_address(client, mailoutbox):
    for n in range(10):
        make_user(email=f"p{n}@example.com")
        assert (
            client.post(
                reverse("accounts:login_link"), {"email": f"p{n}@example.com"}, REMOTE_ADDR="192.0.2.20"
            ).status_code
            == 302
        )
    make_user(email="p10@example.com")
    refused = client.post(reverse("accounts:login_link"), {"email": "p10@example.com"}, REMOTE_ADDR="192.0.2.20")
    assert refused.status_code == 429 and len(mailoutbox) == 10


def test_behind_a_proxy_the_client_is_the_address_the_proxy_saw(client, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    make_user(email="zoe@example.com", password=RIGHT)
    for n in range(5):
        client.post(
            reverse("accounts:login"),
            {"username": f"g{n}@example.com", "password": "x"},
            REMOTE_ADDR="10.0.0.1",
            HTTP_X_FORWARDED_FOR=f"1.2.3.4, 203.0.113.{n % 2}",
        )
    ok = client.post(
        reverse("accounts:login"),
        {"username": "zoe@example.com", "password": RIGHT},
        REMOTE_ADDR="10.0.0.1",
        HTTP_X_FORWARDED_FOR="1.2.3.4, 203.0.113.9",
    )
    assert ok.status_code == 302  # the proxy's own address is not everyone's


def sign_up_through(client, email, remote, forwarded):
    fields = {"email": email, "display_name": "P", "password1": RIGHT, "password2": RIGHT}
    return client.post(reverse("accounts:signup"), fields, REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded)


def test_two_proxies_in_front_count_each_client_not_the_first_proxy(client, settings, mailoutbox):
    settings.TRUSTED_PROXY_COUNT = 2  # a CDN (198.51.100.7), then the TLS proxy (10.0.0.1)
    for n in range(5):  # one client, a new made-up first entry each time
        forwarded = f"203.0.113.{n}, 192.0.2.50, 198.51.100.7"
        assert sign_up_through(client, f"a{n}@example.com", "10.0.0.1", forwarded).status_code == 200
    assert (
        sign_up_through(client, "a5@example.com", "10.0.0.1", "203.0.113.9, 192.0.2.50, 198.51.100.7").status_code
        == 429
    )
    # Another client through the same CDN has an allowance of its own.
    assert sign_up_through(client, "b0@example.com", "10.0.0.1", "192.0.2.60, 198.51.100.7").status_code == 200


def test_without_a_proxy_a_made_up_forwarded_for_buys_nothing(client, settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")  # TLS said, the port open
    settings.TRUSTED_PROXY_COUNT = 0
    for n in range(5):
        assert sign_up_through(client, f"c{n}@example.com", "192.0.2.70", f"203.0.113.{n}").status_code == 200
    assert sign_up_through(client, "c5@example.com", "192.0.2.70", "203.0.113.99").status_code == 429
