"""Play-by-email operations: sending the outbox, unsubscribing, the answer limiter.

Rows are owed by mail.outbox (in the transaction of their cause) and sent here
after commit, each rendered by its kind's composer (mail.kinds), so a lost task or a broker restart
loses no notification (the sweeper re-queues it) and a retried task never
sends twice (a SENT row is final).

A composer may answer "not now" (kinds.Hold): a turn email for a player who
has not come back since their last one for the game, within the window
(quiet.turn_email_hold), is HELD rather than sent; the sweeper sends it when the hold is over, and it
then tells what happened since the last one (since.since_lines).
"""

import logging
import time
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, InterfaceError, OperationalError, connection, transaction
from django.db.models import Q
from django.utils import timezone

from games import statements

from . import delivery, kinds, links, rows
from .models import AnswerSent, InboundEmail, OfferedMove, OutboundEmail

log = logging.getLogger(__name__)

STUCK_AFTER = timedelta(minutes=10)  # a SENDING row older than this was lost with its worker
REQUEUE_AFTER = timedelta(minutes=2)  # a READY row older than this lost its task
REQUEUE_BATCH = 200
ANSWER_WINDOW = 10 * 60  # seconds: at most one answer per address and kind in this window
MAX_ANSWERS = 12  # answers to one address in a window, whatever their kinds: never a mail cannon


# --- Sending ------------------------------------------------------------------


def claim(outbound_id, now=None):
    """READY (and due, after a failed attempt) -> SENDING for one row: the row then (with its
    user); None when another worker has it, it waits for its next attempt, or it is done."""
    return rows.claim(outbound_id, now or timezone.now())


def send_outbound(outbound_id):
    """Send one outbox row once. Returns the final status (None: not this caller's to send).

    A row is claimed (READY -> SENDING) before anything else, so two tasks for
    one row send it once. After a passing failure the row goes back to READY
    with the time of its next attempt (mail.delivery has the schedule) and this
    raises TransientSendError; a refusal makes it FAILED; past the give-up
    moment it GAVE_UP. A row whose worker died is put back by the sweeper.
    """
    row = claim(outbound_id)
    if row is None:
        return None
    try:
        return _send_claimed(row)
    except Exception as exc:
        if not delivery.is_transient(exc):
            _release(outbound_id, OutboundEmail.Status.FAILED, exc)
            raise
        return _try_again_later(outbound_id, exc)


class TransientSendError(Exception):
    """The provider or SMTP server failed in a way worth retrying; `retry_at` is the next attempt."""

    def __init__(self, message, retry_at=None):
        super().__init__(message)
        self.retry_at = retry_at


def _try_again_later(outbound_id, exc, now=None):
    now = now or timezone.now()
    try:
        row = OutboundEmail.objects.get(pk=outbound_id)
        retry_at = delivery.next_attempt_at(row, now)
        if retry_at is None:
            gave_up = OutboundEmail.objects.filter(pk=row.pk, status=OutboundEmail.Status.SENDING).update(
                status=OutboundEmail.Status.GAVE_UP, last_error=repr(exc)[:2000], next_attempt_at=None
            )
            if gave_up:
                log.warning("Gave up on outbox row %s after %s attempts: %r", row.pk, row.attempts, exc)
                delivery.address_in_trouble(row.to, delivery.User.EmailTrouble.UNDELIVERED, now)
            return OutboundEmail.Status.GAVE_UP
        OutboundEmail.objects.filter(pk=row.pk, status=OutboundEmail.Status.SENDING).update(
            status=OutboundEmail.Status.READY, last_error=repr(exc)[:2000], next_attempt_at=retry_at
        )
    except (OperationalError, InterfaceError):  # the sweeper will find it stuck in SENDING
        log.warning("Outbox row %s left claimed after %r.", outbound_id, exc)
        retry_at = None
    raise TransientSendError(repr(exc), retry_at=retry_at) from exc


def _release(outbound_id, status, exc):
    try:
        OutboundEmail.objects.filter(pk=outbound_id, status=OutboundEmail.Status.SENDING).update(
            status=status, last_error=repr(exc)[:2000], next_attempt_at=None
        )
    except (OperationalError, InterfaceError):  # the sweeper will find it stuck in SENDING
        log.warning("Outbox row %s left claimed after %r.", outbound_id, exc)


def _send_claimed(row):
    message = kinds.compose(row)  # rendered now, from the latest state
    if isinstance(message, str):
        return _finish(row, OutboundEmail.Status.SKIPPED, message)
    if isinstance(message, kinds.Hold):
        OutboundEmail.objects.filter(pk=row.pk, status=OutboundEmail.Status.SENDING).update(
            status=OutboundEmail.Status.HELD, hold_until=message.until, claimed_at=None
        )
        return OutboundEmail.Status.HELD
    return _deliver(row, message, row.user)


def _deliver(row, message, player):
    try:
        message.send()
    except Exception as exc:
        if not delivery.is_send_failure(exc) or delivery.is_transient(exc):
            raise
        if delivery.refuses_address(exc):
            delivery.address_in_trouble(row.to, delivery.User.EmailTrouble.REFUSED)
        return _finish(row, OutboundEmail.Status.FAILED, repr(exc))
    if player is not None and row.to.lower() == player.email.lower():  # not an old address, nor a new one
        delivery.delivered_to(player)
    return _finish(row, OutboundEmail.Status.SENT, "", message_id=message.extra_headers["Message-ID"])


def needing_a_task(ids):
    """Of the outbox rows `ids`, those READY that will be sent (in the order given); the READY
    others are skipped at once, with their reason, so no task is queued for a row that would be
    skipped (a row in another state is left to whoever has it)."""
    rows = OutboundEmail.objects.select_related("user").in_bulk(ids)
    ids = [pk for pk in ids if pk in rows and rows[pk].status == OutboundEmail.Status.READY]
    needed = []
    for row in (rows[pk] for pk in ids):
        reason = kinds.skip_reason(row)
        if reason is None:
            needed.append(row.pk)
        else:
            OutboundEmail.objects.filter(pk=row.pk, status=OutboundEmail.Status.READY).update(
                status=OutboundEmail.Status.SKIPPED, last_error=reason[:2000], next_attempt_at=None
            )
    return needed


def _finish(row, status, error, message_id=""):
    row.status, row.last_error, row.message_id, row.next_attempt_at = status, error[:2000], message_id, None
    row.sent_at = timezone.now() if status == OutboundEmail.Status.SENT else None
    statements.update(row, _FINISHED)
    return status


_FINISHED = ("status", "last_error", "message_id", "next_attempt_at", "sent_at")


def unsent_batch(now=None, limit=REQUEUE_BATCH):
    """Ids of rows to (re-)queue, claimed for it: those whose task was lost (READY for a
    while), those whose next attempt is due, those stuck SENDING (their worker died: put
    back to READY) and the HELD turn emails whose hold is over (made READY).

    Two sweepers at once take different rows on PostgreSQL (SKIP LOCKED); a
    row picked twice anyway is only sent once (`claim`).
    """
    now = now or timezone.now()
    due = Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now)
    with transaction.atomic():
        rows = OutboundEmail.objects.filter(
            Q(status=OutboundEmail.Status.HELD, hold_until__lte=now)
            | Q(due, status=OutboundEmail.Status.READY, created_at__lt=now - REQUEUE_AFTER, claimed_at__isnull=True)
            | Q(due, status=OutboundEmail.Status.READY, claimed_at__lt=now - REQUEUE_AFTER)
            | Q(status=OutboundEmail.Status.SENDING, claimed_at__lt=now - STUCK_AFTER)
        ).order_by("created_at")
        if connection.features.has_select_for_update_skip_locked:
            rows = rows.select_for_update(skip_locked=True)
        ids = list(rows.values_list("pk", flat=True)[:limit])
        # Push the rows out of the next sweep's window while their tasks run.
        OutboundEmail.objects.filter(pk__in=ids).exclude(
            status__in=(
                OutboundEmail.Status.SENT,
                OutboundEmail.Status.SKIPPED,
                OutboundEmail.Status.FAILED,
                OutboundEmail.Status.GAVE_UP,
            )
        ).update(status=OutboundEmail.Status.READY, claimed_at=now)
    return ids


# --- Unsubscribe ----------------------------------------------------------------


def stop_turn_emails(user):
    """RFC 8058 one-click unsubscribe, or the reply "unsubscribe": no more turn emails."""
    type(user).objects.filter(pk=user.pk).update(notify=type(user).Notify.NONE)
    user.notify = type(user).Notify.NONE
    log.info("Turn emails turned off for user %s.", user.pk)


# --- Answers to replies -----------------------------------------------------------


def may_answer(address, kind, now=None):
    """Take the one answer allowed for `address` and `kind` in this window; False if already
    taken, or if the address had MAX_ANSWERS answers in it already."""
    now = now or time.time()
    window = int(now // ANSWER_WINDOW) * ANSWER_WINDOW
    if AnswerSent.objects.filter(address=address.lower(), window=window).count() >= MAX_ANSWERS:
        return False
    try:
        with transaction.atomic():
            AnswerSent.objects.create(address=address.lower(), kind=kind, window=window)
    except IntegrityError:
        return False
    return True


# --- Forgetting -------------------------------------------------------------------

FORGET_BATCH = 1000


def forget_old_mail(now=None):
    """Delete the replies read more than settings.MAIL_KEEP_DAYS ago and the answer limiter's
    spent windows; (replies, windows) deleted. Periodic and idempotent, in bounded batches.

    A reply's raw text holds the player's address and whatever else they wrote;
    the move it made is in the game's log for good (with its Message-ID, so a
    late redelivery still lands once). Unread replies are kept whatever their age.
    """
    now = now or timezone.now()
    old = InboundEmail.objects.filter(
        received_at__lt=now - timedelta(days=settings.MAIL_KEEP_DAYS),
    ).exclude(status__in=(InboundEmail.Status.RECEIVED, InboundEmail.Status.PROCESSING))
    replies = 0
    while ids := list(old.values_list("pk", flat=True)[:FORGET_BATCH]):
        replies += InboundEmail.objects.filter(pk__in=ids).delete()[0]
    windows, _ = AnswerSent.objects.filter(window__lt=now.timestamp() - ANSWER_WINDOW).delete()
    OfferedMove.objects.filter(made_at__lt=now - links.MOVE_LINK_MAX_AGE).delete()  # expired move links
    return replies, windows


def own_addresses():
    from email.utils import parseaddr

    return {parseaddr(settings.DEFAULT_FROM_EMAIL)[1].lower(), parseaddr(settings.SERVER_EMAIL)[1].lower()}
