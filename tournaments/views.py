"""Event pages for the public: thin views over tournaments.selectors."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from events.exports import standings_csv_response
from ratings.selectors import family_of, ratings_of

from . import selectors, services
from .models import Tournament


def event_list(request):
    return render(request, "tournaments/list.html", {"events": Tournament.objects.all()})


def detail(request, slug):
    """The standings (or the bracket), the schedule and the games of one event."""
    event = get_object_or_404(Tournament, slug=slug)
    knockout = event.kind == Tournament.Kind.KNOCKOUT
    columns = selectors.columns(event)
    table = [] if knockout else selectors.table(event)
    ratings = ratings_of([row["player_id"] for row in table], family_of(event.variant))  # one query
    context = {
        "event": event,
        "knockout": knockout,
        # Each row: the player's id and rating, then the cells after the name (place first).
        "rows": [
            {
                "place": row["place"],
                "player": row["player"],
                "player_id": row["player_id"],
                "rating": ratings[row["player_id"]],
                "cells": [row[key] for key, _ in columns[2:]],
            }
            for row in table
        ],
        "columns": columns,
        "bracket": selectors.bracket(event) if knockout else None,
        "champion": selectors.champion(event),
        "rounds": selectors.rounds(event),
        "entrants": selectors.entrants(event),
        "is_organiser": event.is_organiser(request.user),
        "entry": _entry(request.user, event),
    }
    return render(request, "tournaments/detail.html", context)


def standings_csv(request, slug):
    event = get_object_or_404(Tournament, slug=slug)
    return standings_csv_response(event.slug, selectors.columns(event), selectors.table(event))


def _entry(user, event):
    """What the page offers `user` about entering: their entry, or why they may not enter."""
    if not user.is_authenticated or event.status != Tournament.Status.DRAFT:
        return None
    mine = event.entrants.filter(player=user).first()
    return {"mine": mine, "refusal": "" if mine else services.entry_refusal(event, user)}


@login_required
@require_POST
def enter(request, slug):
    event = get_object_or_404(Tournament, slug=slug)
    try:
        entry = services.register(event, request.user)
    except services.TournamentError as exc:
        messages.error(request, exc.message)
    else:
        waiting = " Your entry waits for the organiser's approval." if not entry.approved else ""
        messages.success(request, f"You are entered in {event}.{waiting}")
    return redirect(event)


@login_required
@require_POST
def withdraw(request, slug):
    event = get_object_or_404(Tournament, slug=slug)
    try:
        services.withdraw_player(event, request.user)
    except services.TournamentError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"Your entry in {event} is withdrawn.")
    return redirect(event)
