"""Celery tasks of play by email: thin wrappers over services (each is idempotent)."""
import logging

from celery import shared_task
from django.db import InterfaceError, OperationalError

from .services import TransientSendError

log = logging.getLogger(__name__)


def _send_failed(self, exc, task_id, args, kwargs, einfo):
    from . import services

    services.mark_failed(args[0], repr(exc))


@shared_task(autoretry_for=(TransientSendError, OperationalError, InterfaceError), retry_backoff=True, retry_backoff_max=600,
             retry_jitter=True, max_retries=6, on_failure=_send_failed, acks_late=True,
             ignore_result=True)
def send_outbound(outbound_id):
    """Send one outbox row: transient provider, SMTP or database failures are retried with
    backoff; a SENT row is never sent again."""
    from . import services

    return services.send_outbound(outbound_id)


@shared_task
def requeue_unsent():
    """Periodic (beat "mail-requeue-unsent", every 2 minutes): queue again the outbox rows whose
    task was lost, and the held turn emails whose hold is over (a bounded batch; idempotent)."""
    from . import services

    ids = services.unsent_batch()
    for outbound_id in ids:
        send_outbound.delay(outbound_id)
    if ids:
        log.info("Re-queued %d unsent or held emails.", len(ids))
    return len(ids)


@shared_task
def forget_old_mail():
    """Periodic (beat "mail-forget-old", daily): delete replies kept past MAIL_KEEP_DAYS."""
    from . import services

    replies, windows = services.forget_old_mail()
    if replies or windows:
        log.info("Forgot %d old replies and %d spent answer windows.", replies, windows)
    return replies


@shared_task(acks_late=True, ignore_result=True, autoretry_for=(OperationalError, InterfaceError),
             retry_backoff=True, retry_backoff_max=300, max_retries=8)
def process_inbound(inbound_id):
    """Read one stored reply and act on it (a move, an answer, or nothing)."""
    from . import inbound

    return inbound.process(inbound_id)
