"""At the table, from the game page: the private note, table talk, mute and report.

Thin: parse, call games.talk, redirect to the game with a message; a refusal is the game
page as it stands with why (403 for someone not at the table, 429 over the hourly limit)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from accounts.models import User
from games import selectors, talk
from games.models import Game, TableMessage
from games.presenter import refusals
from games.views import play


def _do(request, game, call, done, typed=None):
    try:
        call()
    except talk.TableError as error:
        seat = selectors.seat_of(game, request.user)
        if seat is None:
            return play.not_your_game(request, game, error.message)
        return play.refused(request, game, seat, error.message, status=refusals.status_of(error.code), typed=typed)
    messages.success(request, done)
    return redirect(f"{game.get_absolute_url()}#talk")


@login_required
@require_POST
def note(request, game_id):
    game = get_object_or_404(Game, pk=game_id)
    text = request.POST.get("text", "")
    return _do(
        request,
        game,
        lambda: talk.save_note(game, request.user, text),
        "Your note is saved: nobody else sees it.",
        typed={"note": text},
    )


@login_required
@require_POST
def say(request, game_id):
    game = get_object_or_404(Game, pk=game_id)
    text = request.POST.get("text", "")
    return _do(request, game, lambda: talk.say(game, request.user, text), "Said to the table.", typed={"say": text})


@login_required
@require_POST
def mute(request, game_id, user_id):
    game = get_object_or_404(Game, pk=game_id)
    other = get_object_or_404(User, pk=user_id)
    if request.POST.get("undo"):
        return _do(request, game, lambda: talk.unmute(request.user, other), f"You see what {other} says again.")
    return _do(request, game, lambda: talk.mute(request.user, other), f"You no longer see what {other} says.")


@login_required
@require_POST
def report(request, game_id, message_id):
    message = get_object_or_404(TableMessage.objects.select_related("game"), pk=message_id, game_id=game_id)
    return _do(request, message.game, lambda: talk.report(message, request.user), "Thank you: the staff will read it.")
