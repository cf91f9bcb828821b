"""Clock actions from the site: give more time, claim a timed-out game, start or end a vacation.

Thin: parse, call the service (clock.timeouts, clock.vacation), redirect with a message; a
refusal is the page the form was on as it stands, with why, and a 4xx (games.presenter.refusals.status_of).
And the calendar feed of a player's deadlines (clock.calendar), read by calendar apps with
no login: its URL is the secret.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from accounts.profile_views import profile_page
from clock import calendar, selectors, timeouts, vacation
from clock.events import ClockError
from games.cribbage.notation import read_number
from games.models import Event, Game
from games.presenter import refusals
from games.selectors import seat_of
from games.views import play


def _my_game(request, game_id):
    game = get_object_or_404(Game, pk=game_id)
    return game, seat_of(game, request.user)


def _refused_on_profile(request, error):
    """A refused vacation: the profile page as it stands, with why."""
    messages.error(request, error.message)
    return profile_page(request, status=refusals.status_of(error.code))


@login_required
@require_POST
def more_time(request, game_id):
    game, mine = _my_game(request, game_id)
    if mine is None:
        return play.not_your_game(request, game, "Only a player in this game can give more time.")
    to_seat = read_number(request.POST.get("seat", ""))
    if to_seat is None:
        return play.refused(request, game, mine, "Choose whom to give more time.")
    try:
        timeouts.grant_more_time(
            game, mine.number, to_seat, request.POST.get("days"), source=Event.Source.WEB, actor=request.user
        )
    except ClockError as error:
        return play.refused(request, game, mine, error.message, status=refusals.status_of(error.code))
    messages.success(request, "Done: they have more time.")
    return redirect(game)


@login_required
@require_POST
def claim(request, game_id):
    game, mine = _my_game(request, game_id)
    if mine is None:
        return play.not_your_game(request, game, "Only a player in this game can claim it.")
    try:
        timeouts.claim_timeout(game, mine.number, actor=request.user)
    except ClockError as error:
        return play.refused(request, game, mine, error.message, status=refusals.status_of(error.code))
    messages.success(request, "The game is yours: your opponent ran out of time.")
    return redirect(game)


@login_required
@require_POST
def vacation_start(request):
    try:
        _, paused = vacation.start_vacation(request.user, request.POST.get("days"))
    except ClockError as error:
        return _refused_on_profile(request, error)
    messages.success(request, "Have a good break: your clocks are stopped and your opponents are told.")
    running = selectors.turns_running_on(request.user, paused)
    if running:
        games = ", ".join(f"game {pk}" for pk in running)
        messages.warning(
            request,
            f"Your clock runs on in {games}: "
            f"{'that game allows' if len(running) == 1 else 'those games allow'} "
            f"no vacation (or no more of it).",
        )
    return redirect(reverse("accounts:profile") + "#vacation")


@login_required
@require_POST
def vacation_end(request):
    if vacation.end_vacation(request.user) is None:
        messages.info(request, "You were not on vacation.")
    else:
        messages.success(request, "Welcome back: your clocks run again.")
    return redirect(reverse("accounts:profile") + "#vacation")


@never_cache
@require_GET
def calendar_feed(request, key):
    user = calendar.user_for(key)
    if user is None:
        raise Http404("No such calendar.")
    response = HttpResponse(calendar.feed(user), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="cribbage-deadlines.ics"'
    return response


@login_required
@require_POST
def calendar_new_key(request):
    calendar.new_key(request.user)
    messages.success(request, "Your calendar has a new address: the old one no longer works.")
    return redirect(reverse("accounts:profile") + "#calendar")
