"""When a repeating event's next one starts, and what it is called: pure date and name arithmetic.

The next event starts N days after the last, and if the periodic task was not run for a while,
on the first of those days still to come: a repeat never opens in the past.
"""

import re
from datetime import date, timedelta

# A repeat's name and address end with its first day: "Friday blitz · 12 Dec 2026", "friday-blitz-2026-12-12".
_NAME_DATE = re.compile(r" · \d{1,2} [A-Z][a-z]{2} \d{4}$")
_SLUG_DATE = re.compile(r"-\d{4}-\d{2}-\d{2}$")
SLUG_LENGTH = 50  # a SlugField's


def next_start(starts_on: date, every_days: int, today: date) -> date:
    """The first day after `today` on the event's rhythm (starts_on + k x every_days)."""
    step = timedelta(days=every_days)
    periods = max(1, (today - starts_on).days // every_days + 1)
    return starts_on + periods * step


def next_name(name: str, starts_on: date) -> str:
    return f"{_NAME_DATE.sub('', name)} · {starts_on.day} {starts_on:%b %Y}"


def next_slug(slug: str, starts_on: date) -> str:
    suffix = f"-{starts_on:%Y-%m-%d}"
    return _SLUG_DATE.sub("", slug)[: SLUG_LENGTH - len(suffix)] + suffix
