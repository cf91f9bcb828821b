"""A real SMTP server on 127.0.0.1 (aiosmtpd) that keeps what it accepts, for tests and the bench."""
import queue
import socket
import time
from email import message_from_bytes, policy

from aiosmtpd.controller import Controller


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class _Handler:
    def __init__(self, sink):
        self.sink = sink

    async def handle_DATA(self, server, session, envelope):
        message = message_from_bytes(envelope.content, policy=policy.default)
        self.sink.received.put((time.perf_counter(), envelope.rcpt_tos, message))
        return "250 Message accepted for delivery"


class SmtpSink:
    """`with SmtpSink() as sink:` ... `sink.port`; `sink.next(timeout)` -> (accepted_at, rcpt_tos, message)."""

    def __init__(self):
        self.port = free_port()
        self.received = queue.Queue()
        self.controller = Controller(_Handler(self), hostname="127.0.0.1", port=self.port)

    def __enter__(self):
        self.controller.start()
        return self

    def __exit__(self, *exc):
        self.controller.stop()

    def next(self, timeout=10):
        return self.received.get(timeout=timeout)


def text_part(message):
    return message.get_body(preferencelist=("plain",)).get_content().replace("\r\n", "\n")
