"""Event pages for the public: thin views over tournaments.selectors."""

from django.shortcuts import get_object_or_404, render

from events.exports import standings_csv_response
from ratings.selectors import family_of, ratings_of

from . import selectors
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
    }
    return render(request, "tournaments/detail.html", context)


def standings_csv(request, slug):
    event = get_object_or_404(Tournament, slug=slug)
    return standings_csv_response(event.slug, selectors.columns(event), selectors.table(event))
