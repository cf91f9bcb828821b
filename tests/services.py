"""Which real services this test run can reach, and how to react when one is missing.

On a laptop without PostgreSQL, Redis or Chromium the tests that need them are
skipped and say why. With REQUIRE_SERVICES=1 (set by .ci/run) a missing service
fails the test instead, so CI can never pass by skipping.
"""

import os
import shutil
import socket
from functools import cache
from urllib.parse import urlparse

import pytest

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def services_required():
    return os.environ.get("REQUIRE_SERVICES", "").lower() in {"1", "true", "yes"}


def missing(reason):
    if services_required():
        pytest.fail(f"{reason} (REQUIRE_SERVICES is set, so this is a failure)")
    pytest.skip(reason)


@cache
def redis_reachable():
    url = urlparse(REDIS_URL)
    try:
        with socket.create_connection((url.hostname, url.port or 6379), timeout=1) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def chromium_path():
    return shutil.which(CHROMIUM) or shutil.which("chromium")
