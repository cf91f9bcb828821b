"""Mail to an event's own address (``ladder+<slug>@REPLY_DOMAIN``), and replies to the event's emails
(which take replies there): the event's app reads the words and acts.

An app above mail registers its kind of address in its AppConfig.ready()
(`answer_address("ladder", handler, compose)`, see ladders.replies); mail finds the
address among the recipients, checks the sender as it does for a move reply
(an active account at the From address, and the provider's SPF/DKIM/DMARC
verdicts, mail.authentication), then calls `handler(row, slug, user, texts,
subject)` -> (InboundEmail status, outcome), with the sender's own words as
mail.parsing reads them. A stranger's mail is dropped unanswered (no
backscatter); one that fails the checks or is spam is refused, unanswered too. The app's answer
is owed in the outbox (mail.answers), and its `compose` renders it when it is sent.
"""

import logging
import re
from collections.abc import Callable

from django.conf import settings

from accounts.models import User

from . import answers, messages, parsing
from .models import InboundEmail, OutboundEmail

log = logging.getLogger(__name__)

_EVENT_LOCAL = re.compile(r"^([a-z]+)\+([a-z0-9][a-z0-9_-]*)$", re.IGNORECASE)

# Kinds of event address by their prefix ("ladder"): handler(row, slug, user, texts, subject),
# and compose(details) -> (template, context, reply_to) of an answer, or why it is not sent.
EVENT_ADDRESSES: dict[str, Callable] = {}
ANSWER_COMPOSERS: dict[str, Callable] = {}


def read_words(texts, subject, words):
    """(word, the rest, the line as written) of the first line that is one of `words` (a dict of
    spellings to words), in the body or else the subject; (None, "", first line) when none is."""
    lines = [line for text in texts for line in text.replace("\r\n", "\n").split("\n") if line.strip()]
    topic = subject.strip()
    while topic.lower().startswith(("re:", "fwd:", "fw:")):
        topic = topic.partition(":")[2].strip()
    for line in lines[: parsing.MAX_LINES] + [topic]:
        tokens = line.strip().strip(parsing.notation.TRIM).split(None, 1)
        word = words.get(tokens[0].lower().strip(parsing.notation.TRIM)) if tokens else None
        if word:
            return word, (tokens[1] if len(tokens) > 1 else "").strip().strip(".!"), line.strip()[:200]
    return None, "", (lines[0].strip()[:200] if lines else topic[:200])


def answer_address(kind, handler, compose):
    EVENT_ADDRESSES[kind] = handler
    ANSWER_COMPOSERS[kind] = compose


def event_address(kind, slug):
    """The address of one event: anyone with an account writes to it from their own address."""
    return f"{kind}+{slug}@{settings.REPLY_DOMAIN}"


def read_event_address(address):
    """(kind, slug) for the address of an event of a registered kind, or None."""
    if not address or "@" not in address:
        return None
    local, _, domain = address.strip().strip("<>").rpartition("@")
    match = _EVENT_LOCAL.match(local) if domain.lower() == settings.REPLY_DOMAIN.lower() else None
    if match is None or match.group(1).lower() not in EVENT_ADDRESSES:
        return None
    return match.group(1).lower(), match.group(2).lower()


def event_of(addresses):
    for address in addresses:
        found = read_event_address(address)
        if found:
            return found
    return None


def act(row, found, sender, texts, subject):
    """Read and act on mail to an event's address: (InboundEmail status, outcome)."""
    kind, slug = found
    user = User.objects.filter(email__iexact=sender, is_active=True).first() if sender else None
    if user is None:
        log.warning("Inbound %s to %s+%s dropped: %s has no account.", row.message_id, kind, slug, sender)
        return InboundEmail.Status.DROPPED, f"sender {sender} has no account"
    if row.auth_failure or row.spam_detected:
        # Forged or spam: nothing done and nothing answered (an answer would go to the forged address).
        why = row.auth_failure or "the provider flagged it as spam"
        log.warning("Inbound %s to %s+%s refused unanswered: %s.", row.message_id, kind, slug, why)
        return InboundEmail.Status.REFUSED, why
    return EVENT_ADDRESSES[kind](row, slug, user, texts, subject)


def answer(user, address_kind, kind, details):
    """Owe the answer to mail to an event's address, at most once per address and `kind` in the
    answer window: its app's composer (`answer_address`) renders it from `details` (ids and
    words) when it is sent."""
    context = {"address": address_kind, **details}
    answers.owe(OutboundEmail.Kind.EVENT_ANSWER, user, f"event:{kind}"[:32], context=context)


def compose_answer(row):
    """An answer to mail to an event's address (OutboundEmail.Kind.EVENT_ANSWER), by its app."""
    made = ANSWER_COMPOSERS[row.context["address"]](row.context)
    if isinstance(made, str):  # why it is not sent
        return made
    template, context, reply_to = made
    return messages.build(template, context, to=row.user.email, user=row.user, reply_to=reply_to)
