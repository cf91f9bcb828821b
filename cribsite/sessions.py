"""Sessions read from the shared cache and kept in the database (Django's cached_db), where a
cache that is down is a cache that missed: the database answers, so a Redis outage neither
fails a logged-in request nor logs anyone out (Django's own store raises when it cannot put a
session it read from the database back into the cache, or test or delete a key there).

A request that reads other keys of the same cache first (the game's poll, its numbers) reads the
session with them in one trip (`read_beside`)."""

import logging

from django.contrib.sessions.backends import cached_db
from django.contrib.sessions.backends.db import SessionStore as DatabaseStore
from django.core.cache import caches

log = logging.getLogger(__name__)


class SessionStore(cached_db.SessionStore):
    def load(self):
        try:
            return super().load()
        except Exception:
            log.warning("The session cache is down: the session is read from the database.", exc_info=True)
            return DatabaseStore.load(self)

    def read_beside(self, alias, keys):
        """`caches[alias].get_many(keys)`; the session too in the same trip, when it is still to be
        read and kept in that cache (what a hit would have loaded; a miss is loaded as ever)."""
        cache = caches[alias]
        if cache is not self._cache or self.session_key is None or hasattr(self, "_session_cache"):
            return cache.get_many(keys)
        found = cache.get_many([self.cache_key, *keys])
        data = found.pop(self.cache_key, None)
        if data is not None:
            self._session_cache = data
        return found

    def exists(self, session_key):
        try:
            return super().exists(session_key)
        except Exception:
            log.warning("The session cache is down: the database says whether a key is taken.", exc_info=True)
            return DatabaseStore.exists(self, session_key)

    def delete(self, session_key=None):
        try:
            super().delete(session_key)
        except Exception:
            # The row is gone (the database's delete comes first, as in Django's own store, which
            # raises here with the same rows left); the cache's copy lapses with the session's age.
            log.warning("The session cache is down: a session was deleted from the database only.", exc_info=True)
