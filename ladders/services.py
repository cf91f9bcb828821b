"""What every ladder operation shares: its error, the ladder's lock, and the history.

Every operation that changes a ladder (ladders.membership, .challenges, .matches,
.seasons, .club_night) locks its row, appends to its history (with the actor) and,
when positions change, refreshes the cached positions from the fold of the history
(ladders.rungs documents the ordering rule for results that finish out of order).
Notices go out after commit (ladders.notices).
"""

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from events.errors import EventError

from . import notices, rungs
from .models import Entrant, Ladder, LadderHistory


class LadderError(EventError):
    """An operation that cannot be done; nothing was changed."""


def lock(ladder):
    """The ladder's row, locked: every operation that changes the ladder holds it."""
    return Ladder.objects.select_for_update().get(pk=ladder.pk)


def _current_order(ladder, extra_op=None, undo=None):
    entries = ladder.history.filter(op__isnull=False).order_by("seq")
    undone = set(ladder.history.filter(undoes__isnull=False).values_list("undoes_id", flat=True))
    if undo is not None:
        undone.add(undo.pk)
    ops = [e.op for e in entries if e.pk not in undone]
    if extra_op is not None:
        ops.append(extra_op)
    return rungs.fold(ops)


def record(ladder, kind, text, *, actor=None, op=None, match=None, undoes=None, now=None):
    """Append a history entry; with an `op` or `undoes`, refresh the cached positions.

    Returns (entry, {entrant id: (old position, new position)} for those who moved).
    """
    seq = (ladder.history.aggregate(m=Max("seq"))["m"] or 0) + 1
    moved = {}
    positions = None
    if op is not None or undoes is not None:
        order = _current_order(ladder, extra_op=op, undo=undoes)
        new = rungs.positions(order)
        positions = {str(k): v for k, v in new.items()}
        changed = []
        for entrant in ladder.entrants.all():
            place = new.get(entrant.pk)
            if entrant.position != place:
                moved[entrant.pk] = (entrant.position, place)
                entrant.position = place
                changed.append(entrant)
        Entrant.objects.bulk_update(changed, ["position"])
    entry = LadderHistory.objects.create(
        ladder=ladder,
        seq=seq,
        season=ladder.season,
        kind=kind,
        text=text[:300],
        op=op,
        positions=positions,
        undoes=undoes,
        match=match,
        actor=actor,
        created_at=now or timezone.now(),
    )
    return entry, moved


def record_note(ladder, kind, text, *, actor=None):
    """A history entry that changes no positions (e.g. the rules were changed)."""
    with transaction.atomic():
        ladder = lock(ladder)
        entry, _ = record(ladder, kind, text, actor=actor)
    return entry


def notify_moves(ladder, moved, why, entry):
    for entrant in Entrant.objects.filter(pk__in=moved).select_related("player"):
        old, new = moved[entrant.pk]
        if old is None or new is None:
            continue
        direction = "up" if new < old else "down"
        notices.send(
            [entrant.player],
            f"{ladder.name}: you moved {direction} to position {new}",
            [f"You moved from position {old} to {new} on {ladder.name}.", why],
            url=ladder.get_absolute_url(),
            cause=f"{ladder.pk}:{entry.seq}:moved",
            ladder=ladder,
        )
