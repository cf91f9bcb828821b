"""The words every event's own address answers alike (mail.event_replies hands each app its mail):
an address of no event, words nobody can read, "help" and "standings". The app's own words
(a ladder's challenges, an event's withdrawal) come after."""

from django.utils import timezone

from mail import links
from mail.models import InboundEmail


def answer_common(event, slug, user, word, line, *, noun, answer, standings):
    """(InboundEmail status, outcome) when `word` is one every event answers alike, else None.

    `answer(user, event, kind, line, said, help=, rows=)` writes the app's answer email;
    `standings(event)` gives its table's rows."""
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
        answer(user, event, "standings", line, [], rows=standings(event))
        return InboundEmail.Status.ANSWERED, "standings"
    return None


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
