"""Round trips around a game, by reply: "accept" or "decline" to a challenge's email, and
"rematch" to a game-over email (the others are challenged with the same settings, and
accept the same way or on the site).

A challenge's email takes replies at its own signed address (links.challenge_reply_address),
one per invited player; only that player's address may answer it, and the challenges
service decides, as on the site.
"""

import logging

from accounts.models import User
from games import challenges
from games.models import Challenge

from . import answers, links, messages, parsing
from .models import InboundEmail, OutboundEmail

log = logging.getLogger(__name__)

ANSWERS = {"accept": "accept", "yes": "accept", "ok": "accept", "decline": "decline", "no": "decline"}


def challenge_of(addresses):
    """(challenge id, user id) from the first of `addresses` that is a challenge reply address, or None."""
    for address in addresses:
        found = links.read_challenge_reply_address(address)
        if found:
            return found
    return None


def act(row, found, sender, texts):
    """Answer a challenge by reply: (inbound status, outcome)."""
    challenge_id, user_id = found
    challenge = Challenge.objects.select_related("challenger").filter(pk=challenge_id).first()
    user = User.objects.filter(pk=user_id).first()
    if challenge is None or user is None:
        return InboundEmail.Status.DROPPED, "no such challenge"
    if sender != user.email.lower():
        log.warning(
            "Inbound %s refused: from %s, not the player of challenge %s.", row.message_id, sender, challenge_id
        )
        return InboundEmail.Status.REFUSED, f"sender {sender} is not the invited player"
    if row.auth_failure or row.spam_detected:
        return InboundEmail.Status.REFUSED, row.auth_failure or "the provider flagged it as spam"
    words = parsing.first_words(texts)
    answer = ANSWERS.get(words.lower().strip(parsing.notation.TRIM).split(" ")[0] if words else "")
    if answer is None:
        _answer(
            challenge,
            user,
            words,
            'We could not read your answer: reply with the one word "accept" '
            'or "decline" on the first line, above the quoted email.',
        )
        return InboundEmail.Status.ANSWERED, f"unreadable: {words!r}"
    try:
        if answer == "accept":
            challenges.accept(challenge, user)
        else:
            challenges.decline(challenge, user)
    except challenges.ChallengeError as exc:
        _answer(challenge, user, words, str(exc))
        return InboundEmail.Status.ANSWERED, f"refused: {exc}"
    # Accepting starts the game: its first email (the discard) is the answer.
    return InboundEmail.Status.APPLIED, f"challenge {answer}ed"


def rematch(game, number, player):
    """Challenge the other players of finished `game` to a new game with the same settings;
    the words of the answer."""
    challenge = challenges.rematch(game, number, player)
    others = [p.player for p in challenge.places.select_related("player").order_by("seat")]
    names = " and ".join(p.display_name for p in others)
    return (
        f"{names} {'is' if len(others) == 1 else 'are'} challenged to a rematch with the same settings "
        f'(challenge {challenge.pk}): they accept by replying "accept" or on the site.'
    )


def _answer(challenge, user, words, problem):
    """Owe the answer, once per address in the answer window (compose_answer renders it)."""
    context = {"challenge": challenge.pk, "words": words, "problem": problem}
    answers.owe(OutboundEmail.Kind.CHALLENGE_ANSWER, user, "challenge", context=context)


def compose_answer(row):
    """An answer to a reply to a challenge's email (OutboundEmail.Kind.CHALLENGE_ANSWER)."""
    challenge = Challenge.objects.select_related("challenger").filter(pk=row.context["challenge"]).first()
    if challenge is None:
        return "the challenge is gone"
    user = row.user
    return messages.build(
        "mail/email/challenge_answer",
        {
            "challenge": challenge,
            "words": row.context["words"],
            "problem": row.context["problem"],
            "url": links.absolute(challenge.get_absolute_url()),
        },
        to=user.email,
        user=user,
        reply_to=links.challenge_reply_address(challenge.pk, user.pk),
    )
