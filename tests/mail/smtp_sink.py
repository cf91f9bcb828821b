"""A real SMTP server on 127.0.0.1 (aiosmtpd) that keeps what it accepts, for tests and the bench."""

import asyncio
import queue
import socket
import threading
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

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if self.sink.stalls:
            # A client cut off here never sent the message: nothing is delivered.
            self.sink.stalls -= 1
            self.sink.stalled.set()
            while not self.sink.release.is_set():
                await asyncio.sleep(0.05)
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        message = message_from_bytes(envelope.content, policy=policy.default)
        self.sink.received.put((time.perf_counter(), envelope.rcpt_tos, message))
        return "250 Message accepted for delivery"


class SmtpSink:
    """`with SmtpSink() as sink:` ... `sink.port`; `sink.next(timeout)` -> (accepted_at, rcpt_tos, message).

    `port`: listen there (a port nothing listened on until now, for a server that comes back).
    `stalls`: hold the first that many conversations after MAIL FROM, before any recipient is
    accepted, until `release` is set (`stalled` is set once one is held): a sender caught in
    the middle of a send.
    """

    def __init__(self, port=None, stalls=0):
        self.port = port or free_port()
        self.stalls = stalls
        self.stalled, self.release = threading.Event(), threading.Event()
        self.received = queue.Queue()
        self.controller = Controller(_Handler(self), hostname="127.0.0.1", port=self.port)

    def __enter__(self):
        self.controller.start()
        return self

    def __exit__(self, *exc):
        self.release.set()
        self.controller.stop()

    def drain(self, timeout=0.5):
        """Everything accepted from now until `timeout` seconds pass with nothing new."""
        got = []
        while True:
            try:
                got.append(self.received.get(timeout=timeout))
            except queue.Empty:
                return got

    def next(self, timeout=10):
        return self.received.get(timeout=timeout)


def text_part(message):
    return message.get_body(preferencelist=("plain",)).get_content().replace("\r\n", "\n")
