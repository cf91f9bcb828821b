"""Timestamps read by psycopg's C loader (games.timestamps) read as Django's own loader reads them."""

from datetime import UTC

import pytest
from django.db import connection
from django.db.backends.postgresql.psycopg_any import BaseTzLoader

from games import timestamps

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

VALUES = [
    "2026-01-02 03:04:05.000123+05:30",
    "0001-01-01 00:00:00+00",
    "9999-12-31 23:59:59.999999+00",
    "2000-02-29 12:00:00-08",
    "1969-12-31 23:59:59.5+00",
    "2026-03-29 02:30:00+01",
    "1900-01-01 00:00:00+00:19:32",
    "2026-12-06 22:28:58.982799+00",
]


def test_each_connection_reads_timestamps_with_the_c_loader_and_as_django_does():
    if timestamps._C_LOADER is None:
        pytest.skip("psycopg's C implementation is not installed")
    with connection.cursor() as cursor:
        raw = cursor.cursor
        assert raw.adapters.get_loader(timestamps._oid(raw.adapters), timestamps._TEXT) is timestamps._C_LOADER
        query = "SELECT " + ", ".join(f"'{value}'::timestamptz" for value in VALUES) + ", NULL::timestamptz"
        cursor.execute(query)
        ours = cursor.fetchone()
        raw.adapters.register_loader("timestamptz", type("DjangoLoader", (BaseTzLoader,), {"timezone": UTC}))
        cursor.execute(query)
        theirs = cursor.fetchone()
    assert ours == theirs and ours[-1] is None
    assert all(value.tzinfo is UTC for value in ours[:-1])
    assert [repr(value) for value in ours] == [repr(value) for value in theirs]
