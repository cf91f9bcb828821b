"""An event by email: mail to ``event+<slug>@REPLY_DOMAIN`` read for its words, "standings",
"enter" and "withdraw" (an entry, before the event starts) and "help"; on a club night "report",
"confirm" and "dispute" (tournaments.night_replies); "enter NAME" and "withdraw
NAME" to the service's address too (mail.service_replies); registered with mail in
TournamentsConfig.ready(), as ladders register theirs (mail has checked the sender:
mail.event_replies). Every message is answered with what was done, or what is wrong and what
can be sent. "withdraw" is done only when confirmed by the code its answer sends to the entrant
("confirm CODE" to the event's address, events.replies).
"""

from functools import partial

from events.replies import (
    answer_common,
    answer_context,
    ask_to_confirm,
    confirmation_code,
    confirms,
    is_confirmation_code,
    owe_answer,
)
from mail import event_replies
from mail.models import InboundEmail
from mail.service_replies import answer_service_word

from . import entries, night_replies, selectors, services
from .models import Tournament

WORDS = {"standings": "standings", "standing": "standings", "table": "standings", "withdraw": "withdraw"}
WORDS.update({"enter": "enter", "join": "enter"})
WORDS.update({"help": "help", "?": "help"})
WORDS.update(night_replies.WORDS)
HELP = """What you can write to this event, one word on the first line:

  standings   the event's table, top first
  enter       enter the event, while it takes entries (before it starts)
  withdraw    take your entry back (before the event starts): we email you a code to confirm it
  confirm CODE  do the withdrawal you asked for
  help        this help"""


def address(event):
    return event_replies.event_address("event", event.slug)


def event_reply(row, slug, user, texts, subject):
    """mail.event_replies' handler for event addresses: (InboundEmail status, outcome)."""
    event = Tournament.objects.filter(slug=slug).first()
    word, rest, line = event_replies.read_words(texts, subject, WORDS)
    answered = answer_common(event, slug, user, word, line, noun="event", answer=_answer)
    if answered is not None:
        return answered
    if word == "confirm" and is_confirmation_code(rest):  # a withdrawal's code, not a club night's "confirm NAME"
        applied, said = confirm(event, user, rest)
    elif word in night_replies.WORDS:
        applied, said = night_replies.act(event, user, word, rest)
    else:
        applied, said = (enter if word == "enter" else withdraw)(event, user)
    _answer(user, event, word, line, said, help=applied is False)
    return (InboundEmail.Status.APPLIED if applied else InboundEmail.Status.ANSWERED), f"{word}: {said[0]}"


def enter(event, user):
    """Enter `event` by email, under its rules (entries.register, as the page): (entered, [words])."""
    try:
        entry = entries.register(event, user)
    except services.TournamentError as exc:
        return False, [f"{exc.message} Nothing was done."]
    waiting = " Your entry waits for the organiser's approval." if not entry.approved else ""
    return True, [
        f'You are entered in {event}.{waiting} Write "withdraw" to {address(event)} before it starts to take it back.'
    ]


def withdraw(event, user):
    """Ask `user` to confirm taking their entry in `event` back (their code is sent to them alone):
    (None: asked, [words]); (False, [why not]) when there is no entry to take back."""
    entry = event.entrants.filter(player=user).first()
    if entry is None:
        return False, [f"You are not entered in {event}. Nothing was done."]
    refusal = entries.withdrawal_refusal(event)
    if refusal:
        return False, [f"{refusal} Nothing was done."]
    code = confirmation_code(user, "withdraw", f"entry:{entry.pk}")
    return None, ask_to_confirm(f"You asked to withdraw your entry in {event}.", code, address(event))


def confirm(event, user, code):
    """Take the entry back if `code` is the one sent for it: (withdrawn, [words]); once only, the
    entry being gone after."""
    entry = event.entrants.filter(player=user).first()
    if entry is None or not confirms(code, user, "withdraw", f"entry:{entry.pk}"):
        return False, [
            "That code confirms nothing now: it is mistyped, more than a day old, or what it confirmed is done "
            "already. Nothing was done."
        ]
    try:
        entries.withdraw_player(event, user)
    except services.TournamentError as exc:
        return False, [f"{exc.message} Nothing was done."]
    return True, [f"Your entry in {event} is withdrawn."]


def _by_name(rest):
    said = " ".join(rest.split()).strip(".!")
    if not said:
        return None
    return Tournament.objects.filter(slug=said.lower()).first() or Tournament.objects.filter(name__iexact=said).first()


def enter_by_name(user, rest, line):
    """ "enter NAME" to the service's address: the event of that name or slug; None if none is."""
    event = _by_name(rest)
    return None if event is None else enter(event, user)


def withdraw_by_name(user, rest, line):
    """ "withdraw NAME" to the service's address: None if no event is called so."""
    event = _by_name(rest)
    return None if event is None else withdraw(event, user)


_answer = partial(owe_answer, "event")


def compose_answer(details):
    """The answer to mail to an event's address: (template, context, reply-to), or why not sent."""
    event = Tournament.objects.filter(pk=details["event"]).first() if details["event"] is not None else None
    if event is None and details["event"] is not None:
        return "the event is gone"
    club_night = event is not None and event.kind == Tournament.Kind.CLUB_NIGHT
    help_text = (HELP + (night_replies.HELP if club_night else "")) if details["help"] else ""
    rows = selectors.table(event) if details["standings"] and event is not None else None
    context = answer_context(event, details["words"], details["said"], help_text, rows)
    return "tournaments/email/event_answer", context, address(event) if event is not None else None


event_replies.answer_address("event", event_reply, compose_answer)
answer_service_word("enter", enter_by_name, spellings=("join",))
answer_service_word("withdraw", withdraw_by_name)
