"""The limits on challenges: who may be seated with whom, and how much one player may ask.

- No relay (each refused with why, nothing made): a player makes at most
  settings.CHALLENGES_PER_DAY challenges to named players a day (rematches included); two
  players have at most one open challenge between them; a finished game is offered one
  rematch; an address that is no member's takes a challenge only while its daily allowance of
  mail lasts (accounts.strangers).
- Blocks (accounts.blocks): no challenge, seek place or rematch seats a blocked player at a
  table with the one who blocked them; the blocked player is refused as for an unavailable one.

Each check answers with a `Refusal` (its message in the player's words, and a ChallengeError
code: "" or "stale" or "too_many"), or None; games.challenges raises it, nothing made.
"""

from typing import NamedTuple

from django.conf import settings
from django.utils import timezone

from accounts import blocks, strangers
from games.models import Challenge

# How a refused player is told when a block stands in the way: as for an unavailable player.
UNAVAILABLE = "{name} is not available for a game."


class Refusal(NamedTuple):
    message: str
    code: str = ""


def room_refusal(challenger, resolved, rematch_of=None):
    """The Refusal of a challenge by `challenger` to `resolved` ((user or None, email) a place)
    that would make the service a relay or seat a blocked player with their blocker, or None;
    inside the caller's transaction, the challenger's row locked."""
    users = [user for user, _ in resolved if user is not None]
    for blocker, blocked in blocks.blocks_among([challenger, *users]):
        if blocker == challenger.pk:
            name = next(u for u in users if u.pk == blocked)
            return Refusal(f"You have blocked {name}: unblock them on your profile to play them.")
        # The blocked player (the challenger, or another named) is not told why.
        return Refusal(UNAVAILABLE.format(name=next(u for u in users if u.pk in (blocker, blocked))))
    if rematch_of is not None and Challenge.objects.filter(rematch_of=rematch_of).exists():
        return Refusal("A rematch of this game has already been offered: a game has one.", code="stale")
    since = timezone.now() - strangers.DAY
    made = Challenge.objects.filter(challenger=challenger, is_seek=False, created_at__gt=since).count()
    if made >= settings.CHALLENGES_PER_DAY:
        return Refusal(
            f"You have made {made} challenges in the last 24 hours, the most there is in a day: "
            "wait a while, or make an open challenge anyone may take. Nothing was sent.",
            code="too_many",
        )
    for user in users:
        if _open_between(challenger, user):
            return Refusal(
                f"You and {user} already have an open challenge between you: answer it or cancel it "
                "on your games page. Nothing was sent.",
                code="stale",
            )
    for user, email in resolved:
        if not strangers.is_member(user) and strangers.allowance_left(email) < 1:
            return Refusal(
                f"{email} has had as many emails from players here as an address without an account "
                f"may have in a day ({strangers.per_day()}): try again tomorrow. Nothing was sent.",
                code="too_many",
            )
    return None


def _open_between(one, other):
    """Is there an open challenge (not a seek) between these two players, either way round?"""
    open_challenges = Challenge.objects.filter(status=Challenge.Status.OPEN, is_seek=False)
    return (
        open_challenges.filter(challenger=one, places__player=other).exists()
        or open_challenges.filter(challenger=other, places__player=one).exists()
    )


def rematch_refusal(game, number):
    """Why seat `number` of `game` cannot ask for a rematch now, or None when it can."""
    if not game.is_finished:
        return "This game is not over yet: ask for a rematch when it is."
    if game.practice:
        return "A practice game is against the computer: start another on the site."
    if any(s.player_id is None for s in game.seats.all() if s.number != number):
        return "The computer played in this game: start a practice game on the site."
    if Challenge.objects.filter(rematch_of=game).exists():
        return "A rematch of this game has already been offered: a game has one."
    return None


def blocked_refusal(challenge, user):
    """The Refusal of `user`'s place at `challenge`, or None: `user` may not sit at this table if
    anyone at it blocked them (nor beside one they blocked): refused as for an unavailable
    table, the blocked player not told why."""
    seated = [challenge.challenger] + [p.player for p in challenge.places.select_related("player") if p.player]
    for blocker, blocked in blocks.blocks_among([user, *seated]):
        if user.pk in (blocker, blocked):
            if blocker == user.pk:
                name = next(p for p in seated if p.pk == blocked)
                return Refusal(f"You have blocked {name}: unblock them on your profile to play them.")
            return Refusal("This challenge is not available.", code="stale")
    return None
