"""Delivery that outlasts outages: which failures pass, when to try again, when to give up,
and the addresses that must not get mail until their player confirms them again.

The schedule: after the n-th failed attempt the next comes 1 minute x 2^(n-1)
later, at most 4 hours later, and never after the give-up moment,
settings.MAIL_GIVE_UP_AFTER (3 days) after the email was due. The send task
itself retries the short waits (up to TASK_RETRIES_UP_TO: a Redis broker
redelivers a message held longer than its visibility timeout); the
after-commit sweeper (games.follow_ups, the outbox's `due` query being
mail.services.unsent_batch) takes every attempt that is due, so a
lost task or a broker outage delays an email, never loses it.
"""

import logging
import smtplib
from datetime import timedelta

from anymail.exceptions import AnymailAPIError, AnymailInvalidAddress, AnymailRecipientsRefused
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from accounts.models import User

log = logging.getLogger(__name__)

FIRST_WAIT = timedelta(minutes=1)
LONGEST_WAIT = timedelta(hours=4)
TASK_RETRIES_UP_TO = timedelta(minutes=10)

# The reasons (anymail's reject_reason) of a bounce or rejection that stop mail to an address.
HARD_REASONS = {"bounced", "invalid"}
# Postmark reports a soft bounce as "bounced" too; its own Type tells them apart.
SOFT_POSTMARK_TYPES = {"SoftBounce", "Transient", "DnsError"}


def retry_delay(attempts):
    """How long after its `attempts`-th failed attempt an email is tried again."""
    return min(FIRST_WAIT * 2 ** max(attempts - 1, 0), LONGEST_WAIT)


def give_up_at(row):
    """When an outbox row that keeps failing gives up: MAIL_GIVE_UP_AFTER after it was due."""
    due = max(row.created_at, row.hold_until or row.created_at)
    return due + settings.MAIL_GIVE_UP_AFTER


def next_attempt_at(row, now):
    """The next attempt after a passing failure at `now`, or None: time to give up."""
    last = give_up_at(row)
    if now >= last:
        return None
    return min(now + retry_delay(row.attempts), last)


# --- Which failures pass -------------------------------------------------------------


def is_transient(exc):
    """A failure worth trying again: the server or the network (refused, timed out, gone),
    an SMTP 4xx, an ESP's 5xx, 408 or 429, a database blip. An SMTP 5xx and an ESP's
    rejection are final."""
    if isinstance(exc, (AnymailRecipientsRefused, AnymailInvalidAddress)):
        return False
    if isinstance(exc, AnymailAPIError):
        code = exc.status_code
        return code is None or code >= 500 or code in (408, 429)
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        return all(400 <= _code(reply) < 500 for reply in exc.recipients.values())
    if isinstance(exc, smtplib.SMTPResponseException):
        return not 500 <= exc.smtp_code < 600
    return isinstance(exc, (smtplib.SMTPException, OSError, OperationalError, InterfaceError))


def refuses_address(exc):
    """A final failure that says the address itself is bad (a hard bounce at send time)."""
    if isinstance(exc, (AnymailRecipientsRefused, AnymailInvalidAddress)):
        return True
    return isinstance(exc, smtplib.SMTPRecipientsRefused) and not is_transient(exc)


def is_send_failure(exc):
    """An error from the mail server or the ESP (as opposed to one in our own code)."""
    return isinstance(
        exc, (smtplib.SMTPException, AnymailAPIError, AnymailRecipientsRefused, AnymailInvalidAddress, OSError)
    )


def _code(reply):
    try:
        return int(reply[0])
    except (TypeError, ValueError, IndexError):
        return 0


# --- Addresses in trouble --------------------------------------------------------------


def address_in_trouble(address, trouble, now=None):
    """Record on the account(s) of `address` that mail to it failed (User.EmailTrouble).

    A bounce or complaint overrides "undelivered"; nothing overrides a complaint
    but a confirmation. Returns how many accounts changed.
    """
    now = now or timezone.now()
    users = User.objects.filter(email__iexact=address.strip())
    if trouble == User.EmailTrouble.UNDELIVERED:
        users = users.filter(email_trouble=User.EmailTrouble.NONE)
    elif trouble == User.EmailTrouble.REFUSED:
        users = users.exclude(email_trouble=User.EmailTrouble.COMPLAINED)
    changed = users.update(email_trouble=trouble, email_trouble_at=now)
    if changed:
        log.warning("Mail to %s: %s.", address, User.EmailTrouble(trouble).label.lower())
    return changed


def delivered_to(user):
    """An email to `user` went through: a past "undelivered" no longer stands."""
    if user is not None and user.email_trouble == User.EmailTrouble.UNDELIVERED:
        User.objects.filter(pk=user.pk, email_trouble=User.EmailTrouble.UNDELIVERED).update(
            email_trouble=User.EmailTrouble.NONE, email_trouble_at=None
        )
        user.email_trouble, user.email_trouble_at = User.EmailTrouble.NONE, None


def on_tracking_event(event, esp_name):
    """The ESP's report of what became of a message: a hard bounce or a complaint stops mail
    to that address; other events (delivered, opened, deferred, a soft bounce) change nothing."""
    recipient = (event.recipient or "").strip()
    if not recipient:
        return 0
    if event.event_type == "complained":
        trouble = User.EmailTrouble.COMPLAINED
    elif event.event_type in ("bounced", "rejected") and _is_hard(event):
        trouble = User.EmailTrouble.REFUSED
    else:
        return 0
    log.info("%s reports %s for %s (%s).", esp_name, event.event_type, recipient, event.reject_reason)
    return address_in_trouble(recipient, trouble, event.timestamp or None)


def _is_hard(event):
    if isinstance(event.esp_event, dict) and event.esp_event.get("Type") in SOFT_POSTMARK_TYPES:
        return False
    return event.reject_reason in HARD_REASONS
