"""Read one raw RFC 822 message on standard input and hand it to the inbound receiver.

For a club's own mail server: a Postfix pipe transport or fetchmail's mda, e.g.
    reply  unix  -  n  n  -  -  pipe  user=cribbage argv=/srv/cribbage/.venv/bin/python
        /srv/cribbage/manage.py receive_email --recipient ${recipient} --sender ${sender}
"""
import sys

from anymail.inbound import AnymailInboundMessage
from django.core.management.base import BaseCommand, CommandError

from mail import reception


class Command(BaseCommand):
    help = "Read one email (RFC 822) on standard input and process it as a reply to a turn email."

    def add_arguments(self, parser):
        parser.add_argument("--recipient", default=None, help="The envelope recipient (e.g. Postfix ${recipient}).")
        parser.add_argument("--sender", default=None, help="The envelope sender (e.g. Postfix ${sender}).")

    def handle(self, *args, recipient=None, sender=None, **options):
        data = sys.stdin.buffer.read()
        if not data.strip():
            # Non-zero: the mail server keeps (or bounces) what it thought it delivered.
            raise CommandError("No message on standard input.")
        message = AnymailInboundMessage.parse_raw_mime_bytes(data)
        message.envelope_recipient = recipient
        if sender is not None:
            message.envelope_sender = sender
        row = reception.receive(message, esp_name="stdin")
        self.stdout.write("duplicate" if row is None else f"received {row.pk}")
