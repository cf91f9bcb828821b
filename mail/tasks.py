"""Celery tasks of play by email: thin wrappers over services (each is idempotent)."""

import logging

from celery import shared_task
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from games import follow_ups

from . import delivery, inbound, services
from .models import OutboundEmail

log = logging.getLogger(__name__)


@shared_task(bind=True, acks_late=True, ignore_result=True)
def send_outbound(self, outbound_id):
    """Send one outbox row; a SENT row is never sent again.

    After a passing failure the task retries itself when the next attempt is
    soon (mail.delivery.TASK_RETRIES_UP_TO); later ones, and any retry that
    cannot be queued, are the sweeper's (requeue_unsent), until the row gives up.
    """
    try:
        return services.send_outbound(outbound_id)
    except services.TransientSendError as exc:
        wait = exc.retry_at and (exc.retry_at - timezone.now()).total_seconds()
        if self.request.is_eager or wait is None or wait > delivery.TASK_RETRIES_UP_TO.total_seconds():
            return OutboundEmail.Status.READY
        raise self.retry(countdown=max(wait, 0), max_retries=None) from None
    except (OperationalError, InterfaceError) as exc:  # the database, before the row was claimed
        if self.request.is_eager:
            raise
        raise self.retry(exc=exc, countdown=30, max_retries=5) from None


@shared_task
def requeue_unsent():
    """Periodic (beat "mail-requeue-unsent", every 2 minutes): queue again the outbox rows whose
    task was lost, and the held turn emails whose hold is over (a bounded batch; idempotent)."""
    ids = services.unsent_batch()
    rows = OutboundEmail.objects.select_related("user").filter(pk__in=ids).order_by("created_at")
    for outbound_id in services.needing_a_task(rows):
        if not follow_ups.enqueue(send_outbound, outbound_id):
            break  # the broker is down: the next sweep takes them all again
    if ids:
        log.info("Re-queued %d unsent or held emails.", len(ids))
    return len(ids)


@shared_task
def requeue_unread():
    """Periodic (beat "mail-requeue-unread", every 2 minutes): queue again the reading of the
    replies stored while the broker was down (or whose task was lost)."""
    ids = inbound.unread_batch()
    for inbound_id in ids:
        if not follow_ups.enqueue(process_inbound, inbound_id):
            break
    if ids:
        log.info("Re-queued %d unread replies.", len(ids))
    return len(ids)


@shared_task
def forget_old_mail():
    """Periodic (beat "mail-forget-old", daily): delete replies kept past MAIL_KEEP_DAYS."""
    replies, windows = services.forget_old_mail()
    if replies or windows:
        log.info("Forgot %d old replies and %d spent answer windows.", replies, windows)
    return replies


@shared_task(
    acks_late=True,
    ignore_result=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    retry_backoff_max=300,
    max_retries=8,
)
def process_inbound(inbound_id):
    """Read one stored reply and act on it (a move, an answer, or nothing)."""
    return inbound.process(inbound_id)
