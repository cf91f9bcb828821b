"""What an incoming message is, read from its headers: automatic mail we never answer, who sent
it, which of our addresses it went to (a seat's signed reply address), and its text (the HTML's
without its quoted part when it has no plain text)."""

import re
from email.utils import getaddresses, parseaddr

from django.conf import settings

from . import links, reply_html, services

# An automatic reply's subject, in the common clients' languages. The phrases are read only as a
# marker, never as words anywhere: at the start before a colon ("Abwesend: Re: Your move"), in
# brackets anywhere ("Re: Your move [Out of Office]", "(Out of office until Monday)"), or an
# unmistakable phrase at the end after a dash ("Re: Your move - Automatic reply"). A player's
# "Re: back from absence" or "on vacation next week, crib 5H JD" is read like any reply.
_AUTO_PHRASE = (
    r"(auto(matic|matisch|matische|matiska?|matyczna|maattinen)?[ -]?(reply|response|antwort|antwoord|"
    r"svar|odpowied[źz]|vastaus)|autosvar|autoreply|out of (the )?office|away from (the )?office|"
    r"r[ée]ponse automatique|absence du bureau|absence|abwesend|abwesenheit|fuera de la oficina|"
    r"respuesta autom[áa]tica|risposta automatica|fuori sede|resposta autom[áa]tica|"
    r"fora do escrit[óo]rio|afwezig|poza biurem|automaattinen vastaus|poissa toimistolta|fraværende|"
    r"ikke på kontoret|frånvarande|inte på kontoret|автоответ|автоматический ответ|вне офиса|"
    r"on vacation|vacation reply|自动回复|自動回覆|自動応答|自動返信|不在)"
)
_OUT_OF_OFFICE = re.compile(
    rf"^\s*(auto:|{_AUTO_PHRASE}\s*[:：])|"  # a prefix: "Automatic reply: ...", "Absence : ..."
    rf"[\[(（【]\s*{_AUTO_PHRASE}(?!\w)[^\])）】]*[\])）】]|"  # a bracketed marker anywhere
    r"\s[-–—|]\s*(automatic reply|auto[ -]?reply|out of (the )?office)(?!\w)[^:]*$|"  # "... - Out of office"
    r"自动回复|自動回覆|自動応答|自動返信",  # nobody writes these but a machine
    re.IGNORECASE,
)
_ROBOT_SENDERS = re.compile(r"^(mailer-daemon|postmaster|no-?reply|do-?not-?reply|bounces?)(\+.*)?$", re.IGNORECASE)
RECIPIENT_HEADERS = (
    "Delivered-To",
    "X-Original-To",
    "X-Gm-Original-To",
    "Envelope-To",
    "X-Forwarded-To",
    "To",
    "Cc",
    "Resent-To",
)


def automatic_reason(message, row):
    """Why this message is automatic mail we must never answer, or ""."""
    auto = (message.get("Auto-Submitted") or "").strip().lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    precedence = (message.get("Precedence") or "").strip().lower()
    if precedence in ("bulk", "junk", "list", "auto_reply"):
        return f"Precedence: {precedence}"
    for name in ("X-Autoreply", "X-Autorespond", "X-Autoresponder"):
        if message.get(name):
            return name
    if (message.get("X-Auto-Response-Suppress") or "").lower() in ("oof",):
        return "X-Auto-Response-Suppress: OOF"
    if _OUT_OF_OFFICE.search(str(message.get("Subject") or "")):
        return "out-of-office subject"
    if row.envelope_sender == "<>":
        return "bounce (empty return path)"
    if message.get_content_type() == "multipart/report":
        return "bounce (delivery report)"
    sender = sender_of(message)
    if _ROBOT_SENDERS.match(sender.partition("@")[0]):
        return f"robot sender {sender}"
    if sender in services.own_addresses() or sender.endswith("@" + settings.REPLY_DOMAIN.lower()):
        return "our own mail"
    return ""


def sender_of(message):
    return parseaddr(str(message.get("From") or ""))[1].strip().lower()


def recipients(message, row):
    """Every address the message went to: the envelope's first, then the headers'."""
    candidates = [row.envelope_recipient] if row.envelope_recipient else []
    for name in RECIPIENT_HEADERS:
        candidates += [addr for _, addr in getaddresses(message.get_all(name) or [])]
    return candidates


def delivered_to(message):
    """The address `message` reached us at: the envelope's recipient, else the first the headers
    name (lower case), for telling one delivery from another of the same Message-ID."""
    envelope = getattr(message, "envelope_recipient", None)
    if envelope:
        return parseaddr(str(envelope))[1].strip().lower() or str(envelope).strip().lower()
    for name in RECIPIENT_HEADERS:
        for _, address in getaddresses(message.get_all(name) or []):
            if address:
                return address.strip().lower()
    return ""


def recipient_seat(message, row):
    """(game id, seat) from the first of our reply addresses the message was sent to, or None."""
    for address in recipients(message, row):
        found = links.read_reply_address(address)
        if found:
            return found
    return None


def body_text(message):
    """The plain text, or the HTML's text with its quoted part marked "> " (mail.reply_html)."""
    if message.text and message.text.strip():
        return message.text
    return reply_html.text(message.html or "")
