"""Repeating events: an event set to repeat every N days opens the next like it when it starts.

`repeat_due` (the beat's "events-repeat", hourly) opens, for every repeating event whose first day
has come and that has no next one yet, a copy of it taking entries: the same settings and
organisers, no entrants, its dates moved on (events.repeats.next_start), its name and address
ending with its first day. Idempotent: an event has one next event at most (the database's
unique `repeated_from`), so two runs at once, or a run twice, open it once.
"""

from django.db import IntegrityError, transaction
from django.utils import timezone

from events import repeats

from .models import Tournament


def due(today):
    """The repeating events whose first day has come and that have no next event yet."""
    return Tournament.objects.filter(
        repeat_every_days__isnull=False, starts_on__lte=today, repeated_by__isnull=True
    ).order_by("starts_on", "pk")


def repeat(event, *, now=None):
    """Open the event after `event` (a Tournament); None if it has one already or repeats no more."""
    today = timezone.localdate(now)
    try:
        with transaction.atomic():
            event = Tournament.objects.select_for_update().get(pk=event.pk)
            if not event.repeat_every_days or Tournament.objects.filter(repeated_from=event).exists():
                return None
            organisers = list(event.organisers.all())
            starts_on = repeats.next_start(event.starts_on, event.repeat_every_days, today)
            moved = starts_on - event.starts_on
            follow = Tournament.objects.get(pk=event.pk)  # every setting, copied as it stands
            follow.pk = follow.id = None
            follow._state.adding = True
            follow.name = repeats.next_name(event.name, starts_on)
            follow.slug = _free_slug(repeats.next_slug(event.slug, starts_on))
            follow.status = Tournament.Status.DRAFT
            follow.starts_on = starts_on
            follow.ends_on = event.ends_on + moved if event.ends_on else None
            follow.entries_close_on = event.entries_close_on + moved if event.entries_close_on else None
            follow.created_at = now or timezone.now()
            follow.repeated_from = event
            follow.save()
            follow.organisers.set(organisers)
            return follow
    except IntegrityError:
        return None  # another run opened it first


def _free_slug(slug):
    taken = set(Tournament.objects.filter(slug__startswith=slug).values_list("slug", flat=True))
    if slug not in taken:
        return slug
    n = 2
    while f"{slug[:46]}-{n}" in taken:
        n += 1
    return f"{slug[:46]}-{n}"


def repeat_due(now=None):
    """Open the next event of every repeating event that is due; the events opened."""
    today = timezone.localdate(now)
    return [follow for event in due(today) if (follow := repeat(event, now=now)) is not None]
