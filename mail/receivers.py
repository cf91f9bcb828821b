"""Mail's receivers: every provider's inbound webhook (and `manage.py receive_email`), and the
turn and result emails a move owes."""
import logging

from anymail.signals import inbound, tracking
from django.conf import settings
from django.dispatch import receiver

from games.models import Game
from games.signals import move_applied

from . import delivery
from . import inbound as service
from .authentication import provider_name
from .services import record_turn_notices

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
    service.receive(event.message, esp_name=esp_name, event=event)


@receiver(move_applied, sender=Game, dispatch_uid="mail.turn_notices")
def owe_turn_notices(sender, game, seats, events, started, **kwargs):
    record_turn_notices(game, seats, events, started)


@receiver(tracking, dispatch_uid="mail.tracking")
def handle_tracking(sender, event, esp_name, **kwargs):
    """The ESP's report on a sent message: a hard bounce or a complaint stops mail to the address."""
    delivery.on_tracking_event(event, esp_name)
