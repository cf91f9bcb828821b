"""The time zone list as a person reads it: the zones most players live in first, then every
zone by region, each named by its place with its offset from UTC now ("New York (UTC-05:00)").

The stored value stays the IANA name (models.TIME_ZONE_CHOICES holds every one); this only
orders and names the choices of the select. The browser's own zone is chosen by
static/js/time-zone.js where the player has not chosen one.
"""

import zoneinfo
from datetime import datetime

from django.utils import timezone

from .models import TIME_ZONE_CHOICES

# Where most cribbage players are, west to east (the list is sorted by offset anyway).
COMMON = (
    "Pacific/Honolulu",
    "America/Anchorage",
    "America/Los_Angeles",
    "America/Vancouver",
    "America/Denver",
    "America/Phoenix",
    "America/Edmonton",
    "America/Chicago",
    "America/Winnipeg",
    "America/Mexico_City",
    "America/New_York",
    "America/Toronto",
    "America/Halifax",
    "America/St_Johns",
    "America/Sao_Paulo",
    "UTC",
    "Europe/London",
    "Europe/Dublin",
    "Europe/Lisbon",
    "Europe/Paris",
    "Europe/Berlin",
    "Europe/Amsterdam",
    "Europe/Madrid",
    "Europe/Rome",
    "Europe/Stockholm",
    "Europe/Athens",
    "Europe/Helsinki",
    "Africa/Johannesburg",
    "Asia/Dubai",
    "Asia/Kolkata",
    "Asia/Singapore",
    "Asia/Hong_Kong",
    "Asia/Tokyo",
    "Australia/Perth",
    "Australia/Adelaide",
    "Australia/Brisbane",
    "Australia/Sydney",
    "Australia/Melbourne",
    "Australia/Hobart",
    "Pacific/Auckland",
)
REGIONS = ("Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific")


def offset_text(name, now):
    """'UTC+05:30' for Asia/Kolkata now; the sign is a minus sign for zones west of Greenwich."""
    offset = now.astimezone(zoneinfo.ZoneInfo(name)).utcoffset()
    minutes = int(offset.total_seconds() // 60) if offset is not None else 0
    sign = "+" if minutes >= 0 else "\u2212"
    return f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def place(name):
    """'New York' for America/New_York, 'Buenos Aires, Argentina' for America/Argentina/Buenos_Aires."""
    parts = name.replace("_", " ").split("/")
    if len(parts) == 1 or parts[0] not in REGIONS:
        return name.replace("_", " ")
    return ", ".join(reversed(parts[1:]))


def label(name, now):
    if name == "UTC":
        return "UTC (Coordinated Universal Time)"
    return f"{place(name)} ({offset_text(name, now)})"


def grouped_choices(now: datetime | None = None):
    """The select's choices: [(group, [(name, label), ...]), ...], each zone once."""
    now = now or timezone.now()
    names = [name for name, _ in TIME_ZONE_CHOICES]
    common = sorted(
        (name for name in COMMON if name in names),
        key=lambda n: (now.astimezone(zoneinfo.ZoneInfo(n)).utcoffset(), place(n)),
    )
    groups = [("Where most players are", [(name, label(name, now)) for name in common])]
    rest = [name for name in names if name not in common]
    for region in REGIONS:
        zones = sorted((n for n in rest if n.startswith(region + "/")), key=place)
        groups.append((region, [(name, label(name, now)) for name in zones]))
    others = sorted(n for n in rest if n.split("/")[0] not in REGIONS)
    groups.append(("Other names (older or by offset)", [(name, name.replace("_", " ")) for name in others]))
    return groups
