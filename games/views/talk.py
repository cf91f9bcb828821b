"""At the table, from the game page: the private note, table talk, mute and report.

Thin: parse, call games.talk, redirect to the game with a message."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from accounts.models import User
from games import talk
from games.models import Game, TableMessage


def panel_context(user, game, seat):
    """What the game page's note and talk panel shows `user` (`seat`: theirs, or None)."""
    if seat is None:
        return {"at_table": False}
    muted = talk.muted_by(user)
    others = [s.player for s in game.seats.all() if s.player_id and s.player_id != user.pk]
    return {
        "at_table": True,
        "note": talk.note_of(game, user),
        "talk": talk.talk_for(game, user),
        "note_max": talk.NOTE_MAX_CHARS,
        "say_max": talk.SAY_MAX_CHARS,
        "talk_players": [{"user": p, "muted": p.pk in muted} for p in others],
    }


def _back(game, anchor="table"):
    return redirect(f"{game.get_absolute_url()}#{anchor}")


def _do(request, game, call, done):
    try:
        call()
    except talk.TableError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, done)
    return _back(game)


@login_required
@require_POST
def note(request, game_id):
    game = get_object_or_404(Game, pk=game_id)
    return _do(
        request,
        game,
        lambda: talk.save_note(game, request.user, request.POST.get("text", "")),
        "Your note is saved: nobody else sees it.",
    )


@login_required
@require_POST
def say(request, game_id):
    game = get_object_or_404(Game, pk=game_id)
    return _do(request, game, lambda: talk.say(game, request.user, request.POST.get("text", "")), "Said to the table.")


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
