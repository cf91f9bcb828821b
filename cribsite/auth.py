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
"""

from django.conf import settings
from django.contrib import auth
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.middleware import AuthenticationMiddleware
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.utils.crypto import constant_time_compare
from django.utils.functional import SimpleLazyObject

from games import statements

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


class Authentication(AuthenticationMiddleware):
    def process_request(self, request):
        super().process_request(request)  # its checks, and request.auser (Django's)
        request.user = SimpleLazyObject(lambda: get_user(request))


def get_user(request):
    if not hasattr(request, "_cached_user"):  # the attribute Django's middleware keeps it in
        request._cached_user = _user(request)
    return request._cached_user


def _user(request):
    try:
        backend_path = request.session[BACKEND_SESSION_KEY]
        user_id = auth.get_user_model()._meta.pk.to_python(request.session[SESSION_KEY])
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
