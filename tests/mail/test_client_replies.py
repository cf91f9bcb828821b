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


# Every case through every channel, its parts quoted-printable through some channels and base64
# through the others (a multipart message has one part of each), so every client, language and
# format is read through receive_email and every webhook in both encodings; the end to end test
# below sends each client in each language through the service, the channels taking turns.
ENCODINGS = ["quoted-printable", "base64"]


@pytest.mark.parametrize("case", CASES, ids=[f"{c}-{lang}-{f}" for c, lang, f in CASES])
def test_only_the_words_above_the_quote_are_read(rf, case):
    client, code, fmt = case
    old, new, n = "crib 5H JD", "crib KS 2C", CASES.index(case)
    for i, channel in enumerate(CHANNELS):
        encoding = ENCODINGS[(i + n) % 2]
        message = build(client, code, new, quoted_turn(old), fmt, sender=SENDER, to=TO, encoding=encoding)
        said = read(delivered(channel, message, rf))
        assert [c.words for c in said.commands] == [new], (channel, encoding)
        chatter = LANGUAGE[code].chatter
        message = build(client, code, chatter, quoted_turn(old), fmt, sender=SENDER, to=TO, encoding=encoding)
        said = read(delivered(channel, message, rf))
        assert said.commands == [] and said.only_quoted and said.words == chatter, (channel, encoding)


# End to end, one game each: every client in every language, the channel taking turns so that
# every client and every language goes through every channel, the format taking turns too.
END_TO_END = [
    (client, lang.code, CHANNELS[(i + k) % len(CHANNELS)], formats_of(client)[k % len(formats_of(client))])
    for i, client in enumerate(CLIENTS)
    for k, lang in enumerate(LANGUAGES)
]


def test_the_end_to_end_cases_take_every_client_and_every_language_through_every_channel():
    assert {(c, lang) for c, lang, _, _ in END_TO_END} == {(c, lang.code) for c in CLIENTS for lang in LANGUAGES}
    assert {(c, ch) for c, _, ch, _ in END_TO_END} == {(c, ch) for c in CLIENTS for ch in CHANNELS}
    assert {(lang, ch) for _, lang, ch, _ in END_TO_END} == {(lang.code, ch) for lang in LANGUAGES for ch in CHANNELS}
    assert {(c, f) for c, _, _, f in END_TO_END} == {(c, f) for c in CLIENTS for f in formats_of(c)}


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
    hand = list(view_for(game, 0).hand)
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


@pytest.mark.parametrize("channel", CHANNELS)
def test_a_very_large_html_only_reply_is_read_through_every_channel(client, game, on_commit, monkeypatch, channel):
    # Hotmail's HTML-only reply, base64, above a long thread quoted after its <hr> (some 800 KB).
    hand = list(view_for(game, 0).hand)
    thread = quoted_turn(f"crib {hand[2]} {hand[3]}", game.pk) + ["Old thread with lots of markup."] * 26_000
    to = links.reply_address(game.pk, 0)
    mail.outbox.clear()
    chatter = build("hotmail", "en", "Thanks, sounds good.", thread, "html", sender=SENDER, to=to, encoding="base64")
    assert len(chatter.as_bytes()) > 767 * 1024
    send(client, channel, chatter, on_commit, monkeypatch, game)
    assert InboundEmail.objects.get().outcome.startswith("only quoted:")
    [answer] = [m for m in mail.outbox if m.to == ["alice@example.com"]]
    assert QUOTED_ONLY in answer.body and len(answer.body) < 10_000  # nothing of the thread (nor base64) quoted
    message = build("hotmail", "en", f"crib {hand[0]} {hand[1]}", thread, "html", sender=SENDER, to=to)
    send(client, channel, message, on_commit, monkeypatch, game)
    assert InboundEmail.objects.get(message_id=message["Message-ID"]).status == InboundEmail.Status.APPLIED
    [event] = Event.objects.filter(game=game, source=Event.Source.EMAIL)
    assert event.data["cards"] == hand[:2]
