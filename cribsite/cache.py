"""The shared cache (Redis): Django's backend, with one Redis client a connection pool.

Django's RedisCacheClient makes a new redis.Redis for every operation, and a Redis builds its
table of some 170 response callbacks as it is made: about 60 µs of CPU a cache call, half of a
cache.get, paid twice by the POST of a move (its session, the poll's numbers). A Redis client
is safe to share between threads (its connections come from the pool), so one is kept for each
pool. The game's poll reads its session and numbers with one MGET (get_many, written out below,
on a connection each thread keeps for it) and unpickles what it reads (RedisSerializer);
everything else is Django's.
"""

import os
import pickle
import threading

from django.core.cache.backends import redis as django_redis


class RedisSerializer(django_redis.RedisSerializer):
    """Django's, reading a pickle as one: Django's tries `int(data)` first, and the ValueError it
    raises for every pickled value (with the bytes' repr in its message) cost three times the
    unpickling. Integers are stored as their digits (never a pickle's b"\\x80" first)."""

    def loads(self, data):
        return pickle.loads(data) if data[:1] == b"\x80" else int(data)


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("serializer", RedisSerializer)
        super().__init__(*args, **kwargs)
        self._clients = {}  # id(pool) -> its client; the pools are kept in self._pools
        self._held = threading.local()  # each thread's connection for get_many

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client

    def get_many(self, keys):
        """Django's MGET, on a connection of this thread's own (`_held`), without redis-py's client
        and pool around it: its command machinery (the retry's closures, the timings it records,
        response callbacks MGET has none of), and the pool's checkout and return (a deprecation
        check of the call, metrics recorded, a non-blocking read to see that nothing was left
        unread): 19 µs of CPU a call here, 45 through the client. Nothing is ever left unread on
        the held connection: whatever stops a read between its command and its answer drops the
        connection (redis-py's read drops it too). A connection that fails is dropped, and the
        read made again by redis-py's client with its retries; the next one connects afresh."""
        keys = list(keys)
        if not keys:
            return {}
        connection = self._held_connection()
        try:
            connection.send_command("MGET", *keys)
            values = connection.read_response()
        except (self._lib.ConnectionError, self._lib.TimeoutError):
            connection.disconnect()
            return super().get_many(keys)
        except BaseException:
            connection.disconnect()
            raise
        return {key: self._serializer.loads(value) for key, value in zip(keys, values) if value is not None}

    def _held_connection(self):
        """This thread's connection for get_many, made as the read pool makes its own (a forked
        child makes its own: the parent's socket is never shared)."""
        held = self._held
        if getattr(held, "pid", None) != os.getpid():
            pool = self._get_connection_pool(False)
            held.connection = pool.connection_class(**pool.connection_kwargs)
            held.pid = os.getpid()
        return held.connection


class RedisCache(django_redis.RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = RedisCacheClient

    def validate_key(self, key):
        """Nothing to check: Redis takes any key. Django's warns of keys memcached would refuse, by
        a generator and a lazily compiled expression: 4 µs of CPU a key, every key of every call
        (two on every poll). The local-memory cache (the tests', and without CACHE_URL) still
        warns, so a key no other backend would take is still seen."""
