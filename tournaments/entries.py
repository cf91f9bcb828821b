"""Who is in an event: entrants added by an organiser, players entering and withdrawing on their own,
approvals. Each operation locks the event's row (services.lock) and either does all it says or raises
TournamentError (nothing changed). Starting, rounds and results are tournaments.services.
"""

from django.db import transaction
from django.utils import timezone

from accounts import services as accounts
from accounts.models import User
from accounts.services import normalize_email
from events.entrants import parse_emails
from games import reliability
from ratings.selectors import family_of, ratings_of

from .models import Entrant, Tournament
from .services import TournamentError, lock


def add_entrants(tournament, text, *, actor, now=None):
    """Enter every address in `text`, in order; an unknown address gets an invitation.

    All or nothing: an address listed twice, or of a player already entered, refuses the lot.
    Returns (entrants added, addresses invited).
    """
    now = now or timezone.now()
    words = [normalize_email(w.strip("<>")) for w in text.replace(",", " ").replace(";", " ").split()]
    twice = sorted({w for w in words if words.count(w) > 1})
    if twice:
        raise TournamentError(f"Listed twice: {', '.join(twice)}. Nothing was changed.")
    emails = parse_emails(text)
    with transaction.atomic():
        tournament = lock(tournament)
        # A club night season takes new members while it runs (they play from the next night).
        if tournament.status != Tournament.Status.DRAFT and not _takes_members(tournament):
            raise TournamentError("The event has started: entries are closed.")
        known = {u.email.lower(): u for u in User.objects.filter(email__in=emails)}
        already = [
            str(e.player) for e in tournament.entrants.filter(player__in=known.values()).select_related("player")
        ]
        if already:
            raise TournamentError(f"Already entered: {', '.join(already)}. Nothing was changed.")
        added, invited = [], []
        for email in emails:
            user = known.get(email.lower())
            if user is None:
                user = accounts.invite(email, actor, tournament.get_absolute_url())
                invited.append(email)
            added.append(Entrant.objects.create(tournament=tournament, player=user, entered_at=now))
    return added, invited


def _takes_members(tournament):
    return tournament.kind == Tournament.Kind.CLUB_NIGHT and tournament.status == Tournament.Status.RUNNING


def enter(tournament, user, *, actor=None):
    """Enter one player (the admin's and the simulation's way in)."""
    added, _ = add_entrants(tournament, user.email, actor=actor)
    return added[0]


def entry_refusal(tournament, user, now=None):
    """Why `user` may not enter `tournament` by themselves now, in the player's words; "" if they may."""
    now = now or timezone.now()
    if tournament.status != Tournament.Status.DRAFT:
        return "The event has started: entries are closed."
    if tournament.ended_by(now):
        return f"The season ended on {tournament.ends_on:%d %b %Y}: entries are closed."
    if tournament.entries_close_on and timezone.localdate(now) > tournament.entries_close_on:
        return f"Entries closed on {tournament.entries_close_on:%d %b %Y}."
    if tournament.max_entrants and tournament.entrants.count() >= tournament.max_entrants:
        return f"The event is full: it takes {tournament.max_entrants} entrants."
    if tournament.min_rating:
        rating = ratings_of([user], family_of(tournament.variant))[user.pk]
        if rating.value < tournament.min_rating:
            return f"It asks for a rating of at least {tournament.min_rating} in this game: yours is {rating.value}."
    return reliability.below_floor(user, tournament.min_reliability, now)


def register(tournament, user, *, now=None):
    """A player enters on their own (the event page, and "enter" by email): the event's rules
    apply (entry_refusal); with approval_required the entry waits for an organiser."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = lock(tournament)
        if tournament.entrants.filter(player=user).exists():
            raise TournamentError(f"You are entered in {tournament} already.")
        refusal = entry_refusal(tournament, user, now)
        if refusal:
            raise TournamentError(refusal)
        return Entrant.objects.create(
            tournament=tournament, player=user, entered_at=now, approved=not tournament.approval_required
        )


def withdraw_player(tournament, user):
    """A player takes their own entry back (the page and "withdraw" by email), before the start."""
    entry = tournament.entrants.filter(player=user).first()
    if entry is None:
        raise TournamentError(f"You are not entered in {tournament}.")
    withdraw_entrant(entry, actor=user)


def approve(entrant, *, actor):
    """An organiser accepts an entry that waited for approval."""
    with transaction.atomic():
        tournament = lock(entrant.tournament)
        if tournament.status != Tournament.Status.DRAFT:
            raise TournamentError("The event has started: entries are closed.")
        Entrant.objects.filter(pk=entrant.pk).update(approved=True)


def withdrawal_refusal(tournament):
    """Why no entrant can be taken off `tournament` now, or None."""
    if tournament.status != Tournament.Status.DRAFT:
        return "The event has started: an entrant can no longer be taken off."
    return None


def withdraw_entrant(entrant, *, actor):
    with transaction.atomic():
        tournament = lock(entrant.tournament)
        refusal = withdrawal_refusal(tournament)
        if refusal:
            raise TournamentError(refusal)
        Entrant.objects.filter(pk=entrant.pk).delete()
