"""One receiver for every provider's inbound webhook (and `manage.py receive_email`)."""
from anymail.signals import inbound
from django.dispatch import receiver


@receiver(inbound, dispatch_uid="mail.inbound")
def handle_inbound(sender, event, esp_name, **kwargs):
    """Store the message and queue its reading; never fail the webhook for a player's mistake."""
    from . import inbound as service

    service.receive(event.message, esp_name=esp_name, event=event)
