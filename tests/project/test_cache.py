"""The shared cache (cribsite.cache): Django's Redis backend, one client a connection pool."""

import threading

import pytest

from cribsite.cache import RedisCache
from tests import services

pytestmark = pytest.mark.redis


@pytest.fixture
def cache():
    backend = RedisCache(services.REDIS_URL, {"KEY_PREFIX": "test-cache"})
    yield backend
    backend.delete_many(["a", "b", "n"])


def test_every_operation_of_a_process_takes_one_client_from_its_pool(cache):
    first = cache._cache.get_client(write=True)
    assert cache._cache.get_client(write=True) is first
    assert cache._cache.get_client("any key") is first  # one server: reads from the pool writes use
    assert first.connection_pool is cache._cache._get_connection_pool(True)


def test_it_answers_as_django_s_backend(cache):
    cache.set("a", {"public": 3, "seats": {1: (2, 3)}}, 60)
    assert cache.get("a") == {"public": 3, "seats": {1: (2, 3)}}
    assert cache.add("a", "other", 60) is False and cache.add("b", "new", 60) is True
    assert cache.get("b") == "new"
    assert cache.incr(cache.set("n", 1, 60) or "n") == 2
    cache.delete("a")
    assert cache.get("a", "missing") == "missing"


def test_threads_share_the_client_and_each_reads_its_own_keys(cache):
    errors = []

    def work(number):
        try:
            for i in range(50):
                cache.set(f"a:{number}", (number, i), 60)
                assert cache.get(f"a:{number}") == (number, i)
        except Exception as exc:  # pragma: no cover - what the test reports
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    cache.delete_many([f"a:{n}" for n in range(4)])
    assert errors == []
