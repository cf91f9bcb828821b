"""Who is on a ladder and where: joining, adding by email, removing, reordering, vacations, and
the idle rule."""

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from accounts import services as accounts
from accounts.models import User
from events.entrants import parse_emails

from .challenges import cancel_open_challenges
from .models import Entrant, Ladder
from .selectors import open_commitments
from .services import LadderError, lock, notify_moves, record


def join(ladder, user, *, actor=None, now=None):
    """Put `user` at the bottom of the ladder (players themselves only while it is open)."""
    now = now or timezone.now()
    with transaction.atomic():
        ladder = lock(ladder)
        if actor is None and not ladder.is_open:
            raise LadderError("This ladder is closed to new entrants; ask an organiser.")
        entrant = Entrant.objects.filter(ladder=ladder, player=user).first()
        if entrant is not None and entrant.active:
            raise LadderError(f"{user} is already on this ladder.")
        if entrant is None:
            entrant = Entrant.objects.create(ladder=ladder, player=user, joined_at=now, last_active_at=now)
        else:
            entrant.active, entrant.joined_at, entrant.last_active_at = True, now, now
            entrant.save(update_fields=["active", "joined_at", "last_active_at"])
        who = f"{actor} added {user}" if actor and actor != user else f"{user} joined"
        record(
            ladder,
            "join",
            f"{who} at the bottom",
            actor=actor or user,
            op={"op": "append", "entrant": entrant.pk},
            now=now,
        )
    entrant.refresh_from_db()
    return entrant


def add_entrants(ladder, text, *, actor):
    """Add every address in `text` at the bottom, in order; unknown ones get an invitation.

    Returns (added entrants, invited addresses, skipped "already on" names).
    """
    emails = parse_emails(text)
    added, invited, skipped = [], [], []
    with transaction.atomic():
        for email in emails:
            user = User.objects.filter(email__iexact=email).first()
            if user is None:
                user = accounts.invite(email, actor, ladder.get_absolute_url(), invited_to=f"the {ladder.name} ladder")
                invited.append(email)
            if Entrant.objects.filter(ladder=ladder, player=user, active=True).exists():
                skipped.append(str(user))
                continue
            added.append(join(ladder, user, actor=actor))
    return added, invited, skipped


def remove_entrant(entrant, *, actor, reason=""):
    """Take `entrant` off the ladder; those below move up one; open challenges are cancelled."""
    with transaction.atomic():
        ladder = lock(entrant.ladder)
        entrant = Entrant.objects.select_for_update().get(pk=entrant.pk)
        if not entrant.active:
            raise LadderError(f"{entrant} is not on this ladder.")
        cancel_open_challenges(entrant)
        entrant.active = False
        entrant.save(update_fields=["active"])
        text = f"{actor} removed {entrant}" if actor else f"{entrant} was removed"
        entry, moved = record(
            ladder,
            "remove",
            text + (f": {reason}" if reason else ""),
            actor=actor,
            op={"op": "remove", "entrant": entrant.pk},
        )
    return entry


def reorder(ladder, entrant_ids, *, actor):
    """Set the order of the whole ladder: `entrant_ids` top first, each active entrant once."""
    with transaction.atomic():
        ladder = lock(ladder)
        active = set(ladder.entrants.filter(active=True).values_list("pk", flat=True))
        ids = [int(i) for i in entrant_ids]
        if len(ids) != len(set(ids)) or set(ids) != active:
            raise LadderError("The new order must list every entrant on the ladder exactly once.")
        entry, moved = record(
            ladder, "reorder", f"{actor} reordered the ladder", actor=actor, op={"op": "order", "order": ids}
        )
        notify_moves(ladder, moved, "An organiser reordered the ladder.", entry)
    return entry


def set_away(entrant, until, *, actor, today=None):
    """Vacation until the date `until` (None ends it): nobody can challenge an entrant away."""
    today = today or timezone.localdate()
    ladder = entrant.ladder
    with transaction.atomic():
        ladder = lock(ladder)
        entrant = Entrant.objects.select_for_update().get(pk=entrant.pk)
        if until is None:
            entrant.away_until = None
            entrant.save(update_fields=["away_until"])
            record(ladder, "vacation", f"{entrant} is back", actor=actor)
            return entrant
        if not ladder.vacation_allowed:
            raise LadderError("This ladder does not allow vacations.")
        days = (until - today).days
        if days < 1:
            raise LadderError("A vacation ends after today.")
        if entrant.away_days_used + days > ladder.vacation_days_cap:
            left = ladder.vacation_days_cap - entrant.away_days_used
            raise LadderError(f"That is {days} days; {left} vacation days are left this season.")
        entrant.away_until = until
        entrant.away_days_used += days
        entrant.save(update_fields=["away_until", "away_days_used"])
        record(ladder, "vacation", f"{entrant} is away until {until:%d %b %Y}", actor=actor)
    return entrant


def apply_idle_rule(ladder, *, now=None, actor=None):
    """Drop or remove entrants idle for `idle_days` (not on vacation, nothing under way)."""
    now = now or timezone.now()
    if ladder.idle_rule == Ladder.IdleRule.NONE:
        return []
    cutoff = now - timedelta(days=ladder.idle_days)
    affected = []
    with transaction.atomic():
        ladder = lock(ladder)
        idle = ladder.entrants.filter(active=True, last_active_at__lt=cutoff).order_by("position")
        for entrant in idle:
            if entrant.away_until and entrant.away_until >= timezone.localdate(now):
                continue
            if open_commitments(entrant):
                continue
            if ladder.idle_rule == Ladder.IdleRule.REMOVE:
                entrant.active = False
                entrant.save(update_fields=["active"])
                record(
                    ladder,
                    "idle",
                    f"{entrant} removed: idle for {ladder.idle_days} days",
                    actor=actor,
                    op={"op": "remove", "entrant": entrant.pk},
                    now=now,
                )
            else:
                Entrant.objects.filter(pk=entrant.pk).update(last_active_at=now)
                record(
                    ladder,
                    "idle",
                    f"{entrant} dropped {ladder.idle_drop_places} places: idle for {ladder.idle_days} days",
                    actor=actor,
                    now=now,
                    op={"op": "drop", "entrant": entrant.pk, "places": ladder.idle_drop_places},
                )
            affected.append(entrant)
    return affected
