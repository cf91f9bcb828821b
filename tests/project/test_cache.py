"""The shared cache (cribsite.cache): Django's Redis backend, one client a connection pool."""

import threading

import pytest
import redis

from cribsite.cache import RedisCache, RedisSerializer
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


def test_many_keys_are_read_as_django_s_backend_reads_them(cache):
    cache.set("a", {"public": 3, "status": "active"}, 60)
    cache.set("n", 7, 60)
    assert cache.get_many(["a", "b", "n"]) == {"a": {"public": 3, "status": "active"}, "n": 7}
    assert cache.get_many([]) == {}


def test_a_read_whose_connection_fails_is_made_again_by_redis_py_s_client(cache, monkeypatch):
    cache.set("a", 1, 60)
    real, failed = redis.connection.Connection.send_command, []

    def once(connection, *args, **kwargs):
        if not failed:
            failed.append(args[0])
            raise redis.ConnectionError("dropped")
        return real(connection, *args, **kwargs)

    monkeypatch.setattr(redis.connection.Connection, "send_command", once)
    assert cache.get_many(["a", "b"]) == {"a": 1}
    assert failed == ["MGET"]
    assert cache.get_many(["a"]) == {"a": 1}  # the pool's connections still answer


@pytest.mark.parametrize("value", [0, -5, 2**70, True, None, "12", b"\x80", 1.5, {"seats": {1: (2, 3)}}])
def test_the_serializer_reads_back_what_it_wrote(value):
    serializer = RedisSerializer()
    written = serializer.dumps(value)
    stored = str(written).encode() if isinstance(written, int) else written  # Redis keeps an int's digits
    assert serializer.loads(stored) == value and type(serializer.loads(stored)) is type(value)


def test_any_key_is_taken_without_memcached_s_warnings(cache, recwarn):
    cache.set("a", 1, 60)
    assert cache.get_many(["a", "b c"]) == {"a": 1}
    assert not [w for w in recwarn if "memcached" in str(w.message)]


def test_each_thread_reads_many_keys_on_a_connection_of_its_own(cache):
    cache.set("a", 1, 60)
    client = cache._cache
    cache.get_many(["a"])
    mine = client._held_connection()
    assert cache.get_many(["a"]) == {"a": 1} and client._held_connection() is mine
    theirs = []
    thread = threading.Thread(target=lambda: theirs.append((cache.get_many(["a"]), client._held_connection())))
    thread.start()
    thread.join()
    assert theirs[0][0] == {"a": 1} and theirs[0][1] is not mine
    assert mine not in client._get_connection_pool(False)._available_connections  # not the pool's


def test_a_forked_process_makes_its_own_connection(cache, monkeypatch):
    cache.set("a", 1, 60)
    cache.get_many(["a"])
    parents = cache._cache._held_connection()
    monkeypatch.setattr("cribsite.cache.os.getpid", lambda: -1)
    assert cache.get_many(["a"]) == {"a": 1}
    assert cache._cache._held_connection() is not parents


def test_a_read_stopped_before_its_answer_leaves_no_answer_for_the_next(cache, monkeypatch):
    cache.set("a", "for a", 60)
    cache.set("b", "for b", 60)
    real, stopped = redis.connection.Connection.read_response, []

    def stop_once(connection, *args, **kwargs):
        if not stopped:
            stopped.append(True)
            raise KeyboardInterrupt  # between the command and its answer (a signal, say)
        return real(connection, *args, **kwargs)

    monkeypatch.setattr(redis.connection.Connection, "read_response", stop_once)
    with pytest.raises(KeyboardInterrupt):
        cache.get_many(["a"])
    assert cache.get_many(["b"]) == {"b": "for b"}  # its own answer, never the one left for "a"
