"""Replies in each real client's structure and language (tests/mail/clients), through every way a
reply comes in: a new instruction above the quote is applied exactly once; an instruction only in
the quote is never applied, and the player is told so."""

import io
import sys

import pytest
from anymail.inbound import AnymailInboundMessage
from anymail.webhooks.amazon_ses import AmazonSESInboundWebhookView
from anymail.webhooks.brevo import BrevoInboundWebhookView
from anymail.webhooks.mailgun import MailgunInboundWebhookView
from anymail.webhooks.postmark import PostmarkInboundWebhookView
from django.core import mail
from django.core.management import call_command

from games.models import Event
from games.selectors import view_for
from mail import classify, links, parsing
from mail.game_replies import QUOTED_ONLY
from mail.models import InboundEmail
from tests.factories import genuine

from . import payloads
from .clients import CASES, CLIENTS, LANGUAGE, LANGUAGES, build, formats_of, quoted_turn

CHANNELS = ["receive_email", "postmark", "mailgun", "amazon_ses", "brevo"]
VIEWS = {
    "postmark": PostmarkInboundWebhookView,
    "mailgun": MailgunInboundWebhookView,
    "amazon_ses": AmazonSESInboundWebhookView,
    "brevo": BrevoInboundWebhookView,
}
SENDER, TO = "Alice <alice@example.com>", "reply+abc@cribbage.example.org"


@pytest.fixture(autouse=True)
def anymail_settings(settings):
    payloads.configure(settings)


def delivered(channel, message, rf):
    """`message` as the project receives it by `channel`: anymail's own parsing of the payload."""
    if channel == "receive_email":
        return AnymailInboundMessage.parse_raw_mime_bytes(message.as_bytes())
    if channel == "mailgun":
        request = rf.post("/", payloads.mailgun_mime(message))
    else:
        body, content_type, extra = getattr(payloads, channel)(message)
        request = rf.post("/", body, content_type=content_type, **extra)
    [event] = VIEWS[channel]().parse_events(request)
    return event.message


def read(message):
    return parsing.read_reply(message.stripped_text, classify.body_text(message), str(message["Subject"] or ""))


# Every case by the raw message (receive_email, and what mailgun and SES forward) and by one
# webhook more, the webhooks taking turns (each then reads every client and format); the end to
# end test below sends every client through every channel.
READ = [(case, CHANNELS[1 + i % (len(CHANNELS) - 1)]) for i, case in enumerate(CASES)]


@pytest.mark.parametrize("case, webhook", READ, ids=[f"{c}-{lang}-{f}-{w}" for (c, lang, f), w in READ])
def test_only_the_words_above_the_quote_are_read(rf, case, webhook):
    client, code, fmt = case
    old, new = "crib 5H JD", "crib KS 2C"
    for channel in ("receive_email", webhook):
        reply = delivered(channel, build(client, code, new, quoted_turn(old), fmt, sender=SENDER, to=TO), rf)
        said = read(reply)
        assert [c.words for c in said.commands] == [new], channel
        chatter = LANGUAGE[code].chatter
        reply = delivered(channel, build(client, code, chatter, quoted_turn(old), fmt, sender=SENDER, to=TO), rf)
        said = read(reply)
        assert said.commands == [] and said.only_quoted and said.words == chatter, channel


# End to end, one game each: every client through every channel, the language and the format
# taking turns so that every language and format goes through the service too.
END_TO_END = [
    (
        client,
        LANGUAGES[(i * len(CHANNELS) + j) % len(LANGUAGES)].code,
        channel,
        formats_of(client)[j % len(formats_of(client))],
    )
    for i, client in enumerate(CLIENTS)
    for j, channel in enumerate(CHANNELS)
]


def send(client, channel, message, on_commit, monkeypatch, game):
    if channel == "receive_email":
        # what the trusted receiving server writes above a genuine message
        for header, value in genuine(SENDER).items():
            message[header] = value
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(message.as_bytes())))
        with on_commit():
            call_command("receive_email", "--recipient", links.reply_address(game.pk, 0), stdout=io.StringIO())
        return
    with on_commit():
        assert payloads.post(client, channel, message).status_code == 200


@pytest.mark.parametrize(
    "name, code, channel, fmt", END_TO_END, ids=[f"{c}-{lang}-{ch}-{f}" for c, lang, ch, f in END_TO_END]
)
def test_a_new_instruction_is_applied_once_and_a_quoted_one_never(
    client, game, on_commit, monkeypatch, name, code, channel, fmt
):
    hand = view_for(game, 0)["hand"]
    new, old = f"crib {hand[0]} {hand[1]}", f"crib {hand[2]} {hand[3]}"
    to = links.reply_address(game.pk, 0)
    mail.outbox.clear()
    chatter = build(name, code, LANGUAGE[code].chatter, quoted_turn(old, game.pk), fmt, sender=SENDER, to=to)
    send(client, channel, chatter, on_commit, monkeypatch, game)
    row = InboundEmail.objects.get()
    assert row.status == InboundEmail.Status.ANSWERED and row.outcome.startswith("only quoted:")
    assert not Event.objects.filter(game=game, source=Event.Source.EMAIL).exists()
    [answer] = [m for m in mail.outbox if m.to == ["alice@example.com"]]
    assert QUOTED_ONLY in answer.body and "=?utf-8?" not in answer.body

    message = build(name, code, new, quoted_turn(old, game.pk), fmt, sender=SENDER, to=to)
    for _ in range(2):  # delivered twice, applied once
        send(client, channel, message, on_commit, monkeypatch, game)
    assert InboundEmail.objects.get(message_id=message["Message-ID"]).status == InboundEmail.Status.APPLIED
    [event] = Event.objects.filter(game=game, source=Event.Source.EMAIL)
    assert event.data["cards"] == hand[:2]
