"""Ladder pages for players: thin views over the ladder's operations (membership, challenges, seasons)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from events.exports import standings_csv_response
from games.cribbage.notation import read_number
from ratings.selectors import family_of, ratings_of

from . import challenges, membership, notices, selectors, services
from .matches import game_url
from .models import Challenge, Entrant, Ladder, Match, Season
from .presentation import describe_rules


def ladder_list(request):
    return render(request, "ladders/list.html", {"ladders": Ladder.objects.all()})


def ladder_detail(request, slug):
    ladder = get_object_or_404(Ladder, slug=slug)
    rows = selectors.standings(ladder)
    ratings = ratings_of([row["player_id"] for row in rows], family_of(ladder.variant))  # one query
    for row in rows:
        row["rating"] = ratings[row["player_id"]]
    context = {
        "ladder": ladder,
        "rules": describe_rules(ladder),
        "rows": rows,
        "show_ratings": True,
        "columns": selectors.STANDINGS_COLUMNS,
        "history": ladder.history.select_related("actor")[:25],
        "seasons": ladder.seasons.filter(closed_at__isnull=False),
        "is_organiser": ladder.is_organiser(request.user),
        "address": notices.ladder_address(ladder),
    }
    if request.user.is_authenticated:
        me = Entrant.objects.filter(ladder=ladder, player=request.user, active=True).first()
        context["me"] = me
        if me is not None:
            either = Q(challenger=me) | Q(defender=me)
            context["eligible"] = {d.pk for d in challenges.eligible_defenders(me)}
            context["challenges"] = Challenge.objects.filter(either, status=Challenge.Status.OPEN).select_related(
                "challenger__player", "defender__player"
            )
            matches = (
                Match.objects.filter(either)
                .exclude(status=Match.Status.VOID)
                .select_related("challenger__player", "defender__player")
                .prefetch_related("games__game")[:10]
            )
            context["matches"] = [(m, [(lg, game_url(lg.game)) for lg in m.games.all()]) for m in matches]
    return render(request, "ladders/detail.html", context)


def standings_csv(request, slug):
    ladder = get_object_or_404(Ladder, slug=slug)
    return csv_response(ladder, selectors.standings(ladder))


def csv_response(ladder, rows, suffix=""):
    """Standings rows as a CSV download, for the page's link and the admin's action."""
    return standings_csv_response(ladder.slug, selectors.STANDINGS_COLUMNS, rows, suffix)


def season(request, slug, number):
    ladder = get_object_or_404(Ladder, slug=slug)
    frozen = get_object_or_404(Season, ladder=ladder, number=number, closed_at__isnull=False)
    if request.GET.get("format") == "csv":
        return csv_response(ladder, frozen.standings, suffix=f"-season-{number}")
    return render(
        request, "ladders/season.html", {"ladder": ladder, "season": frozen, "columns": selectors.STANDINGS_COLUMNS}
    )


def _act(request, ladder, operation, done):
    try:
        operation()
    except services.LadderError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, done)
    return redirect(ladder)


@login_required
@require_POST
def join(request, slug):
    ladder = get_object_or_404(Ladder, slug=slug)
    return _act(request, ladder, lambda: membership.join(ladder, request.user), "You are on the ladder.")


@login_required
@require_POST
def challenge(request, slug):
    ladder = get_object_or_404(Ladder, slug=slug)
    me = get_object_or_404(Entrant, ladder=ladder, player=request.user, active=True)
    try:
        defender = Entrant.objects.get(ladder=ladder, pk=read_number(request.POST.get("defender", "")))
    except Entrant.DoesNotExist:
        messages.error(request, "Choose a player on this ladder to challenge.")
        return redirect(ladder)
    return _act(
        request, ladder, lambda: challenges.challenge(me, defender, actor=request.user), f"You challenged {defender}."
    )


@login_required
@require_POST
def accept(request, slug, pk):
    item = get_object_or_404(Challenge, ladder__slug=slug, pk=pk, defender__player=request.user)
    return _act(
        request,
        item.ladder,
        lambda: challenges.accept(item, actor=request.user),
        "Challenge accepted: the first game has started.",
    )


@login_required
@require_POST
def withdraw(request, slug, pk):
    item = get_object_or_404(Challenge, ladder__slug=slug, pk=pk, challenger__player=request.user)
    return _act(request, item.ladder, lambda: challenges.withdraw(item, actor=request.user), "Challenge withdrawn.")
