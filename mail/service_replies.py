"""Mail to the service's own address (settings.MAIL_SERVICE_ADDRESS, play@ the reply domain by
default): everything a player does by email that is not one game's move.

Mail reads "help", "games", "new game ..." and, from an address with no account, "sign up" (or
"new game": an account is made as on the site, unconfirmed, and the confirmation link sent).
Apps above mail add their words in their AppConfig.ready() with `answer_service_word(word,
handler)`: the clock's "vacation N" and "back", the events' "enter NAME" and "withdraw NAME".
`handler(user, rest, line)` -> (applied, [what was done or why not, in words]), or None when the
words are not its own (an event of another app), so that one word serves several apps.

The sender is checked as for an event's address (mail.event_replies): a stranger's mail is
dropped unanswered unless it signs up; one that fails the sender checks (mail.authentication) or
is spam is refused, unanswered too. Every message from a member is answered; a refusal changes nothing.
"""

import hashlib
import logging
import re
from collections.abc import Callable
from datetime import timedelta
from email.utils import parseaddr

from accounts import directory
from accounts import services as accounts
from accounts.models import User
from games import challenges, computer_games
from games.models import ComputerLevel

from . import answers, event_replies, links, messages, my_games
from .models import InboundEmail, OutboundEmail

log = logging.getLogger(__name__)

HELP = """What you can write to this address, on the first line (or the subject):

  new game NAME         challenge the member of that name (the usual settings)
  new game ann@x.org    challenge an address (a newcomer is invited)
  new game open         an open challenge: anyone may take it
  new game computer expert
                        a slow game against the computer by email (easy,
                        standard or expert), the coach on; add "delay 2h"
                        for it to answer 2 hours after each of your moves
                        (m, h or d; up to 7 days)
  games                 every game of yours: whose turn, the deadlines,
                        each game's reply address
  vacation 3            a vacation of 3 days: the clocks of all your games stop
  back                  end your vacation early (unused days come back)
  enter NAME            enter the event (or join the ladder) of that name
  withdraw NAME         take your entry in an event back, before it starts
  sign up               from a new address: an account, and a link to confirm it
  help                  this help

In reply to a game's email you play that game: reply "help" there."""

# Mail's own words, by their spellings; other apps add theirs (answer_service_word).
_SPELLINGS = {
    "help": "help",
    "?": "help",
    "games": "games",
    "new": "new",
    "signup": "signup",
    "sign": "sign",
    "register": "signup",
}
SERVICE_WORDS: dict[str, list[Callable]] = {}
_DELAY = re.compile(r"^(\d{1,4})\s*(m|mins?|minutes?|h|hrs?|hours?|d|days?)$", re.IGNORECASE)
_UNITS = {"m": "minutes", "h": "hours", "d": "days"}


def answer_service_word(word, handler, spellings=()):
    SERVICE_WORDS.setdefault(word, []).append(handler)
    for spelling in (word, *spellings):
        _SPELLINGS[spelling] = word


service_address = links.service_address


def is_service_address(addresses):
    own = service_address().lower()
    return any(parseaddr(a or "")[1].strip().lower() == own for a in addresses)


def act(row, sender, name, texts, subject):
    """Read and act on mail to the service's address: (InboundEmail status, outcome)."""
    word, rest, line = event_replies.read_words(texts, subject, _SPELLINGS)
    word, rest = _two_words(word, rest)
    user = User.objects.filter(email__iexact=sender, is_active=True).first() if sender else None
    if user is None:
        if word in ("signup", "new game") and sender and not (row.auth_failure or row.spam_detected):
            return _sign_up(sender, name)
        log.warning("Inbound %s to the service dropped: %s has no account.", row.message_id, sender)
        return InboundEmail.Status.DROPPED, f"sender {sender} has no account"
    if row.auth_failure or row.spam_detected:
        why = row.auth_failure or "the provider flagged it as spam"
        # Forged or spam: nothing done and nothing answered (an answer would go to the forged address).
        log.warning("Inbound %s to the service refused unanswered: %s.", row.message_id, why)
        return InboundEmail.Status.REFUSED, why
    if word is None:
        said = "We could not read what you want" + (f' ("{line}")' if line else "") + ": nothing was done."
        _answer(user, "unreadable", line, [said], help=True)
        return InboundEmail.Status.ANSWERED, f"unreadable: {line!r}"
    if word == "help":
        _answer(user, "help", line, [], help=True)
        return InboundEmail.Status.ANSWERED, "help"
    if word == "games":
        _answer(user, "games", line, my_games.games_lines(user))
        return InboundEmail.Status.ANSWERED, "games listed"
    if word == "signup":
        _answer(user, "signup", line, ["This address has an account already: write the words below."], help=True)
        return InboundEmail.Status.ANSWERED, "signup: has an account"
    if word == "new game":
        applied, said = new_game(user, rest)
    else:
        applied, said = _registered(word, user, rest, line)
    _answer(user, word, line, said, help=not applied)
    return (InboundEmail.Status.APPLIED if applied else InboundEmail.Status.ANSWERED), f"{word}: {' '.join(said)}"


def _two_words(word, rest):
    """ "new game ..." and "sign up" are two words: (word, the rest), or (None, rest) for "new" alone."""
    first, _, after = rest.partition(" ")
    if word == "new":
        return ("new game", after.strip()) if first.lower().strip(".,!:") == "game" else (None, rest)
    if word == "sign":
        return ("signup", after.strip()) if first.lower().strip(".,!:") == "up" else (None, rest)
    return word, rest


def _registered(word, user, rest, line):
    for handler in SERVICE_WORDS.get(word, ()):
        result = handler(user, rest, line)
        if result is not None:
            return result
    return False, [f'Nothing here is called "{rest}": nothing was done.' if rest else "Say which, by its name."]


def new_game(user, rest):
    """ "new game ..." from a member: (applied, [words]). The challenge service decides, as on the site."""
    words = rest.split()
    head = words[0].lower() if words else ""
    try:
        if not words:
            raise challenges.ChallengeError('Say whom to play: "new game NAME", an address, "open" or "computer".')
        if head == "computer":
            return True, [_computer_game(user, words[1:])]
        if head in ("open", "anyone", "anybody", "seek"):
            seek = challenges.create_seek(user)
            return True, [f"Your open challenge is on the board: {links.absolute(seek.get_absolute_url())}"]
        opponent = _opponent(user, rest.strip())
        challenge = challenges.create_challenge(user, [opponent])
    except challenges.ChallengeError as exc:
        return False, [f"{exc.message} Nothing was done."]
    who = opponent if isinstance(opponent, str) else str(opponent)
    return True, [
        f"Your challenge to {who} is sent ({challenges.settings_text(challenge)}). The game starts when "
        f"they accept: {links.absolute(challenge.get_absolute_url())}"
    ]


def _opponent(user, said):
    """A member by name, or an address (a newcomer is invited by the challenge service)."""
    address = said.strip("<>")
    if "@" in address:
        return address
    found = [m for m in directory.members_named(said, exclude=user) if m.is_active]
    if len(found) == 1:
        return found[0]
    if not found:
        raise challenges.ChallengeError(f'Nobody here plays as "{said}": write their name, or their address.')
    names = ", ".join(f"{m} ({directory.masked_email(m.email)})" for m in found[:5])
    raise challenges.ChallengeError(f'Several players are called "{said}": {names}. Write the address instead.')


def _computer_game(user, words):
    """ "new game computer [easy|standard|expert] [delay 2h]": the game's start, in words."""
    level, delay = ComputerLevel.STANDARD, timedelta(0)
    rest = [w.lower().strip(".,!") for w in words]
    if rest and rest[0] in ComputerLevel.values:
        level, rest = rest[0], rest[1:]
    if rest and rest[0] == "delay":
        delay = read_delay(" ".join(rest[1:]))
    elif rest:
        raise challenges.ChallengeError(
            f'"{" ".join(words)}" is not a level (easy, standard, expert) nor a delay ("delay 2h").'
        )
    game = computer_games.start_computer_game(user, level, delay=delay)
    when = f"{_delay_words(delay)} after each of your moves" if delay else "at once"
    return (
        f"Game {game.pk} against the computer ({ComputerLevel(level).label.lower()}) has started: the computer "
        f"answers {when}, the coach is on. Your turn emails come as in any game: reply to them to play."
    )


def read_delay(text):
    """ "2h", "30 minutes", "1d" as a timedelta; ChallengeError if it is none."""
    match = _DELAY.match(text.strip())
    if match is None:
        raise challenges.ChallengeError(f'"{text}" is not a delay: say e.g. "delay 30m", "delay 2h" or "delay 1d".')
    return timedelta(**{_UNITS[match.group(2)[0].lower()]: int(match.group(1))})


def _delay_words(delay):
    seconds = int(delay.total_seconds())
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds % size == 0:
            n = seconds // size
            return f"{n} {unit}{'s' if n != 1 else ''}"
    return f"{seconds} seconds"


def _sign_up(sender, name):
    """A new address wrote: an account as the site's sign-up makes it (unconfirmed), and the
    confirmation link sent; the player then writes again. An address with an account is told how to log in."""
    display = (name or sender.partition("@")[0]).strip()[:60] or sender.partition("@")[0][:60]
    try:
        user = accounts.sign_up(email=sender, display_name=display, password=None)
    except Exception:
        log.exception("Sign-up by email for %s failed.", sender)
        return InboundEmail.Status.ANSWERED, "signup failed"
    return InboundEmail.Status.APPLIED, f"signed up user {user.pk}" if user else "signup: told how to log in"


def _answer(user, kind, line, said, *, help=False):
    """Owe the answer, once per address, kind and words in the answer window (compose_answer renders it)."""
    words = " ".join((line or "").lower().split())
    limit = f"svc:{kind[:10]}:{hashlib.sha256(words.encode()).hexdigest()[:8]}"
    context = {"topic": _TOPICS.get(kind, kind), "words": line, "said": [str(s) for s in said], "help": help}
    answers.owe(OutboundEmail.Kind.SERVICE_ANSWER, user, limit, context=context)


def compose_answer(row):
    """An answer to mail to the service's address (OutboundEmail.Kind.SERVICE_ANSWER)."""
    context = {**row.context, "help": HELP if row.context["help"] else ""}
    return messages.build(
        "mail/email/service_answer", context, to=row.user.email, user=row.user, reply_to=service_address()
    )


_TOPICS = {
    "help": "what you can write",
    "games": "your games",
    "new game": "your new game",
    "unreadable": "your message",
    "refused": "your message was refused",
    "signup": "your account",
}
