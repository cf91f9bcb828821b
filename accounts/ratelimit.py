"""Limits on what one address may cause: emails to an email address, sign-ups and
login-link requests from a client address.

Counted in Django's cache in fixed windows that start with the first count, whether or
not an email address belongs to an account, so hitting a limit reveals nothing. Use a
shared cache (CACHE_URL, Redis) in production so every web process counts together.
Failed logins are counted by django-axes (settings.AXES_*), per account and per client
address, with the client address and account name it gets from here.
"""

import hashlib

from django.conf import settings
from django.core.cache import cache

DEFAULT_LIMIT = 3
DEFAULT_WINDOW = 15 * 60  # seconds
# Per client address: (how many, in how many seconds); settings.ACCOUNTS_CLIENT_LIMITS overrides.
CLIENT_LIMITS = {"signup": (5, 60 * 60), "login_link": (10, 60 * 60)}
# Passwords tried by a logged-in session to change the account's address: (how many, seconds).
PASSWORD_TRIES = (5, 60 * 60)


def _limit():
    return getattr(settings, "ACCOUNTS_MAIL_LIMIT", DEFAULT_LIMIT)


def _window():
    return getattr(settings, "ACCOUNTS_MAIL_WINDOW", DEFAULT_WINDOW)


def _digest(text):
    return hashlib.sha256(text.strip().lower().encode()).hexdigest()


def _count(key, limit, window):
    """Count one against `key`; False when over `limit` in the window."""
    cache.add(key, 0, timeout=window)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 1, timeout=window)
        count = 1
    return count <= limit


def take(address):
    """Count one mail to ``address``; False when it is over the limit (send nothing)."""
    return _count(f"accounts:mail-rate:{_digest(address)}", _limit(), _window())


def window_minutes():
    return max(1, _window() // 60)


def client_address(request):
    """The address the request came from. Behind settings.TRUSTED_PROXY_COUNT proxies, each
    appending the address it saw to X-Forwarded-For, it is the entry that many from the end
    (the one the outermost proxy added); entries before it are the client's own claim and never
    read. With no proxy (0), or a request that did not pass them all, the connection's."""
    count = settings.TRUSTED_PROXY_COUNT
    if count > 0:
        entries = [e.strip() for e in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if e.strip()]
        if len(entries) >= count:
            return entries[-count]
    return request.META.get("REMOTE_ADDR", "")


def account_name(request, credentials):
    """The account a login names, as stored (addresses are kept lower case)."""
    credentials = credentials or {}
    return (credentials.get("username") or credentials.get("email") or "").strip().lower()


def client_limit(scope):
    return {**CLIENT_LIMITS, **getattr(settings, "ACCOUNTS_CLIENT_LIMITS", {})}[scope]


def take_for_client(scope, request):
    """Count one `scope` ("signup", "login_link") from the request's client address; False when over."""
    limit, window = client_limit(scope)
    return _count(f"accounts:{scope}-rate:{_digest(client_address(request))}", limit, window)


def take_password_try(user):
    """Count one password tried to change `user`'s address; False when over (a session that is
    not the owner's guessing it)."""
    return _count(f"accounts:password-try:{user.pk}", *PASSWORD_TRIES)
