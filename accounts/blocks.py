"""The block list: a player blocks another from their player page and unblocks from their profile.

A blocked player cannot challenge the blocker, take a place in the blocker's open challenge or sit
at a table with them (games.challenges), and the blocker no longer sees their table talk
(games.talk). The blocked player is never told: a refusal reads as for an unavailable player.
"""

from django.db.models import Q

from .models import Block, User


class BlockError(Exception):
    def __init__(self, message):
        super().__init__(message)
        self.message = message


def block(user, other):
    """`user` blocks `other` (once is enough)."""
    if other.pk == user.pk:
        raise BlockError("You cannot block yourself.")
    Block.objects.get_or_create(blocker=user, blocked=other)


def unblock(user, other):
    Block.objects.filter(blocker=user, blocked=other).delete()


def blocked_by(user):
    """The ids of the players `user` has blocked."""
    if not getattr(user, "is_authenticated", False):
        return set()
    return set(Block.objects.filter(blocker=user).values_list("blocked_id", flat=True))


def has_blocked(user, other):
    return bool(getattr(user, "pk", None)) and Block.objects.filter(blocker=user, blocked=other).exists()


def blocked_list(user):
    """The players `user` has blocked, newest first (their profile's list, to unblock)."""
    return User.objects.filter(pk__in=Block.objects.filter(blocker=user).values("blocked_id"))


def blocks_among(users):
    """The (blocker id, blocked id) pairs between any two of `users`."""
    ids = [u.pk for u in users if u is not None and u.pk]
    if len(ids) < 2:
        return []
    return list(
        Block.objects.filter(Q(blocker_id__in=ids) & Q(blocked_id__in=ids)).values_list("blocker_id", "blocked_id")
    )
