"""Celery's broker on Redis: kombu's transport, with one Redis client a channel's pool.

kombu makes a new redis.Redis for every message it publishes, and a Redis builds its table of
some 170 response callbacks as it is made: about a quarter of the CPU of queueing a task (the
task a move queues after commit for its turn email, in the POST of the move). A Redis client
is safe to share (its connections come from the pool), so the channel keeps the one it made
for its pool, and makes another only for a new pool (after a fork or a lost connection kombu
drops the pool). settings.CELERY_BROKER_TRANSPORT names it for a redis:// broker.
"""

from kombu.transport import redis


class Channel(redis.Channel):
    _kept = None  # the synchronous client made for self._pool

    def _create_client(self, asynchronous=False):
        if asynchronous:
            return super()._create_client(asynchronous=True)
        pool = self.pool
        if self._kept is None or self._kept.connection_pool is not pool:
            self._kept = super()._create_client()
        return self._kept


class Transport(redis.Transport):
    Channel = Channel
