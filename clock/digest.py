"""The daily digest: one email at the player's chosen hour, listing every game waiting for them.

For players who chose it (User.notify == "digest"). Owed once per player per
local day: a DigestSent row (unique per user and day) is written in the
transaction that owes it in the outbox, so two runs at once owe one, and the
outbox retries a failed send. A run that comes late (the beat was down) still
sends that day's digest.
"""

import logging
import zoneinfo

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import DigestSent, User
from clock import selectors
from games import times
from mail import outbox
from mail.models import OutboundEmail

log = logging.getLogger(__name__)

BATCH = 200


def due_users(now, limit=BATCH):
    """Digest readers whose hour has come today (in their zone) and who have had no digest today."""
    readers = User.objects.filter(notify=User.Notify.DIGEST, is_active=True)
    due = []
    for zone in readers.values_list("time_zone", flat=True).distinct().order_by():
        try:
            local = now.astimezone(zoneinfo.ZoneInfo(zone))
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            continue
        sent = DigestSent.objects.filter(day=local.date()).values("user_id")
        due += list(
            readers.filter(time_zone=zone, digest_hour__lte=local.hour)
            .exclude(pk__in=sent)
            .order_by("pk")[: limit - len(due)]
        )
        if len(due) >= limit:
            break
    return due


def send_digest(user, now=None):
    """Owe `user` today's digest once (1), or nothing (0: owed already, or no game waits).

    The DigestSent row and the outbox row are written together; the digest is
    rendered and sent after commit (clock.emails.daily_digest), listing the
    games waiting then.
    """
    now = now or timezone.now()
    day = times.local_day(user, now)
    with transaction.atomic():
        try:
            with transaction.atomic():
                row = DigestSent.objects.create(user=user, day=day, sent_at=now)
        except IntegrityError:
            return 0
        items = selectors.digest_items(user, now)
        row.games = len(items)
        row.save(update_fields=["games"])
        if not items or not user.wants_email:
            return 0
        return outbox.owe(OutboundEmail.Kind.DIGEST, user, f"{user.pk}:{day.isoformat()}")


def send_digests(now=None, batch=BATCH):
    """Periodic: send the digests that are due (a bounded batch). Returns how many went."""
    now = now or timezone.now()
    sent = 0
    for user in due_users(now, batch):
        try:
            sent += send_digest(user, now)
        except Exception:
            log.exception("Digest for user %s not sent; the next run tries again.", user.pk)
    return sent
