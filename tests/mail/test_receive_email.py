"""`manage.py receive_email`: one raw message on standard input, the same processing as the webhook."""

import io
import sys

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.models import Event
from games.selectors import view_for
from mail import links
from mail.models import InboundEmail
from tests.factories import genuine

from . import payloads


def run(raw, on_commit, monkeypatch, *args):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    out = io.StringIO()
    with on_commit():
        call_command("receive_email", *args, stdout=out)
    return out.getvalue()


def test_a_piped_reply_makes_the_move_once(game, on_commit, monkeypatch):
    hand = list(view_for(game, 0).hand)
    raw = payloads.compose(
        sender="alice@example.com",
        to="Alice's game <someone@example.com>",
        subject="Re: Your move",
        text=f"crib {hand[0]} {hand[1]}\n\n> quoted\n",
        headers=genuine("alice@example.com"),  # our mail server's checks, above the message
    ).as_bytes()
    recipient = links.reply_address(game.pk, 0)  # the envelope recipient, as Postfix passes it
    assert run(raw, on_commit, monkeypatch, "--recipient", recipient).startswith("received")
    assert run(raw, on_commit, monkeypatch, "--recipient", recipient).startswith("duplicate")
    assert InboundEmail.objects.get().status == InboundEmail.Status.APPLIED
    assert Event.objects.filter(game=game, source=Event.Source.EMAIL).count() == 1


def test_a_piped_bounce_is_ignored(game, on_commit, monkeypatch):
    raw = payloads.compose(
        sender="alice@example.com", to=links.reply_address(game.pk, 0), subject="Re: Your move", text="play 7C\n"
    ).as_bytes()
    run(raw, on_commit, monkeypatch, "--sender", "")
    assert InboundEmail.objects.get().status == InboundEmail.Status.IGNORED


def test_empty_standard_input_stores_nothing_and_says_so(db, monkeypatch):
    for raw in (b"", b"\n  \r\n"):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
        out = io.StringIO()
        with pytest.raises(CommandError, match=r"^No message on standard input\.$"):
            call_command("receive_email", stdout=out)
        assert out.getvalue() == ""
    assert not InboundEmail.objects.exists()
