"""An organiser writes to every entrant of a ladder (events.announcements does it for every
event app), noted in the ladder's history."""

from django.db import transaction

from events import announcements

from . import notices, services


def announce(ladder, subject, body, *, actor):
    """Email `subject` and `body` to everyone on `ladder` (who takes announcements), noted in its
    history; LadderError, nothing sent, when it cannot be (events.announcements.announce)."""
    players = [e.player for e in ladder.entrants.filter(active=True).select_related("player")]
    with transaction.atomic():
        sent = announcements.announce(
            ladder,
            subject,
            body,
            actor=actor,
            players=players,
            refusal=services.LadderError,
            noun="ladder",
            nobody="Nobody is on this ladder yet: nothing was sent.",
            reply_to=notices.ladder_address(ladder),
        )
        services.record_note(ladder, "announcement", f"{actor} wrote to the entrants: {sent.subject}", actor=actor)
    return sent
