"""An event by email: mail to ``event+<slug>@REPLY_DOMAIN`` read for its words, "standings",
"withdraw" (an entry, before the event starts) and "help"; registered with mail in
TournamentsConfig.ready(), as ladders register theirs (mail has checked the sender:
mail.event_replies). Every message is answered with what was done, or what is wrong and what
can be sent.
"""

from django.utils import timezone

from mail import event_replies, links
from mail.models import InboundEmail

from . import selectors, services
from .models import Entrant, Tournament

WORDS = {"standings": "standings", "standing": "standings", "table": "standings", "withdraw": "withdraw"}
WORDS.update({"help": "help", "?": "help"})
HELP = """What you can write to this event, one word on the first line:

  standings   the event's table, top first
  withdraw    take your entry back (before the event starts)
  help        this help"""


def address(event):
    return event_replies.event_address("event", event.slug)


def event_reply(row, slug, user, texts, subject):
    """mail.event_replies' handler for event addresses: (InboundEmail status, outcome)."""
    event = Tournament.objects.filter(slug=slug).first()
    word, _, line = event_replies.read_words(texts, subject, WORDS)
    if event is None:
        _answer(user, None, "unknown", line, [f"There is no event at this address ({slug}): nothing was done."])
        return InboundEmail.Status.ANSWERED, f"no event {slug!r}"
    if word is None:
        said = "We could not read what you want" + (f' ("{line}")' if line else "") + ": nothing was done."
        _answer(user, event, "unreadable", line, [said], help=True)
        return InboundEmail.Status.ANSWERED, f"unreadable: {line!r}"
    if word == "help":
        _answer(user, event, "help", line, [], help=True)
        return InboundEmail.Status.ANSWERED, "help"
    if word == "standings":
        _answer(user, event, "standings", line, [], rows=selectors.table(event))
        return InboundEmail.Status.ANSWERED, "standings"
    entry = Entrant.objects.filter(tournament=event, player=user).first()
    try:
        if entry is None:
            raise services.TournamentError(f"You are not entered in {event}.")
        services.withdraw_entrant(entry, actor=user)
    except services.TournamentError as exc:
        _answer(user, event, "withdraw", line, [f"{exc.message} Nothing was done."], help=True)
        return InboundEmail.Status.ANSWERED, f"withdraw refused: {exc.message}"
    _answer(user, event, "withdraw", line, [f"Your entry in {event} is withdrawn."])
    return InboundEmail.Status.APPLIED, "withdrawn"


def _answer(user, event, kind, line, said, *, help=False, rows=None):
    context = {
        "event": event,
        "words": line,
        "said": said,
        "help": HELP if help else "",
        "rows": rows,
        "url": links.absolute(event.get_absolute_url()) if event is not None else "",
        "when": timezone.now(),
    }
    reply_to = address(event) if event is not None else None
    event_replies.answer(user, f"event:{kind}", "tournaments/email/event_answer", context, reply_to=reply_to)


event_replies.answer_address("event", event_reply)
