"""The shared cache (Redis): Django's backend, with one Redis client a connection pool.

Django's RedisCacheClient makes a new redis.Redis for every operation, and a Redis builds its
table of some 170 response callbacks as it is made: about 60 µs of CPU a cache call, half of a
cache.get, paid twice by the POST of a move (its session, the poll's numbers). A Redis client
is safe to share between threads (its connections come from the pool), so one is kept for each
pool; everything else is Django's.
"""

from django.core.cache.backends import redis as django_redis


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}  # id(pool) -> its client; the pools are kept in self._pools

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class RedisCache(django_redis.RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = RedisCacheClient
