"""Inbound webhook payloads in each provider's documented format, built around one reply.

Postmark: https://postmarkapp.com/developer/webhooks/inbound-webhook (JSON, Headers as a list,
Return-Path first); Mailgun: routes forward() to a URL ending in "mime" (form fields with
body-mime, signed timestamp+token); Amazon SES: an SNS Notification whose Message is the SES
"Received" notification with the raw content (SNS action, UTF8 encoding); Brevo:
https://developers.brevo.com/docs/inbound-parse-webhooks ({"items": [...]}).
"""

import base64
import copy
import hashlib
import hmac
import json
import time
import uuid
from email.message import EmailMessage
from email.utils import format_datetime, getaddresses, make_msgid, parseaddr

from django.utils import timezone

from tests.factories import genuine

WEBHOOK_SECRET = "hook-user:hook-password"
MAILGUN_SIGNING_KEY = "mailgun-signing-key"
ANYMAIL_SETTINGS = {
    "WEBHOOK_SECRET": WEBHOOK_SECRET,
    "MAILGUN_WEBHOOK_SIGNING_KEY": MAILGUN_SIGNING_KEY,
    "BREVO_API_KEY": "xkeysib-test",
}
PROVIDERS = ["postmark", "mailgun", "amazon_ses", "brevo"]


def configure(settings):
    """Every provider's inbound webhook read, with its secrets."""
    settings.ANYMAIL = ANYMAIL_SETTINGS
    settings.MAIL_INBOUND_PROVIDERS = PROVIDERS


def auth_header(secret=WEBHOOK_SECRET):
    return {"HTTP_AUTHORIZATION": "Basic " + base64.b64encode(secret.encode()).decode()}


def compose(*, sender, to, subject, text, message_id=None, headers=None):
    """A plain-text reply as a mail client writes it."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = format_datetime(timezone.now())
    message["Message-ID"] = message_id or make_msgid(domain="mail.example.com")
    for name, value in (headers or {}).items():
        message[name] = value
    message.set_content(text)
    return message


def bodies(message):
    """(text, html) of a message: its plain and HTML parts, decoded ("" for a part it lacks)."""
    if not message.is_multipart():
        content = message.get_content()
        return ("", content) if message.get_content_type() == "text/html" else (content, "")
    text, html = message.get_body(("plain",)), message.get_body(("html",))
    return (text.get_content() if text else "", html.get_content() if html else "")


def _full(address):
    name, email = parseaddr(address)
    local = email.partition("@")[0]
    return {"Email": email, "Name": name, "MailboxHash": local.partition("+")[2]}


def postmark(message, *, stripped_text=None, envelope_sender=None, spf="Pass", spam=("No", "-0.1")):
    """Postmark checks SPF for the envelope sender (its Received-SPF) and runs SpamAssassin (its
    X-Spam-Status and X-Spam-Score); it reports no DKIM or DMARC result."""
    envelope = envelope_sender or parseaddr(message["From"])[1]
    headers = [{"Name": "Return-Path", "Value": f"<{envelope}>"}]
    headers += [
        {
            "Name": "Received-SPF",
            "Value": f"{spf} (mailfrom) identity=mailfrom; client-ip=192.0.2.25; "
            f"helo=mail.example.com; envelope-from={envelope}; receiver=inbound.postmarkapp.com",
        },
        {"Name": "X-Spam-Status", "Value": spam[0]},
        {"Name": "X-Spam-Score", "Value": spam[1]},
    ]
    headers += [
        {"Name": k, "Value": str(v)} for k, v in message.items() if k not in ("From", "To", "Cc", "Subject", "Date")
    ]
    to = [_full(a) for a in [message["To"]]]
    payload = {
        "FromName": parseaddr(message["From"])[0],
        "MessageStream": "inbound",
        "From": parseaddr(message["From"])[1],
        "FromFull": _full(message["From"]),
        "To": message["To"],
        "ToFull": to,
        "Cc": "",
        "CcFull": [],
        "Bcc": "",
        "BccFull": [],
        "OriginalRecipient": to[0]["Email"],
        "Subject": message["Subject"],
        "MessageID": str(uuid.uuid4()),
        "ReplyTo": "",
        "MailboxHash": to[0]["MailboxHash"],
        "Date": message["Date"],
        "TextBody": bodies(message)[0],
        "HtmlBody": bodies(message)[1],
        "StrippedTextReply": stripped_text or "",
        "Tag": "",
        "Headers": headers,
        "Attachments": [],
    }
    return json.dumps(payload), "application/json", {}


def mailgun_mime(message, *, envelope_sender=None, signing_key=MAILGUN_SIGNING_KEY, checks=None):
    """Mailgun adds its SPF and DKIM results above the message's headers (`checks` replaces them)."""
    message = copy.deepcopy(message)
    added = checks if checks is not None else {"X-Mailgun-Spf": "Pass", "X-Mailgun-Dkim-Check-Result": "Pass"}
    message._headers[:0] = [(name, value) for name, value in added.items()]
    timestamp, token = str(int(time.time())), uuid.uuid4().hex
    signature = hmac.new(signing_key.encode(), f"{timestamp}{token}".encode(), hashlib.sha256).hexdigest()
    return {
        "recipient": getaddresses([message["To"]])[0][1],
        "sender": envelope_sender or parseaddr(message["From"])[1],
        "from": message["From"],
        "subject": message["Subject"],
        "body-mime": message.as_string(),
        "timestamp": timestamp,
        "token": token,
        "signature": signature,
    }


def amazon_ses(message, *, envelope_sender=None, verdicts=None):
    recipient = getaddresses([message["To"]])[0][1]
    sender = envelope_sender or parseaddr(message["From"])[1]
    now = timezone.now().strftime("%Y-%m-%dT%H:%M:%S.000Z")
    ses_id = uuid.uuid4().hex
    verdicts = {"spam": "PASS", "virus": "PASS", "spf": "PASS", "dkim": "PASS", "dmarc": "PASS", **(verdicts or {})}
    notification = {
        "notificationType": "Received",
        "mail": {
            "timestamp": now,
            "source": sender,
            "messageId": ses_id,
            "destination": [recipient],
            "headersTruncated": False,
            "headers": [{"name": k, "value": str(v)} for k, v in message.items()],
            "commonHeaders": {
                "returnPath": sender,
                "from": [message["From"]],
                "date": message["Date"],
                "to": [message["To"]],
                "messageId": message["Message-ID"],
                "subject": message["Subject"],
            },
        },
        "receipt": {
            "timestamp": now,
            "processingTimeMillis": 420,
            "recipients": [recipient],
            **{f"{k}Verdict": {"status": v} for k, v in verdicts.items()},
            "action": {
                "type": "SNS",
                "topicArn": "arn:aws:sns:us-east-1:123456789012:cribbage-inbound",
                "encoding": "UTF8",
            },
        },
        "content": message.as_string(),
    }
    sns_id = str(uuid.uuid4())
    body = {
        "Type": "Notification",
        "MessageId": sns_id,
        "TopicArn": "arn:aws:sns:us-east-1:123456789012:cribbage-inbound",
        "Subject": "Amazon SES Email Receipt Notification",
        "Message": json.dumps(notification),
        "Timestamp": now,
        "SignatureVersion": "1",
        "Signature": "EXAMPLEpH+..",
        "SigningCertURL": "https://sns.us-east-1.amazonaws.com/cert.pem",
        "UnsubscribeURL": "https://sns.us-east-1.amazonaws.com/?Action=Unsubscribe",
    }
    return (
        json.dumps(body),
        "text/plain; charset=UTF-8",
        {
            "HTTP_X_AMZ_SNS_MESSAGE_TYPE": "Notification",
            "HTTP_X_AMZ_SNS_MESSAGE_ID": sns_id,
            "HTTP_X_AMZ_SNS_TOPIC_ARN": body["TopicArn"],
        },
    )


def brevo(message, *, stripped_text=None, envelope_sender=None, authenticated=True):
    recipient = getaddresses([message["To"]])[0][1]
    name, address = parseaddr(message["From"])
    # Brevo's MX writes its Authentication-Results (its authserv-id trusted in tests.settings).
    headers = {"Authentication-Results": genuine(address)["Authentication-Results"]} if authenticated else {}
    headers.update({k: str(v) for k, v in message.items()})
    headers["Return-Path"] = f"<{envelope_sender or address}>"
    headers["Delivered-To"] = recipient
    item = {
        "Uuid": [str(uuid.uuid4())],
        "MessageId": message["Message-ID"],
        "InReplyTo": None,
        "From": {"Name": name, "Address": address},
        "To": [{"Name": None, "Address": recipient}],
        "Cc": None,
        "ReplyTo": None,
        "SentAtDate": message["Date"],
        "Subject": message["Subject"],
        "Attachments": [],
        "Headers": headers,
        "SpamScore": 0.2,
        "ExtractedMarkdownMessage": stripped_text or "",
        "ExtractedMarkdownSignature": None,
        "RawHtmlBody": bodies(message)[1],
        "RawTextBody": bodies(message)[0],
    }
    return json.dumps({"items": [item]}), "application/json", {}


def post(client, esp, message, secret=WEBHOOK_SECRET, **options):
    """POST `message` to /anymail/<esp>/inbound/ in that provider's format."""
    if esp == "mailgun":
        return client.post("/anymail/mailgun/inbound_mime/", mailgun_mime(message, **options), **auth_header(secret))
    build = {"postmark": postmark, "amazon_ses": amazon_ses, "brevo": brevo}[esp]
    body, content_type, extra = build(message, **options)
    return client.post(f"/anymail/{esp}/inbound/", body, content_type=content_type, **auth_header(secret), **extra)


# --- Tracking webhooks (what became of a sent message) ------------------------------------
# Postmark: https://postmarkapp.com/developer/webhooks/bounce-webhook and spam-complaint-webhook;
# Mailgun: https://documentation.mailgun.com/docs/mailgun/user-manual/tracking-messages/ (webhooks,
# JSON "event-data" with a signed "signature" block).


def postmark_bounce(email, bounce_type="HardBounce"):
    record = "SpamComplaint" if bounce_type == "SpamComplaint" else "Bounce"
    return {
        "RecordType": record,
        "ID": 901542550,
        "Type": bounce_type,
        "TypeCode": 1,
        "ServerID": 23,
        "Name": {"HardBounce": "Hard bounce", "SoftBounce": "Soft bounce"}.get(bounce_type, "Spam complaint"),
        "MessageID": str(uuid.uuid4()),
        "MessageStream": "outbound",
        "Description": "The server was unable to deliver your message (ex: unknown user, mailbox not found).",
        "Details": "smtp;550 5.1.1 The email account that you tried to reach does not exist.",
        "Email": email,
        "From": "play@cribbage.example.org",
        "BouncedAt": "2026-11-30T16:28:50.3963933-04:00",
        "DumpAvailable": True,
        "Inactive": bounce_type != "SoftBounce",
        "CanActivate": True,
        "Subject": "Your move: Alice v Bob (game 1)",
        "Tag": "",
        "Metadata": {},
    }


def mailgun_event(email, event="failed", severity="permanent", reason="bounce", signing_key=MAILGUN_SIGNING_KEY):
    timestamp, token = str(int(time.time())), uuid.uuid4().hex
    data = {
        "event": event,
        "recipient": email,
        "timestamp": float(timestamp),
        "id": uuid.uuid4().hex,
        "log-level": "error",
        "tags": [],
        "user-variables": {},
        "message": {
            "headers": {
                "to": email,
                "message-id": "20261130214658.1.0DF563D0B3597700@example.org",
                "from": "play@cribbage.example.org",
                "subject": "Your move",
            }
        },
    }
    if event == "failed":
        data.update(
            severity=severity,
            reason=reason,
            **{
                "delivery-status": {
                    "attempt-no": 1,
                    "description": "",
                    "code": 550 if severity == "permanent" else 450,
                    "message": "5.1.1 The email account that you tried to reach does not exist.",
                }
            },
        )
    signature = hmac.new(signing_key.encode(), (timestamp + token).encode(), hashlib.sha256).hexdigest()
    return {"signature": {"timestamp": timestamp, "token": token, "signature": signature}, "event-data": data}


def post_tracking(client, esp, payload, secret=WEBHOOK_SECRET):
    """POST one tracking event to /anymail/<esp>/tracking/ as the provider does."""
    return client.post(
        f"/anymail/{esp}/tracking/", json.dumps(payload), content_type="application/json", **auth_header(secret)
    )
