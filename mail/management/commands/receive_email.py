"""Read one raw RFC 822 message on standard input and hand it to the inbound receiver.

For a club's own mail server: a Postfix pipe transport or fetchmail's mda, e.g.
    reply  unix  -  n  n  -  -  pipe  user=cribbage argv=/srv/cribbage/.venv/bin/python
        /srv/cribbage/manage.py receive_email --recipient ${recipient} --sender ${sender}

The server's own checks are read from its Authentication-Results headers: their authserv-id
must be in MAIL_TRUSTED_AUTHSERV_IDS (the server must remove any that arrive bearing it, as
RFC 8601 §5 asks), and with DEBUG off the command refuses to run without one (EX_CONFIG, 78),
so that no message is taken on its From alone.

Exit status as sysexits(3) says, for the mail server: 0 stored (or a duplicate); 65
(EX_DATAERR) not a message we can take (empty, larger than MAX_REQUEST_BYTES, no sender or
recipient), which the server bounces; 75 (EX_TEMPFAIL) the database was not there, so the
server keeps the message and tries again. Always one line on standard error, never a traceback.
"""

import os
import sys

from anymail.inbound import AnymailInboundMessage
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError

from mail import reception


class Command(BaseCommand):
    help = "Read one email (RFC 822) on standard input and process it as a reply to a turn email."

    def add_arguments(self, parser):
        parser.add_argument("--recipient", default=None, help="The envelope recipient (e.g. Postfix ${recipient}).")
        parser.add_argument("--sender", default=None, help="The envelope sender (e.g. Postfix ${sender}).")

    def handle(self, *args, recipient=None, sender=None, **options):
        if not settings.DEBUG and not settings.MAIL_TRUSTED_AUTHSERV_IDS:
            raise CommandError(
                "MAIL_TRUSTED_AUTHSERV_IDS is not set: name the authserv-id of this mail server's "
                "Authentication-Results (e.g. its host name); nothing was read.",
                returncode=os.EX_CONFIG,
            )
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        data = sys.stdin.buffer.read(limit + 1)
        if not data.strip():
            raise CommandError("No message on standard input.", returncode=os.EX_DATAERR)
        if len(data) > limit:
            raise CommandError(
                f"The message is larger than {limit} bytes (MAX_REQUEST_BYTES); not taken.", returncode=os.EX_DATAERR
            )
        try:
            message = AnymailInboundMessage.parse_raw_mime_bytes(data)
            message.envelope_recipient = recipient
            if sender is not None:
                message.envelope_sender = sender
            row = reception.receive(message, esp_name="stdin")
        except DatabaseError as exc:
            raise CommandError(
                f"Could not store the message ({type(exc).__name__}); try again later.", returncode=os.EX_TEMPFAIL
            ) from None
        except Exception as exc:  # whatever the bytes were, they are not a reply we can read
            raise CommandError(f"Not an email message we can read: {exc}", returncode=os.EX_DATAERR) from None
        self.stdout.write("duplicate" if row is None else f"received {row.pk}")
