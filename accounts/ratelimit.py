"""Limit how many emails one address can be sent at its own (or anyone's) request.

Counted in Django's cache, per address, whether or not the address belongs to
an account, so hitting the limit reveals nothing. A fixed window starts with
the first mail. Use a shared cache (Redis, database) in production so every
web process counts together.
"""
import hashlib

from django.conf import settings
from django.core.cache import cache

DEFAULT_LIMIT = 3
DEFAULT_WINDOW = 15 * 60  # seconds


def _limit():
    return getattr(settings, "ACCOUNTS_MAIL_LIMIT", DEFAULT_LIMIT)


def _window():
    return getattr(settings, "ACCOUNTS_MAIL_WINDOW", DEFAULT_WINDOW)


def _key(address):
    digest = hashlib.sha256(address.strip().lower().encode()).hexdigest()
    return f"accounts:mail-rate:{digest}"


def take(address):
    """Count one mail to ``address``; False when it is over the limit (send nothing)."""
    key = _key(address)
    cache.add(key, 0, timeout=_window())
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 1, timeout=_window())
        count = 1
    return count <= _limit()


def window_minutes():
    return max(1, _window() // 60)
