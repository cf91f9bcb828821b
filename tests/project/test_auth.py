"""The session's player read written out (cribsite.auth): the same player as Django's
ModelBackend, read every request, so a password changed or an account closed elsewhere ends
the other sessions at once, and the secret's fallbacks keep a session as Django's do."""

from importlib import import_module

import pytest
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from cribsite import auth
from tests.factories import make_user

pytestmark = pytest.mark.django_db

PAGE = "games:my_games"  # any page for players only


def logged_in(user):
    client = Client()
    client.force_login(user)
    return client


def fields_of(user):
    return {f.attname: getattr(user, f.attname) for f in User._meta.concrete_fields}


def test_the_player_read_is_the_orms_in_one_statement():
    user = make_user(display_name="Alice")
    with CaptureQueriesContext(connection) as queries:
        found = auth.player(user.pk)
    assert len(queries) == 1 and "FOR UPDATE" not in queries[0]["sql"]
    assert fields_of(found) == fields_of(User.objects.get(pk=user.pk))
    assert found._state.adding is False and found._state.db == "default"
    assert auth.player(10**9) is None and auth.player("not a number") is None


def test_a_logged_in_player_is_the_requests_user_read_once():
    user = make_user(display_name="Alice")
    client = logged_in(user)
    with CaptureQueriesContext(connection) as queries:
        page = client.get(reverse(PAGE))
    assert page.status_code == 200 and page.wsgi_request.user == user
    assert sum('FROM "accounts_user"' in q["sql"] for q in queries.captured_queries) == 1
    assert client.get(reverse(PAGE)).wsgi_request.user.display_name == "Alice"


def test_a_password_changed_in_one_session_ends_the_others_at_once():
    user = make_user(display_name="Alice")
    here, there = logged_in(user), logged_in(user)
    assert there.get(reverse(PAGE)).status_code == 200
    changed = here.post(
        reverse("accounts:password_change"),
        {"old_password": "pw-Secret-123", "new_password1": "an0ther-Secret!", "new_password2": "an0ther-Secret!"},
    )
    assert changed.status_code == 302
    assert here.get(reverse(PAGE)).status_code == 200  # the session that changed it is kept
    ended = there.get(reverse(PAGE))
    assert ended.status_code == 302 and reverse("accounts:login") in ended["Location"]
    assert not ended.wsgi_request.user.is_authenticated
    assert HASH_SESSION_KEY not in ended.wsgi_request.session  # flushed, as Django's


def test_a_password_set_anywhere_ends_every_session():
    user = make_user(display_name="Alice")
    client = logged_in(user)
    user.set_password("set-by-a-reset-1")
    user.save()
    assert client.get(reverse(PAGE)).status_code == 302


@pytest.mark.parametrize("how", ["save", "update", "delete"])
def test_a_closed_or_deleted_account_is_logged_out_at_the_next_request(how):
    user = make_user(display_name="Alice")
    client = logged_in(user)
    if how == "save":
        user.is_active = False
        user.save()
    elif how == "update":
        User.objects.filter(pk=user.pk).update(is_active=False)
    else:
        user.delete()
    page = client.get(reverse(PAGE))
    assert page.status_code == 302 and not page.wsgi_request.user.is_authenticated


def test_a_new_display_name_shows_at_the_next_request():
    user = make_user(display_name="Alice")
    client = logged_in(user)
    client.get(reverse(PAGE))
    User.objects.filter(pk=user.pk).update(display_name="Alicia")
    assert client.get(reverse(PAGE)).wsgi_request.user.display_name == "Alicia"


def test_a_session_under_a_former_secret_is_kept_and_moved_to_the_current_one(settings):
    user = make_user(display_name="Alice")
    settings.SECRET_KEY = "the-former-secret-" + "x" * 40
    client = logged_in(user)
    old_hash, old_key = client.session[HASH_SESSION_KEY], client.session.session_key
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "the-current-secret-" + "y" * 40
    page = client.get(reverse(PAGE))
    assert page.status_code == 200 and page.wsgi_request.user == user
    assert client.session[HASH_SESSION_KEY] != old_hash
    assert client.session.session_key != old_key  # a new key for the session, as Django's cycle_key
    assert client.session[HASH_SESSION_KEY] == User.objects.get(pk=user.pk).get_session_auth_hash()
    settings.SECRET_KEY_FALLBACKS = []
    assert client.get(reverse(PAGE)).status_code == 200  # now under the current secret


def test_another_backends_session_is_djangos_to_read(monkeypatch, settings):
    user = make_user(display_name="Alice")
    client = logged_in(user)
    session = client.session
    session[BACKEND_SESSION_KEY] = "tests.project.test_auth.Elsewhere"
    session.save()
    settings.AUTHENTICATION_BACKENDS = [*settings.AUTHENTICATION_BACKENDS, "tests.project.test_auth.Elsewhere"]
    page = client.get(reverse(PAGE))
    assert page.status_code == 200 and page.wsgi_request._cached_user.display_name == "Read elsewhere"
    settings.AUTHENTICATION_BACKENDS = settings.AUTHENTICATION_BACKENDS[:-1]
    assert client.get(reverse(PAGE)).status_code == 302  # a backend no longer listed: nobody


class Elsewhere:
    def get_user(self, user_id):
        user = User.objects.get(pk=user_id)
        user.display_name = "Read elsewhere"
        return user


def test_no_session_no_player(client):
    page = client.get(reverse(PAGE))
    assert page.status_code == 302 and not page.wsgi_request.user.is_authenticated


# --- request.player_id(): who the player is, checked without building them (the game's poll) --


def session_request(client):
    """A request carrying `client`'s session, as the middleware gives it to a view."""
    request = RequestFactory().get("/")
    request.session = import_module(settings.SESSION_ENGINE).SessionStore(client.session.session_key)
    return request


def test_a_good_session_names_its_player_from_two_columns_read_without_building_them():
    user = make_user(display_name="Alice")
    request = session_request(logged_in(user))
    with CaptureQueriesContext(connection) as queries:
        assert auth.player_id(request) == user.pk
    read = [q["sql"] for q in queries if 'FROM "accounts_user"' in q["sql"]]  # (the session is read too)
    assert len(read) == 1 and '"password"' in read[0] and '"is_active"' in read[0]
    assert '"display_name"' not in read[0] and not hasattr(request, "_cached_user")


def test_a_player_already_read_is_not_read_again():
    user = make_user(display_name="Alice")
    request = session_request(logged_in(user))
    auth.get_user(request)
    with CaptureQueriesContext(connection) as queries:
        assert auth.player_id(request) == user.pk
    assert len(queries) == 0


@pytest.mark.parametrize("how", ["password", "save", "update", "delete"])
def test_a_session_no_longer_its_players_names_nobody(how):
    user = make_user(display_name="Alice")
    client = logged_in(user)
    if how == "password":
        user.set_password("set-by-a-reset-1")
        user.save()
    elif how == "save":
        user.is_active = False
        user.save()
    elif how == "update":
        User.objects.filter(pk=user.pk).update(is_active=False)
    else:
        user.delete()
    request = session_request(client)
    assert auth.player_id(request) is None
    if how == "password":
        assert HASH_SESSION_KEY not in request.session  # flushed, as get_user does


def test_no_session_names_nobody_without_a_query(client):
    request = RequestFactory().get("/")
    request.session = import_module(settings.SESSION_ENGINE).SessionStore()
    with CaptureQueriesContext(connection) as queries:
        assert auth.player_id(request) is None
    assert len(queries) == 0


def test_another_backends_session_is_named_by_djangos_get_user(settings):
    user = make_user(display_name="Alice")
    client = logged_in(user)
    session = client.session
    session[BACKEND_SESSION_KEY] = "tests.project.test_auth.Elsewhere"
    session.save()
    settings.AUTHENTICATION_BACKENDS = [*settings.AUTHENTICATION_BACKENDS, "tests.project.test_auth.Elsewhere"]
    request = session_request(client)
    assert auth.player_id(request) == user.pk and request._cached_user.display_name == "Read elsewhere"


def test_a_good_session_is_checked_without_any_instance_of_its_player(monkeypatch):
    user = make_user(display_name="Alice")
    request = session_request(logged_in(user))

    def never(*args, **kwargs):  # pragma: no cover - what the test refuses
        raise AssertionError("an instance built")

    monkeypatch.setattr(User, "from_db", classmethod(never))
    assert auth.player_id(request) == user.pk


def test_the_session_hash_written_out_is_djangos_under_each_secret(settings):
    user = make_user(display_name="Alice")
    for secret in ("the-first-secret-" + "a" * 40, "the-second-secret-" + "b" * 40):
        settings.SECRET_KEY = secret
        assert auth._auth_hash(User, user.pk, user.password, True) == user.get_session_auth_hash()


def test_a_player_model_with_its_own_session_hash_is_checked_by_it(monkeypatch):
    monkeypatch.setattr(User, "get_session_auth_hash", lambda self: f"own-{self.pk}-{self.password[-12:]}")
    user = make_user(display_name="Alice")
    client = logged_in(user)  # the session keeps the model's own hash
    assert auth.player_id(session_request(client)) == user.pk
    request = session_request(client)
    auth.player_id(request)
    assert not hasattr(request, "_cached_user")  # checked by the written-out read, not get_user
    user.set_password("set-by-a-reset-1")
    user.save()
    assert auth.player_id(session_request(client)) is None
