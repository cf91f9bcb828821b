"""A ladder by email: mail to ``ladder+<slug>@REPLY_DOMAIN``, or a reply to any ladder email (they
take replies there), read for its words: "standings", "challenge NAME", "accept", "decline",
"withdraw", "help"; and "standings" in reply to a ladder game's email. "decline" (a forfeit) and
"withdraw" are done only when confirmed by the code the answer sends ("confirm CODE", events.replies). Registered with mail in
LaddersConfig.ready(); mail has checked the sender (mail.event_replies). The ladder's services decide, as on the site; every message is answered
with what was done, or what is wrong and what can be sent.
"""

from functools import partial

from events.replies import answer_common, answer_context, ask_to_confirm, confirmation_code, confirms, owe_answer
from mail import event_replies
from mail.game_replies import answer_word
from mail.models import InboundEmail
from mail.service_replies import answer_service_word

from . import challenges, membership, notices, selectors, services
from .models import Challenge, Entrant, Ladder

WORDS = {
    "standings": "standings",
    "standing": "standings",
    "table": "standings",
    "challenge": "challenge",
    "accept": "accept",
    "decline": "decline",
    "withdraw": "withdraw",
    "confirm": "confirm",
    "join": "join",
    "enter": "join",
    "help": "help",
    "?": "help",
}
HELP = """What you can write to this ladder, one word on the first line (a reply to any ladder email works too):

  standings        the ladder's table, top first
  challenge NAME   challenge the player of that name (up to the ladder's range above you)
  accept           accept the challenge you were sent (or "accept NAME" when you have several)
  decline          decline it: it counts as a forfeit, so the challenger takes your place
  withdraw         withdraw the challenge you made (or "withdraw NAME")
  confirm CODE     do the decline or withdrawal you asked for: the code is emailed to you
  join             join the ladder at the bottom, while it is open (or "enter")
  help             this help"""


def read_words(texts, subject):
    return event_replies.read_words(texts, subject, WORDS)


def ladder_reply(row, slug, user, texts, subject):
    """mail.event_replies' handler for ladder addresses: (InboundEmail status, outcome)."""
    ladder = Ladder.objects.filter(slug=slug).first()
    word, rest, line = read_words(texts, subject)
    answered = answer_common(ladder, slug, user, word, line, noun="ladder", answer=_answer)
    if answered is not None:
        return answered
    if word == "join":
        applied, said = join(ladder, user)
        _answer(user, ladder, word, line, said, help=not applied)
        return (InboundEmail.Status.APPLIED if applied else InboundEmail.Status.ANSWERED), f"join: {said[0]}"
    me = Entrant.objects.filter(ladder=ladder, player=user, active=True).select_related("player").first()
    try:
        if me is None:
            raise services.LadderError(f"You are not on {ladder}: join it on its page first.")
        said = ACTIONS[word](ladder, me, user, rest)
    except services.LadderError as exc:
        _answer(user, ladder, word, line, [f"{exc.message} Nothing was done."], help=True)
        return InboundEmail.Status.ANSWERED, f"{word} refused: {exc.message}"
    if isinstance(said, list):  # a confirmation asked for: nothing done yet
        _answer(user, ladder, word, line, said)
        return InboundEmail.Status.ANSWERED, f"{word}: confirmation asked"
    _answer(user, ladder, word, line, [said])
    return InboundEmail.Status.APPLIED, f"{word}: {said}"


def join(ladder, user):
    """Join `ladder` by email, by the ladder's own rules (membership.join): (joined, [words])."""
    try:
        entrant = membership.join(ladder, user)
    except services.LadderError as exc:
        return False, [f"{exc.message} Nothing was done."]
    return True, [
        f'You are on {ladder}, at position {entrant.position}. Write "challenge NAME" to '
        f"{notices.ladder_address(ladder)} to challenge a player above you."
    ]


def join_by_name(user, rest, line):
    """ "enter NAME" to the service's address (mail.service_replies): the ladder of that name or
    slug joined; None when no ladder is called so (an event may be)."""
    said = " ".join(rest.split()).strip(".!")
    ladder = Ladder.objects.filter(slug=said.lower()).first() or Ladder.objects.filter(name__iexact=said).first()
    return None if ladder is None or not said else join(ladder, user)


# --- The actions: each returns what was done, in words, or raises LadderError -----------------


def _challenge(ladder, me, user, name):
    if not name:
        raise services.LadderError(f'Write the name of the player to challenge ("challenge NAME"). {_may(me)}')
    others = ladder.entrants.filter(active=True).exclude(pk=me.pk).select_related("player")
    defender = _one_named(list(others), name, lambda e: e.player, f"Nobody called {name} is on {ladder}. {_may(me)}")
    challenges.challenge(me, defender, actor=user)
    item = Challenge.objects.filter(challenger=me, defender=defender, status=Challenge.Status.OPEN).first()
    until = f" They have until {item.respond_by:%d %b %Y %H:%M} UTC to accept." if item else ""
    return f"You challenged {defender} (position {defender.position}) on {ladder}.{until}"


def _accept(ladder, me, user, name):
    item = _open_challenge(me, name, mine="defender", word="accept")
    challenges.accept(item, actor=user)
    return f"You accepted {item.challenger}'s challenge: the first game has started, and its first email is on its way."


def _decline(ladder, me, user, name):
    item = _open_challenge(me, name, mine="defender", word="decline")
    code = confirmation_code(user, "decline", f"challenge:{item.pk}")
    what = f"Declining {item.challenger}'s challenge counts as a forfeit: {item.challenger} would take your place."
    return ask_to_confirm(what, code, notices.ladder_address(ladder))


def _withdraw(ladder, me, user, name):
    item = _open_challenge(me, name, mine="challenger", word="withdraw")
    code = confirmation_code(user, "withdraw", f"challenge:{item.pk}")
    return ask_to_confirm(
        f"You asked to withdraw your challenge to {item.defender}.", code, notices.ladder_address(ladder)
    )


def _confirm(ladder, me, user, code):
    """Do the decline or withdrawal the entrant's code confirms (asked by email, the code sent to them)."""
    mine = Challenge.objects.filter(status=Challenge.Status.OPEN).select_related(
        "challenger__player", "defender__player"
    )
    for action, field in (("decline", "defender"), ("withdraw", "challenger")):
        for item in mine.filter(**{field: me}):
            if confirms(code, user, action, f"challenge:{item.pk}"):
                if action == "decline":
                    challenges.decline(item, actor=user)
                    return (
                        f"You declined {item.challenger}'s challenge: it counts as a forfeit, "
                        f"so {item.challenger} takes your place."
                    )
                challenges.withdraw(item, actor=user)
                return f"You withdrew your challenge to {item.defender}."
    raise services.LadderError(
        "That code confirms nothing now: it is mistyped, more than a day old, or what it confirmed is done already."
    )


ACTIONS = {"challenge": _challenge, "accept": _accept, "decline": _decline, "withdraw": _withdraw, "confirm": _confirm}


def _open_challenge(me, name, *, mine, word):
    """The one open challenge `me` received (mine="defender") or made, named by the other player
    when there are several."""
    other = "challenger" if mine == "defender" else "defender"
    items = list(
        Challenge.objects.filter(**{mine: me}, status=Challenge.Status.OPEN)
        .select_related("challenger__player", "defender__player")
        .order_by("created_at")
    )
    if not items:
        made = "sent to you" if mine == "defender" else "that you made"
        raise services.LadderError(f"You have no open challenge {made} on {me.ladder}.")
    if not name:
        if len(items) > 1:
            names = _names([getattr(i, other) for i in items], "and")
            raise services.LadderError(f'You have open challenges with {names}: add the name ("{word} NAME").')
        return items[0]
    return _one_named(items, name, lambda i: getattr(i, other).player, f"None of your open challenges is with {name}.")


def _one_named(choices, name, player_of, unknown):
    """The one of `choices` whose player is called `name` (their whole name or email, any case;
    else the only one whose name starts so)."""
    wanted = " ".join(name.lower().split())
    exact = [c for c in choices if wanted in (" ".join(str(player_of(c)).lower().split()), player_of(c).email.lower())]
    found = exact or [c for c in choices if str(player_of(c)).lower().startswith(wanted)]
    if not found:
        raise services.LadderError(unknown)
    if len(found) > 1:
        raise services.LadderError(f"{name} could be {_names([player_of(c) for c in found])}: write the whole name.")
    return found[0]


def _may(me):
    eligible = challenges.eligible_defenders(me)
    if not eligible:
        return "Nobody is open to a challenge from you now."
    return f"You may challenge {_names(eligible)}."


def _names(people, conj="or"):
    names = [str(p) for p in people]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" {conj} " + names[-1]


_answer = partial(owe_answer, "ladder")


def compose_answer(details):
    """The answer to mail to a ladder's address: (template, context, reply-to), or why not sent."""
    ladder = Ladder.objects.filter(pk=details["event"]).first() if details["event"] is not None else None
    if ladder is None and details["event"] is not None:
        return "the ladder is gone"
    rows = selectors.standings(ladder) if details["standings"] and ladder is not None else None
    address = notices.ladder_address(ladder) if ladder is not None else None
    context = {
        **answer_context(ladder, details["words"], details["said"], HELP if details["help"] else "", rows),
        "ladder": ladder,
        "address": address,
    }
    return "ladders/email/ladder_answer", context, address


def standings_word(game, number, player, command, answer):
    """ "standings" in reply to a ladder game's email: the ladder's table (mail.game_replies' reply word)."""
    ladder = Ladder.objects.filter(matches__games__game=game).first()
    if ladder is None:
        answer(
            game,
            number,
            player,
            "standings",
            words=command.words,
            include_state=False,
            problem="This game is not part of a ladder, so it has no standings.",
        )
        return InboundEmail.Status.ANSWERED, "standings: not a ladder game"
    _answer(player, ladder, "standings", command.words, [], standings=True)
    return InboundEmail.Status.ANSWERED, "standings"


event_replies.answer_address("ladder", ladder_reply, compose_answer)
answer_word("standings", standings_word)
answer_service_word("enter", join_by_name, spellings=("join",))
