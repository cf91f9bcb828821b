"""Bad input to every provider's inbound webhook: a clear 4xx and nothing stored, or (a message
that parses, with odd content) a 200, the message kept and the game untouched. Never a 5xx."""

import base64
import json

import pytest

from games.models import Event
from mail.models import InboundEmail

from . import payloads
from .test_webhooks import alice_reply

pytestmark = pytest.mark.django_db

JUNK = b"\x00\xff\xfe\x89PNG\r\n\x1a\n\x00\x00binary\xc3\x28\xa0\xa1"


@pytest.fixture(autouse=True)
def _providers(settings):
    payloads.configure(settings)


def good(esp, game, message=None):
    """The provider's payload for a reply: (path, body or form, content type, extra headers)."""
    message = message or alice_reply(game, "status")
    if esp == "mailgun":
        return "/anymail/mailgun/inbound_mime/", payloads.mailgun_mime(message), None, {}
    build = {"postmark": payloads.postmark, "amazon_ses": payloads.amazon_ses, "brevo": payloads.brevo}[esp]
    body, content_type, extra = build(message)
    return f"/anymail/{esp}/inbound/", body, content_type, extra


def _json_edit(edit):
    def change(body):
        data = json.loads(body)
        edit(data)
        return json.dumps(data)

    return change


def _ses_edit(edit):
    def change(body):
        data = json.loads(body)
        notification = json.loads(data["Message"])
        edit(notification)
        data["Message"] = json.dumps(notification)
        return json.dumps(data)

    return change


def _set(path, value):
    def edit(data):
        *parents, last = path
        for key in parents:
            data = data[key]
        data[last] = value

    return edit


def _drop(*path):
    def edit(data):
        *parents, last = path
        for key in parents:
            data = data[key]
        data.pop(last)

    return edit


MALFORMED = {
    "postmark": {
        "not-json": lambda b: "this is not json {",
        "binary-junk": lambda b: JUNK,
        "empty-body": lambda b: "",
        "json-null": lambda b: "null",
        "json-list": lambda b: "[]",
        "json-string": lambda b: '"hello"',
        "empty-object": lambda b: "{}",
        "headers-not-a-list": _json_edit(_set(["Headers"], "Subject: x")),
        "header-entries-not-objects": _json_edit(_set(["Headers"], ["x", 3])),
        "fromfull-null": _json_edit(_set(["FromFull"], None)),
        "tofull-a-string": _json_edit(_set(["ToFull"], "alice@example.com")),
        "attachments-not-a-list": _json_edit(_set(["Attachments"], 7)),
        "attachment-bad-base64": _json_edit(
            _set(
                ["Attachments"],
                [{"Name": "a.txt", "Content": "%%%not base64%%%", "ContentType": "text/plain", "ContentLength": 3}],
            )
        ),
        "subject-a-number": _json_edit(_set(["Subject"], 12345)),
    },
    "mailgun": {
        "no-body-mime": lambda f: {k: v for k, v in f.items() if k != "body-mime"},
        "no-signature": lambda f: {k: v for k, v in f.items() if k not in ("signature", "token", "timestamp")},
        "bad-signature": lambda f: {**f, "signature": "0" * 64},
        "timestamp-not-a-number": lambda f: {**f, "timestamp": "soon"},
        "empty-form": lambda f: {},
        "raw-json-instead": "json",
    },
    "amazon_ses": {
        "not-json": lambda b: "this is not json {",
        "binary-junk": lambda b: JUNK,
        "empty-body": lambda b: "",
        "json-list": lambda b: "[]",
        "no-type": _json_edit(_drop("Type")),
        "message-not-json": _json_edit(_set(["Message"], "not json")),
        "message-a-list": _json_edit(_set(["Message"], "[]")),
        "no-content": _ses_edit(_drop("content")),
        "no-receipt": _ses_edit(_drop("receipt")),
        "no-action": _ses_edit(_drop("receipt", "action")),
        "bad-base64-content": _ses_edit(
            lambda n: (n["receipt"]["action"].update(encoding="BASE64"), n.update(content="%%%not base64%%%"))
        ),
        "notification-type-unknown": _ses_edit(_set(["notificationType"], "Mystery")),
    },
    "brevo": {
        "not-json": lambda b: "this is not json {",
        "binary-junk": lambda b: JUNK,
        "empty-body": lambda b: "",
        "json-list": lambda b: "[]",
        "no-items": lambda b: "{}",
        "items-a-string": _json_edit(_set(["items"], "x")),
        "item-a-string": _json_edit(_set(["items"], ["x"])),
        "item-empty": _json_edit(_set(["items"], [{}])),
        "headers-a-list": _json_edit(lambda d: d["items"][0].update(Headers=["x"])),
        "headers-missing": _json_edit(lambda d: d["items"][0].pop("Headers")),
        "headers-null": _json_edit(lambda d: d["items"][0].update(Headers=None)),
    },
}
CASES = [(esp, name) for esp, cases in MALFORMED.items() for name in cases]


def post(client, path, body, content_type, extra):
    if content_type is None:  # a form (Mailgun)
        return client.post(path, body, **payloads.auth_header(), **extra)
    if isinstance(body, bytes):  # sent as they are, whatever the charset says
        content_type = content_type.split(";")[0]
    return client.post(path, body, content_type=content_type, **payloads.auth_header(), **extra)


@pytest.mark.parametrize("esp, name", CASES, ids=[f"{esp}-{name}" for esp, name in CASES])
def test_a_malformed_payload_is_a_4xx_and_stores_nothing(client, game, database_dump, esp, name):
    path, body, content_type, extra = good(esp, game)
    change = MALFORMED[esp][name]
    if change == "json":
        body, content_type = json.dumps(body), "application/json"
    else:
        body = change(body)
    before = database_dump()
    response = post(client, path, body, content_type, extra)
    assert 400 <= response.status_code < 500, (response.status_code, response.content[:300])
    assert database_dump() == before


@pytest.mark.parametrize("esp", payloads.PROVIDERS)
def test_a_body_over_the_limit_is_a_4xx_and_stores_nothing(client, game, database_dump, settings, esp):
    path, body, content_type, extra = good(esp, game)
    before = database_dump()
    padding = "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    if content_type is None:
        body = {**body, "body-mime": body["body-mime"] + padding}
    else:
        body = body[:-1] + f', "Padding": "{padding}"}}'
    response = post(client, path, body, content_type, extra)
    assert response.status_code in (400, 413)
    assert database_dump() == before


SURROGATE = "LONESURROGATE"  # where the payload gets a lone surrogate (JSON) or invalid UTF-8 (MIME)
ODD = {
    "nul-in-subject": {"subject": "Re: your move\x00 now"},
    "nul-in-body": {"text": "status\x00\x00 please"},
    "lone-surrogate-in-body": {"text": f"status {SURROGATE} please"},
    "lone-surrogate-in-subject": {"subject": f"Re: {SURROGATE} move"},
    "control-characters": {"text": "status\x01\x02\x1b[31m\x7f"},
    "nul-in-sender-name": {"sender": "Ali\x00ce <alice@example.com>"},
    "nul-in-message-id": {"message_id": "<abc\x00def@mail.example.com>"},
}
# The message is kept and answered, and its player counts as seen (Seat.last_seen): the rest stays.
KEPT_AND_ANSWERED = (
    "mail.InboundEmail",
    "mail.AnswerSent",
    "mail.OutboundEmail",
    "mail.OfferedMove",  # the answer's move links
    "games.Seat",
    "games.OverdueSeat",
)
ODD_CASES = [(esp, name) for esp in payloads.PROVIDERS for name in ODD]


@pytest.mark.parametrize("esp, name", ODD_CASES, ids=[f"{esp}-{name}" for esp, name in ODD_CASES])
def test_control_characters_and_invalid_unicode_are_kept_safe_and_change_no_game(
    client, game, on_commit, database_dump, esp, name
):
    fields = {
        "sender": "Alice <alice@example.com>",
        "subject": f"Re: Your move (game {game.pk})",
        "text": "status",
        **ODD[name],
    }
    message = payloads.compose(
        sender=fields["sender"],
        to=alice_reply(game, "x")["To"],
        subject=fields["subject"],
        text=fields["text"],
        message_id=fields.get("message_id"),
    )
    before, before_all = database_dump(leave_out=KEPT_AND_ANSWERED), database_dump()
    path, body, content_type, extra = good(esp, game, message)
    if content_type is None:  # Mailgun's raw MIME: the bytes of a lone surrogate, as invalid UTF-8
        mime = body["body-mime"].replace(f"Subject: Re: {SURROGATE}", "Subject: =?utf-8?b?7aCA?=")
        if SURROGATE in mime:
            head = mime.split("\n\n", 1)[0].replace(
                "Content-Transfer-Encoding: 7bit", "Content-Transfer-Encoding: base64"
            )
            mime = head + "\n\n" + base64.b64encode(b"status \xed\xa0\x80 please").decode() + "\n"
        body = {**body, "body-mime": mime}
    else:
        body = body.replace(SURROGATE, "\\ud800")
    with on_commit():
        response = post(client, path, body, content_type, extra)
    if content_type is not None and SURROGATE in str(ODD[name]):
        # A lone surrogate in JSON is text no email can carry: anymail cannot build the message.
        assert response.status_code == 400 and database_dump() == before_all
        return
    assert response.status_code == 200
    row = InboundEmail.objects.get()
    assert "\x00" not in row.raw + row.message_id + row.stripped_text
    row.raw.encode("utf-8")  # valid Unicode, whatever came in
    assert row.status in (InboundEmail.Status.ANSWERED, InboundEmail.Status.REFUSED, InboundEmail.Status.DROPPED)
    assert database_dump(leave_out=KEPT_AND_ANSWERED) == before
    assert not Event.objects.filter(source=Event.Source.EMAIL).exists()
