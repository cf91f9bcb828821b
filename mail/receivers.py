"""Mail's receivers: every provider's inbound webhook (and `manage.py receive_email`), the ESP's
tracking events, and what the lower apps announce (games.signals, accounts.signals)."""

import logging

from anymail.signals import inbound, tracking
from django.conf import settings
from django.db.models import Q
from django.dispatch import receiver
from django.utils import timezone

from accounts.signals import account_deleting, account_email, address_changed, invitation_owed
from games.models import Game
from games.signals import challenge_notice, move_applied

from . import delivery, outbox, reception
from .authentication import provider_name
from .models import AnswerSent, InboundEmail, OutboundEmail

log = logging.getLogger(__name__)


@receiver(inbound, dispatch_uid="mail.inbound")
def handle_inbound(sender, event, esp_name, **kwargs):
    """Store the message and queue its reading; never fail the webhook for a player's mistake.

    anymail serves every provider's webhook; only those in MAIL_INBOUND_PROVIDERS (whose
    secrets the system checks require) are read, so an unused one cannot carry a forgery.
    """
    if provider_name(esp_name) not in settings.MAIL_INBOUND_PROVIDERS:
        log.warning("Inbound message through %s dropped: not one of MAIL_INBOUND_PROVIDERS.", esp_name)
        return
    reception.receive(event.message, esp_name=esp_name, event=event)


@receiver(move_applied, sender=Game, dispatch_uid="mail.turn_notices")
def owe_turn_notices(sender, game, seats, events, started, **kwargs):
    outbox.record_turn_notices(game, seats, events, started)


@receiver(tracking, dispatch_uid="mail.tracking")
def handle_tracking(sender, event, esp_name, **kwargs):
    """The ESP's report on a sent message: a hard bounce or a complaint stops mail to the address."""
    delivery.on_tracking_event(event, esp_name)


@receiver(challenge_notice, dispatch_uid="mail.challenge_notice")
def owe_challenge_notice(sender, challenge, to, kind, by=None, **kwargs):
    outbox.owe(
        OutboundEmail.Kind.CHALLENGE,
        to,
        f"{challenge.pk}:{kind}:{to.pk}",
        context={"challenge": challenge.pk, "notice": kind, "by": getattr(by, "pk", None)},
    )


@receiver(invitation_owed, dispatch_uid="mail.invitation_owed")
def owe_invitation(sender, user, invited_by=None, next_url="", invited_to="", details="", **kwargs):
    outbox.owe(
        OutboundEmail.Kind.INVITATION,
        user,
        f"{user.pk}",
        context={
            "invited_by": getattr(invited_by, "pk", None),
            "next_url": next_url,
            "invited_to": invited_to,
            "details": details,
        },
    )


@receiver(address_changed, dispatch_uid="mail.address_changed")
def owe_address_changed(sender, user, old_email, new_email, **kwargs):
    """The old address is told, in the change's transaction: if the change was not its owner's,
    its link undoes it."""
    outbox.owe(
        OutboundEmail.Kind.ADDRESS_CHANGED,
        user,
        f"{user.pk}:{timezone.now().timestamp():.6f}",  # one per change
        context={"old": old_email, "new": new_email},
        to=old_email,
    )


@receiver(account_email, dispatch_uid="mail.account_email")
def owe_account_email(sender, kind, user, to, details, **kwargs):
    """What a person just asked for (a confirmation, a login link, a password reset), owed in the
    outbox like every email, its link made when it is sent. Asked again while one is still
    waiting to go (the mail server down), it is owed once: the one that goes carries a fresh link."""
    waiting = OutboundEmail.objects.filter(
        user=user, kind=kind, to=to, status__in=(OutboundEmail.Status.READY, OutboundEmail.Status.SENDING)
    )
    if waiting.exists():
        return
    outbox.owe(kind, user, f"{user.pk}:{timezone.now().timestamp():.6f}", context=details, to=to)


@receiver(account_deleting, dispatch_uid="mail.account_deleting")
def forget_account_mail(sender, user, email, **kwargs):
    """A deleted account's mail goes: what was sent to the address, its replies (their moves
    stay in the games' logs), and the answer limits kept for it."""
    OutboundEmail.objects.filter(to__iexact=email).delete()
    InboundEmail.objects.filter(Q(envelope_sender__icontains=email) | Q(raw__icontains=email)).delete()
    AnswerSent.objects.filter(address__iexact=email).delete()
