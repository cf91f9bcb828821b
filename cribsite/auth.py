"""Django's AuthenticationMiddleware, the player of a session read in one statement written out.

Every logged-in request reads its player: Django's ModelBackend does it with the ORM
(`User.objects.get(pk=...)`), about 450 microseconds of CPU in this process, four fifths of
it building the query; the same SELECT written out (games.statements) costs a fifth of that.
The player is still read from the database every request, never kept: a password changed or
an account closed in one session ends the others at the next request, as with Django's.

Only sessions logged in through ModelBackend (every login here) take this way, and what follows
the read is Django's `auth.get_user`, line for line: the session's hash checked against the
player's (a changed password ends the session, flushed), the fallback secrets tried and the
session moved to the current one. Any other backend is left to Django's `auth.get_user`.

A view that needs only who the player is (the game's poll, when nothing changed) asks
`request.player_id()`: the same check on the two columns it takes (the password, whose hash the
session's must match, and is_active), read every time as the player is, without building the
player (nor any instance: the hash is Django's, computed from the column); anything but a
plainly good session is left to `request.user`.
"""

import hashlib
import hmac
from functools import cache, lru_cache, partial

from django.conf import settings
from django.contrib import auth
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.middleware import AuthenticationMiddleware
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.utils.crypto import constant_time_compare
from django.utils.encoding import force_bytes
from django.utils.functional import SimpleLazyObject

from games import statements

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


class Authentication(AuthenticationMiddleware):
    def process_request(self, request):
        super().process_request(request)  # its checks, and request.auser (Django's)
        request.user = SimpleLazyObject(lambda: get_user(request))
        request.player_id = partial(player_id, request)


def get_user(request):
    if not hasattr(request, "_cached_user"):  # the attribute Django's middleware keeps it in
        request._cached_user = _user(request)
    return request._cached_user


def player_id(request):
    """`request.user.pk`, None when nobody is logged in, without building the player when the
    session is plainly good: its player's row (password and is_active) read, active, and the
    session's hash that of its password now. Any other session (no hash, one from a former
    secret, a changed password, a closed or deleted account, another backend) is read by
    `get_user`, which acts on it as ever."""
    if hasattr(request, "_cached_user"):  # already read: the player is at hand
        return request._cached_user.pk
    model = auth.get_user_model()
    try:
        backend_path, user_id = _session_player(request, model)
    except KeyError:
        return None
    session_hash = request.session.get(HASH_SESSION_KEY)
    if backend_path == MODEL_BACKEND and backend_path in settings.AUTHENTICATION_BACKENDS and session_hash:
        checked = _checked(model, user_id)
        # is_active: ModelBackend.user_can_authenticate; the hash: the player's get_session_auth_hash.
        if (
            checked is not None
            and checked[1]
            and constant_time_compare(session_hash, _auth_hash(model, user_id, *checked))
        ):
            return user_id
    return get_user(request).pk


def _session_player(request, model):
    """(backend path, user id of `model`) the session names; KeyError when it names none."""
    backend_path = request.session[BACKEND_SESSION_KEY]
    return backend_path, model._meta.pk.to_python(request.session[SESSION_KEY])


def _user(request):
    try:
        backend_path, user_id = _session_player(request, auth.get_user_model())
    except KeyError:
        return AnonymousUser()
    if backend_path != MODEL_BACKEND or backend_path not in settings.AUTHENTICATION_BACKENDS:
        return auth.get_user(request)
    user = player(user_id)
    if user is not None and not ModelBackend().user_can_authenticate(user):
        user = None
    # From here Django's auth.get_user: verify the session.
    if user is not None:
        session_hash = request.session.get(HASH_SESSION_KEY)
        if not session_hash:
            session_hash_verified = False
        else:
            session_auth_hash = user.get_session_auth_hash()
            session_hash_verified = constant_time_compare(session_hash, session_auth_hash)
        if not session_hash_verified:
            if session_hash and any(
                constant_time_compare(session_hash, fallback_auth_hash)
                for fallback_auth_hash in user.get_session_auth_fallback_hash()
            ):
                request.session.cycle_key()
                request.session[HASH_SESSION_KEY] = session_auth_hash
            else:
                request.session.flush()
                user = None
    return user or AnonymousUser()


def player(user_id):
    """`User.objects.get(pk=user_id)` written out, or None when there is none."""
    model = auth.get_user_model()
    try:
        pk = model._meta.pk.get_prep_value(user_id)
    except (TypeError, ValueError):
        return None
    with connection.cursor() as cursor:
        cursor.execute(statements.by_pk(model), [pk])
        row = cursor.fetchone()
    return None if row is None else statements.build(model, row)


CHECKED = ("password", "is_active")  # what ModelBackend and get_user check of the player


def _checked(model, user_id):
    """The CHECKED columns (password, is_active) of the player `user_id`, or None when there is none."""
    try:
        pk = model._meta.pk.get_prep_value(user_id)
    except (TypeError, ValueError):
        return None
    with connection.cursor() as cursor:
        cursor.execute(_checked_sql(connection.vendor, model), [pk])
        return cursor.fetchone()


@cache
def _checked_sql(vendor, model):
    quote = connection.ops.quote_name
    meta = model._meta
    names = ", ".join(quote(meta.get_field(name).column) for name in CHECKED)
    return f"SELECT {names} FROM {quote(meta.db_table)} WHERE {quote(meta.pk.column)} = %s"


def _auth_hash(model, user_id, password, is_active):
    """`get_session_auth_hash()` of the player `user_id` with these CHECKED values: for the model's own (not
    overridden) AbstractBaseUser method, its HMAC of the password under SECRET_KEY, written out
    with its key kept (Django's salted_hmac derives the key again every call, and the instance to
    call it on cost more than the hash); else the model's method on an instance of the values.
    Were the two ever to differ, a good session would be read by get_user: slower, never wrong."""
    if model.get_session_auth_hash is not _BASE_HASH or model._get_session_auth_hash is not _BASE_SALTED:
        user = model.from_db(connection.alias, [model._meta.pk.attname, *CHECKED], (user_id, password, is_active))
        return user.get_session_auth_hash()
    return hmac.digest(_hash_key(settings.SECRET_KEY), force_bytes(password), "sha256").hex()  # (hmac.new's hexdigest)


_BASE_HASH = AbstractBaseUser.get_session_auth_hash
_BASE_SALTED = vars(AbstractBaseUser)["_get_session_auth_hash"]  # (private: not in the stubs)
# AbstractBaseUser._get_session_auth_hash's salt, and salted_hmac's key from it and the secret.
SESSION_HASH_SALT = "django.contrib.auth.models.AbstractBaseUser.get_session_auth_hash"


@lru_cache(maxsize=4)
def _hash_key(secret):
    return hashlib.sha256(force_bytes(SESSION_HASH_SALT) + force_bytes(secret)).digest()
