"""Mail to strangers: an address no member has confirmed (no account, or an invited or signed-up
one never confirmed) gets at most settings.MAIL_TO_STRANGERS_PER_DAY emails a day from what
players and organisers do (invitations, challenges, event notices), whoever causes them, so the
service relays nothing to anybody. Counted in the database, in the transaction that owes the
email: a refused challenge counts nothing.

`allowance_left(email)` is asked before a challenge is made (and it is refused when spent);
`take(email, kind)` counts one as the outbox writes the email (mail.outbox), which is written
skipped when the allowance is spent (two challenges at the same moment)."""

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from .models import StrangerMail

DAY = timedelta(days=1)


def is_member(user):
    """A member: an active account whose address its owner confirmed."""
    return user is not None and user.is_active and user.email_confirmed


def per_day():
    return settings.MAIL_TO_STRANGERS_PER_DAY


def allowance_left(email, now=None):
    """How many more emails `email` may be sent today (the last 24 hours)."""
    now = now or timezone.now()
    sent = StrangerMail.objects.filter(email__iexact=email.strip(), created_at__gt=now - DAY).count()
    return max(0, per_day() - sent)


def take(email, kind, now=None):
    """Count one email of `kind` to `email`; False (nothing counted) when its allowance is spent."""
    now = now or timezone.now()
    email = email.strip().lower()
    StrangerMail.objects.filter(email=email, created_at__lt=now - 2 * DAY).delete()  # no longer counts
    if allowance_left(email, now) < 1:
        return False
    StrangerMail.objects.create(email=email, kind=kind, created_at=now)
    return True
