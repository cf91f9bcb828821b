"""The words every event's own address answers alike (mail.event_replies hands each app its mail):
an address of no event, words nobody can read, "help" and "standings". The app's own words
(a ladder's challenges, an event's withdrawal) come after.

What costs the entrant something (a ladder's "decline", which is a forfeit, and "withdraw"; an
event's "withdraw") is done by email only after a round trip: the answer to the word goes to the
entrant's own address with a code ("confirm 3f9a0c71d2e4"), and only a reply carrying it does the
thing, once. So mail that merely claims an entrant's address on the event's public address, which
anyone may write to, costs them nothing."""

import hmac
from datetime import timedelta

from django.utils import timezone
from django.utils.crypto import salted_hmac

from mail import event_replies, links
from mail.models import InboundEmail


def answer_common(event, slug, user, word, line, *, noun, answer):
    """(InboundEmail status, outcome) when `word` is one every event answers alike, else None.

    `answer(user, event, kind, line, said, help=, standings=)` owes the app's answer email
    (`owe_answer`)."""
    if event is None:
        answer(user, None, "unknown", line, [f"There is no {noun} at this address ({slug}): nothing was done."])
        return InboundEmail.Status.ANSWERED, f"no {noun} {slug!r}"
    if word is None:
        said = "We could not read what you want" + (f' ("{line}")' if line else "") + ": nothing was done."
        answer(user, event, "unreadable", line, [said], help=True)
        return InboundEmail.Status.ANSWERED, f"unreadable: {line!r}"
    if word == "help":
        answer(user, event, "help", line, [], help=True)
        return InboundEmail.Status.ANSWERED, "help"
    if word == "standings":
        answer(user, event, "standings", line, [], standings=True)
        return InboundEmail.Status.ANSWERED, "standings"
    return None


def owe_answer(address, user, event, kind, line, said, *, help=False, standings=False):
    """Owe the answer to mail to an event's address of kind `address` ("ladder", "event"), at most
    once per address and `kind` in the answer window. Its details are ids and words: the app's
    compose_answer (mail.event_replies.answer_address) renders it when it is sent, the table
    (`standings`: asked for) read then."""
    details = {
        "event": event.pk if event is not None else None,
        "words": line,
        "said": [str(s) for s in said],
        "help": help,
        "standings": standings,
    }
    event_replies.answer(user, address, f"{address}:{kind}", details)


def answer_context(event, line, said, help_text, rows):
    """What every event's answer email shows: the words read, what was done or is wrong, the help
    when asked for or needed, the table when asked for, the event's page."""
    return {
        "event": event,
        "words": line,
        "said": said,
        "help": help_text,
        "rows": rows,
        "url": links.absolute(event.get_absolute_url()) if event is not None else "",
        "when": timezone.now(),
    }


# --- Confirming what costs the entrant something ---------------------------------------------

CONFIRM_CODE_CHARS = 12


def confirmation_code(user, action, key, day=None):
    """The code that confirms `action` ("decline") on `key` (what it acts on: "challenge:7") for
    `user`: only their own mailbox is sent it. It stands on the day given and the next."""
    day = day or timezone.now().date()
    value = f"{user.pk}:{action}:{key}:{day.isoformat()}"
    return salted_hmac("events.replies.confirm", value).hexdigest()[:CONFIRM_CODE_CHARS]


def is_confirmation_code(text):
    """Is `text` shaped as a code of ours (and so not a name, as in a club night's "confirm NAME")?"""
    code = "".join((text or "").split()).lower()
    return len(code) == CONFIRM_CODE_CHARS and all(c in "0123456789abcdef" for c in code)


def confirms(code, user, action, key):
    """Does `code` (as the entrant wrote it) confirm `action` on `key` for `user`, today?"""
    code = "".join((code or "").split()).lower()
    today = timezone.now().date()
    return any(
        hmac.compare_digest(code, confirmation_code(user, action, key, day))
        for day in (today, today - timedelta(days=1))
    )


def ask_to_confirm(what, code, address):
    """The answer's words asking the entrant to confirm `what` (a sentence) by reply."""
    return [
        f"{what} Nothing was done yet.",
        f"To do it, reply to {address} with this first line (until tomorrow): confirm {code}",
        "If you did not ask for this, do nothing: somebody may have written in your name.",
    ]
