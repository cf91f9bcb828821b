"""Event pages for the public: thin views over tournaments.selectors."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import InvalidPage
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from events.exports import standings_csv_response
from ratings.selectors import family_of, ratings_of

from . import club_nights, comparison, entries, selectors, services
from .forms import ReportForm
from .models import ClubNight, NightGame, Round, Tournament


def event_list(request):
    """Every event: those taking entries first (soonest first, each with its Enter button), then
    those under way, then the finished ones."""
    try:
        context = selectors.event_list(request.user, request.GET.get("page") or 1)
    except InvalidPage:
        raise Http404("There is no such page of finished events.") from None
    return render(request, "tournaments/list.html", context)


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
    if event.kind == Tournament.Kind.CLUB_NIGHT:
        context.update(_club_night(request.user, event))
    return render(request, "tournaments/detail.html", context)


def _club_night(user, event, form=None):
    """A club night season's nights, and for an entrant of the open night the report form and the
    reports waiting for them."""
    nights = selectors.nights(event)
    for item in nights:
        item["rows"] = selectors.night_table(item["night"])
    open_night = event.nights.filter(status=ClubNight.Status.OPEN).first()
    mine = event.entrants.filter(player=user, approved=True).first() if user.is_authenticated else None
    context = {"nights": nights, "open_night": open_night, "my_entry": mine}
    if open_night is not None and mine is not None:
        others = event.entrants.filter(approved=True).exclude(pk=mine.pk).select_related("player")
        context["report"] = form or ReportForm(entrants=others)
        context["to_confirm"] = open_night.games.filter(second=mine, status=NightGame.Status.REPORTED).select_related(
            "first__player"
        )
    return context


@login_required
@require_POST
def report(request, slug):
    """A player reports a game of the open night."""
    event = get_object_or_404(Tournament, slug=slug, kind=Tournament.Kind.CLUB_NIGHT)
    night = event.nights.filter(status=ClubNight.Status.OPEN).first()
    form = ReportForm(request.POST, entrants=event.entrants.filter(approved=True).select_related("player"))
    if night is None:
        messages.error(request, "No night is open: games are reported on the night.")
    elif not form.is_valid():
        messages.error(request, "Nothing was reported: choose your opponent and give both final scores.")
    else:
        data = form.cleaned_data
        try:
            item = club_nights.report_game(night, request.user, data["opponent"], data["my_score"], data["their_score"])
        except services.TournamentError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, f"Reported your game with {item.second}: it counts when they confirm it.")
    return redirect(event)


@login_required
@require_POST
def answer_report(request, slug, pk, answer):
    """The opponent confirms or disputes a reported game."""
    event = get_object_or_404(Tournament, slug=slug, kind=Tournament.Kind.CLUB_NIGHT)
    item = get_object_or_404(NightGame, pk=pk, night__tournament=event)
    try:
        if answer == "confirm":
            club_nights.confirm_game(item, request.user)
            messages.success(request, f"Confirmed: your game with {item.first} counts.")
        else:
            club_nights.dispute_game(item, request.user)
            messages.success(request, f"Disputed: your game with {item.first} waits for the organiser.")
    except services.TournamentError as exc:
        messages.error(request, exc.message)
    return redirect(event)


def round_hands(request, slug, number):
    """A duplicate round's hands, every table side by side, once the whole round is over."""
    rnd = get_object_or_404(
        Round.objects.select_related("tournament"),
        tournament__slug=slug,
        tournament__kind=Tournament.Kind.DUPLICATE,
        number=number,
    )
    return render(
        request,
        "tournaments/round_hands.html",
        {"event": rnd.tournament, "round": rnd, "hands": comparison.round_hands(rnd)},
    )


def standings_csv(request, slug):
    event = get_object_or_404(Tournament, slug=slug)
    return standings_csv_response(event.slug, selectors.columns(event), selectors.table(event))


def _entry(user, event):
    """What the page offers `user` about entering: their entry, or why they may not enter."""
    if not user.is_authenticated or event.status != Tournament.Status.DRAFT:
        return None
    mine = event.entrants.filter(player=user).first()
    return {"mine": mine, "refusal": "" if mine else entries.entry_refusal(event, user)}


@login_required
@require_POST
def enter(request, slug):
    event = get_object_or_404(Tournament, slug=slug)
    try:
        entry = entries.register(event, request.user)
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
        entries.withdraw_player(event, request.user)
    except services.TournamentError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"Your entry in {event} is withdrawn.")
    return redirect(event)
