"""Challenges to named players, the open seek board, and answering them."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import challenges, selectors
from games.forms import ChallengeForm, SeekFilterForm, SeekForm
from games.models import Challenge, ChallengePlace, Game
from games.presenter import refusals
from games.views import play


def _challenge(challenge_id):
    places = Prefetch("places", queryset=ChallengePlace.objects.select_related("player").order_by("seat"))
    return get_object_or_404(
        Challenge.objects.select_related("challenger", "game").prefetch_related(places), pk=challenge_id
    )


@login_required
@require_http_methods(["GET", "POST"])
def new_challenge(request):
    initial = {"player1": request.GET.get("email", "")}
    form = ChallengeForm(request.POST or None, initial=initial, user=request.user)
    if request.method == "POST":
        if form.is_valid():
            try:
                challenge = challenges.create_challenge(request.user, form.opponents(), **form.settings())
            except challenges.ChallengeError as error:
                form.add_error(None, error.message)
            else:
                messages.success(request, "Your challenge is sent. The game starts when it is accepted.")
                return redirect(challenge)
        messages.error(request, "No challenge was sent: please correct the fields marked below.")
    return render(
        request,
        "games/challenge_form.html",
        {"form": form, "people_played": selectors.people_played(request.user)},
        status=400 if form.is_bound else 200,
    )


@login_required
@require_GET
def challenge(request, challenge_id):
    return _page(request, _challenge(challenge_id))


def _page(request, ch, status=200):
    places = list(ch.places.all())
    involved = ch.challenger_id == request.user.pk or any(p.player_id == request.user.pk for p in places)
    if not (ch.is_seek or involved):
        return render(request, "games/challenge_not_yours.html", status=403)
    return render(
        request,
        "games/challenge.html",
        {
            "challenge": ch,
            "places": places,
            "mine": ch.challenger_id == request.user.pk,
            "to_answer": ch.is_open and selectors.waiting_for(ch, request.user),
            "can_take": ch.is_open and ch.is_seek and not involved,
        },
        status=status,
    )


def _answer(request, challenge_id, operation, done):
    try:
        ch = operation(_challenge(challenge_id), request.user)
    except challenges.ChallengeError as error:
        # The challenge as it stands (another answer may have closed it), with why; nothing changed.
        messages.error(request, error.message)
        return _page(request, _challenge(challenge_id), status=refusals.status_of(error.code))
    messages.success(request, done(ch))
    if ch.game_id:
        return redirect(ch.game)
    return redirect(ch)


@login_required
@require_POST
def accept(request, challenge_id):
    return _answer(
        request,
        challenge_id,
        challenges.accept,
        lambda ch: (
            "The game has started. Good luck!"
            if ch.game_id
            else "You have accepted. The game starts when everyone has accepted."
        ),
    )


@login_required
@require_POST
def decline(request, challenge_id):
    return _answer(
        request,
        challenge_id,
        challenges.decline,
        lambda ch: f"You declined the challenge; {ch.challenger} will be told.",
    )


@login_required
@require_POST
def cancel(request, challenge_id):
    return _answer(request, challenge_id, challenges.cancel, lambda ch: "The challenge is cancelled.")


@login_required
@require_POST
def rematch(request, game_id):
    """A finished game's "Rematch" button: the others are challenged with the same settings."""
    game = get_object_or_404(Game.objects.prefetch_related("seats"), pk=game_id)
    seat = selectors.seat_of(game, request.user)
    if seat is None:
        return play.not_your_game(request, game)
    try:
        challenge = challenges.rematch(game, seat.number, request.user)
    except challenges.ChallengeError as error:
        return play.refused(request, game, seat, error.message, status=refusals.status_of(error.code))
    messages.success(
        request, "Your rematch challenge is sent, with the same settings. The game starts when it is accepted."
    )
    return redirect(challenge)


@login_required
@require_http_methods(["GET", "POST"])
def seeks(request):
    form = SeekForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            try:
                seek = challenges.create_seek(request.user, **form.settings())
            except challenges.ChallengeError as error:
                form.add_error(None, error.message)
            else:
                messages.success(request, "Your open challenge is posted: the game starts when someone takes it.")
                return redirect(seek)
        messages.error(request, "Nothing was posted: please correct the fields marked below.")
    filters = SeekFilterForm(request.GET or None)
    asked = filters.filters()
    return render(
        request,
        "games/seeks.html",
        {
            "form": form,
            "filters": filters,
            "filtered": any(value is not None for value in asked.values()),
            "seeks": selectors.seek_board(variant=asked["variant"], min_reliability=asked["min_reliability"]),
            "rating_from": asked["rating_from"],
            "rating_to": asked["rating_to"],
        },
        status=400 if form.is_bound or (filters.is_bound and not filters.is_valid()) else 200,
    )
