"""Timestamps read by psycopg's own C loader where it reads them exactly as Django's does.

Django reads every `timestamptz` through a Python subclass of psycopg's Python loader (to give
each value the connection's time zone): about 5 µs of CPU a value, where psycopg's C loader
(psycopg-binary) takes about 1. The lock of a move reads some twenty of them (the game, its
seats, their players), every page and email as many again. Where the C loader gives the same
values with the same time zone object (the connection in UTC, as Django sets it with USE_TZ:
checked on each new connection by reading one value both ways), each new connection reads
`timestamptz` with it; anywhere else (another time zone, no C implementation) Django's stays.
"""

from datetime import UTC

from django.db.backends.signals import connection_created
from psycopg.pq import Format

_TEXT = Format.TEXT

SAMPLE = b"2000-02-29 12:00:00.000123-08"


def _c_loader():
    try:
        from psycopg_binary import _psycopg
    except ImportError:
        return None
    loader = getattr(_psycopg, "TimestamptzLoader", None)
    return None if loader is None else _UtcLoader(loader)


class _UtcLoader:
    """psycopg's C loader of `timestamptz`, made as a loader class is (by psycopg, for each
    cursor's reading) and saying its time zone as Django's does (Django asks it of each cursor's
    loader): the C class itself takes neither subclass nor attribute."""

    format = _TEXT
    timezone = UTC

    def __init__(self, loader):
        self.loader = loader

    def __call__(self, oid, context=None):
        return self.loader(oid, context)


def use_c_loader(sender, connection, **kwargs):
    if connection.vendor != "postgresql" or connection.timezone is not UTC:
        return
    fast = _C_LOADER
    if fast is None:
        return
    raw = connection.connection
    adapters = raw.adapters
    django_loader = adapters.get_loader(_oid(adapters), _TEXT)
    if django_loader is None or getattr(django_loader, "timezone", None) is not UTC:
        return
    try:
        theirs = django_loader(_oid(adapters), raw).load(SAMPLE)
        ours = fast(_oid(adapters), raw).load(SAMPLE)
    except Exception:
        return
    if ours == theirs and ours.tzinfo is theirs.tzinfo is UTC:
        adapters.register_loader("timestamptz", fast)


_C_LOADER = _c_loader()


def _oid(adapters):
    return adapters.types["timestamptz"].oid


def connect():
    connection_created.connect(use_c_loader, dispatch_uid="games.timestamps")
