"""Sessions with a shared cache (cribsite.sessions): read from the cache, kept in the database,
and a cache that is down is a miss, never an error or a logout."""

import pytest
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.urls import reverse

from tests.factories import make_user
from tests.mail.smtp_sink import free_port

pytestmark = pytest.mark.django_db


@pytest.fixture
def cached_sessions(settings):
    settings.SESSION_ENGINE = "cribsite.sessions"
    settings.CACHES = {
        **settings.CACHES,
        "sessions": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "sessions"},
    }
    settings.SESSION_CACHE_ALIAS = "sessions"
    caches["sessions"].clear()
    return settings


@pytest.fixture
def cache_down(cached_sessions):
    """The sessions' cache a Redis that does not answer (nothing listens on its port)."""
    cached_sessions.CACHES = {
        **cached_sessions.CACHES,
        "sessions": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{free_port()}/0",
            "OPTIONS": {"socket_connect_timeout": 0.2},
        },
    }


def test_a_session_is_read_from_the_cache(client, cached_sessions):
    user = make_user(display_name="Alice")
    client.force_login(user)
    client.get(reverse("games:my_games"))  # the first read puts it in the cache
    Session.objects.all().delete()  # gone from the database: only the cache can answer now
    assert client.get(reverse("games:my_games")).status_code == 200


def test_with_the_cache_down_a_player_stays_logged_in_and_can_log_out(client, cache_down):
    user = make_user(display_name="Alice")
    client.force_login(user)
    page = client.get(reverse("games:my_games"))
    assert page.status_code == 200 and page.wsgi_request.user == user
    assert Session.objects.count() == 1  # kept in the database all the same
    client.post(reverse("accounts:logout"))
    assert Session.objects.count() == 0
    after = client.get(reverse("games:my_games"))
    assert after.status_code == 302 and reverse("accounts:login") in after["Location"]


def a_store(client):
    from cribsite.sessions import SessionStore

    return SessionStore(client.session.session_key)


def test_a_session_is_read_in_the_same_trip_as_other_keys_of_its_cache(client, cached_sessions):
    user = make_user(display_name="Alice")
    client.force_login(user)
    client.get(reverse("games:my_games"))  # the session is in the cache
    caches["sessions"].set("other", 7)
    store = a_store(client)
    assert store.read_beside("sessions", ["other", "missing"]) == {"other": 7}
    caches["sessions"].clear()
    Session.objects.all().delete()  # neither cache nor database could answer now
    assert store[SESSION_KEY] == str(user.pk)


def test_a_session_is_not_read_beside_keys_of_another_cache_nor_when_it_missed(client, cached_sessions):
    user = make_user(display_name="Alice")
    client.force_login(user)
    caches["default"].set("other", 7)
    store = a_store(client)
    assert store.read_beside("default", ["other"]) == {"other": 7}
    assert store[SESSION_KEY] == str(user.pk)  # read then, from the database
    missed = a_store(client)
    caches["sessions"].clear()
    assert missed.read_beside("sessions", ["other"]) == {}
    assert missed[SESSION_KEY] == str(user.pk)  # a miss is read from the database
