"""Celery's broker on Redis (cribsite.broker): kombu's transport, one client a channel's pool."""

import uuid

import pytest
from kombu import Connection

from tests import services

pytestmark = pytest.mark.redis


@pytest.fixture
def connection():
    with Connection(services.REDIS_URL, transport="cribsite.broker:Transport") as conn:
        yield conn


def test_messages_are_published_through_one_client_until_the_pool_is_dropped(connection):
    queue = connection.SimpleQueue(f"test-broker-{uuid.uuid4().hex[:12]}")
    try:
        channel = connection.default_channel
        queue.put({"move": 1})
        kept = channel._create_client()
        queue.put({"move": 2})
        assert channel._create_client() is kept
        channel._disconnect_pools()  # as after a fork or a lost connection
        queue.put({"move": 3})
        assert channel._create_client() is not kept and channel._create_client().connection_pool is channel.pool
        assert [queue.get(timeout=2).payload["move"] for _ in range(3)] == [1, 2, 3]
    finally:
        queue.clear()
        queue.close()
