"""Celery tasks of play by email: thin wrappers over services (each is idempotent)."""

import logging

from celery import shared_task
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from . import delivery, inbound, services
from .models import OutboundEmail

log = logging.getLogger(__name__)


@shared_task(bind=True, acks_late=True, ignore_result=True)
def send_outbound(self, outbound_id):
    """Send one outbox row; a SENT row is never sent again.

    After a passing failure the task retries itself when the next attempt is
    soon (mail.delivery.TASK_RETRIES_UP_TO); later ones, and any retry that
    cannot be queued, are the after-commit sweeper's (games.tasks.sweep), until the row gives up.
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
