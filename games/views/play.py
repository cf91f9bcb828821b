"""The game page, its move forms, its JSON state and the game record.

Everything shown of a game comes from `selectors.view_for(game, seat)` (or
`selectors.record_for`): what that seat could know at the table, never the
raw engine state. Moves go to `services.submit_move`; an error leaves the game
as it was and shows the service's message.
"""

from __future__ import annotations

import json
import secrets

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import F
from django.http import Http404, HttpResponse, HttpResponseNotModified, JsonResponse
from django.shortcuts import redirect, render
from django.utils.cache import add_never_cache_headers
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from accounts.middleware import shows_no_time
from games import challenge_limits, coaching, event_games, fragments, polls, reviews, selectors, services, talk, visits
from games.cribbage import describe_move
from games.models import Event, Game, GameReview
from games.play_forms import MoveForm, PlanFields, PlanForm
from games.presentation import help_text
from games.presenter import refusals
from games.presenter.table import Table

TABLE_GAME_TEXT = "Played at the table: the result was entered afterwards, so there are no hands to review."


def _game(game_id):
    try:
        return selectors.game_with_seats(game_id)
    except Game.DoesNotExist:
        raise Http404("No such game.") from None


def _sealed(request, game):
    """The page for a spectator of a game whose cards other tables are still playing."""
    return render(request, "games/sealed.html", {"game": game}, status=403)


def _context(request, game, seat_number, page):
    # The table is worked out when a template first reads it (`_Later`): a page whose fragments
    # come from the cache reads only the live parts (games.fragments), and never works out the view.
    view = _Later(lambda: selectors.view_for(game, seat_number))
    table = _Later(lambda: Table(view()))
    shows = _Later(lambda: table().shows(view().shows, view().starter))
    previous = _Later(lambda: table().previous())
    return {
        "game": game,
        # Read from the cache with the page's fragments (games.fragments.Page's `beside`).
        "in_event": _Later(lambda: event_games.of_kept(game.pk, page.beside("event", event_games.MISSING))),
        "v": view,
        "table": table,
        "sides": _Later(lambda: table().sides()),
        "tracks": _Later(lambda: table().tracks()),
        "players": _Later(lambda: table().players()),
        "others": _Later(lambda: table().others()),
        "pile": _Later(lambda: table().pile()),
        "confirm_moves": getattr(request.user, "confirm_moves", "touch"),
        "status": _Later(lambda: table().status()),
        "deadline": _deadline(game),
        "rounds": _Later(lambda: table().plays()),
        "records": _Later(lambda: table().records(view().records, limit=6)),
        "shows": shows,
        "previous": previous,
        "moment": _Later(lambda: table().show_moment(shows(), previous())),
        "steps": _Later(
            lambda: (
                table().steps(selectors.record_for(game, seat_number))
                if game.is_finished and not game.played_at_table
                else []
            )
        ),
        "over": _Later(lambda: table().over()),
        "can_rematch": _Later(
            lambda: (
                game.is_finished
                and seat_number is not None
                and challenge_limits.rematch_refusal(game, seat_number) is None
            )
        ),
        "counting": _Later(lambda: table().counting()),
        # One view of the table a request: the coach reads the page's.
        "advice": _Later(
            lambda: coaching.advice_before(game, seat_number, view=view()) if seat_number is not None else None
        ),
        # A finished game's page shows its review, not the coach's notes of the last hand.
        "coach": _Later(
            lambda: (
                coaching.coach_notes(game, seat_number, view=view())
                if seat_number is not None and not game.is_finished
                else {}
            )
        ),
        **_review(game, seat_number),
        "help_text": TABLE_GAME_TEXT if game.played_at_table else help_text(game.assistance, game.is_finished),
        "can_discard": _Later(lambda: table().can("discard")),
        "can_play": _Later(lambda: table().can("play")),
        "can_count": _Later(lambda: table().can("show")),
        "can_muggins": _Later(lambda: bool(view().may_call_muggins) and not game.is_finished),
        "can_resign": seat_number is not None and not game.is_finished,
        "discard_count": _Later(lambda: table().rules["discard_count"]),
        "crib_owner": _Later(lambda: table().name(view().crib_owner) if view().crib_owner is not None else ""),
        "token": secrets.token_hex(16),
        "seat": seat_number,
        "plan_form": _Later(lambda: _plan_form(view()) if seat_number is not None and not game.is_finished else None),
    }


def _deadline(game):
    """When the next move is due: the soonest deadline of a seat to act (Table.deadline, from the
    seats, without the view)."""
    dates = [s.deadline for s in selectors.seats_with_players(game) if s.to_act and s.deadline]
    return min(dates) if dates else None


class _Later:
    """`make()`, worked out once, when a template first reads it (Django's templates call a
    callable they read), and never when nothing reads it. (A page makes some thirty: lighter
    than functools.cache's wrapper.)"""

    __slots__ = ("make", "value")

    def __init__(self, make):
        self.make = make

    def __call__(self):
        try:
            return self.value
        except AttributeError:
            self.value = self.make()
            return self.value


def _review(game, seat_number):
    """The finished game's review as the worker stored it (games.reviews), never worked out
    here: {"review": it, or None (a spectator, a game still on, one played at the table — it
    has no hands here —, or not stored yet), "review_pending": the worker has not stored it yet}."""
    review = None if game.played_at_table else coaching.full_review(game, seat_number)
    pending = review is None and reviews.pending(game, seat_number)
    if pending:
        reviews.owe_if_lost(game)  # a game that ended before reviews were stored
    return {"review": review, "review_pending": pending}


def _plan_form(view):
    """The plan form's fields (PlanFields), from the deal until the seat's last card is played; None otherwise."""
    if view.phase not in ("discard", "play") or not view.hand:
        return None
    plan = view.plan or {"order": [], "rules": []}
    order = [c for c in plan["order"] if c in view.hand]
    initial = {f"place_{c}": order.index(c) + 1 for c in order}
    for rule in plan["rules"]:
        if rule["rule"] == "score_first":
            initial["score_first"] = True
        elif rule["rule"] == "on":
            initial.update(
                on_rank={1: "A", 10: "T", 11: "J", 12: "Q", 13: "K"}.get(rule["rank"], str(rule["rank"])),
                on_card=rule["card"],
            )
    return PlanFields(view.hand, initial)


# --- Pages ----------------------------------------------------------------------------


@never_cache
@require_GET
def game(request, game_id):
    # A player's note and table talk are read in the game's trip to the database (a reader
    # who turns out to hold no seat reads them for nothing, and is shown none).
    user = request.user
    try:
        game, talk_rows = selectors.game_with_seats_then(
            game_id, talk.panel_statement(game_id, user) if user.is_authenticated else None
        )
    except Game.DoesNotExist:
        raise Http404("No such game.") from None
    seat = selectors.seat_of(game, user)
    if seat is not None:
        visits.note_seen(seat)  # at the table: no reminder, and a held turn email may go
    elif selectors.sealed_for(game, None):
        return _sealed(request, game)
    return _page(request, game, seat, talk_rows=talk_rows)


def _page(request, game, seat, status=200, typed=None, talk_rows=None):
    # What the seat saw last time renders from the cache (games.fragments).
    page = fragments.Page(
        fragments.key(game, seat, selectors.seats_with_players(game)), beside={"event": event_games.kept_key(game.pk)}
    )
    context = _context(request, game, seat.number if seat else None, page)
    context.update(talk.panel_for(request.user, game, seat, typed, talk_rows))
    context["fragments"] = page
    response = render(request, "games/game.html", context, status=status)
    page.keep()
    return response


def refused(request, game, seat, words, status=400, typed=None):
    """A refused request from the game page (a move, a plan, table talk, a clock action): the
    page as it stands, with why, and nothing changed.

    A 4xx page rather than a redirect, so a client (or a test) can tell it was refused; a stale
    request (the game moved on since the form was shown) is a conflict, 409 (refusals.status_of).
    `typed`: what the player wrote in a talk box, given back to mend ({"say": ..., "note": ...})."""
    messages.error(request, words)
    return _page(request, _game(game.pk), seat, status=status, typed=typed)


def not_your_game(request, game, words=""):
    """A player's request on a game by someone who does not play in it: 403, nothing changed."""
    if words:
        messages.error(request, words)
    return render(request, "games/not_your_game.html", {"game": game}, status=403)


@shows_no_time
@require_GET
def state(request, game_id):
    """What the page's script polls: enough to know whether to reload.

    Its ETag is the last event the reader sees (games.polls): a poll sent with it answers 304
    while nothing changed, from numbers kept apart from the game, and no poll writes to the
    database (the player's looking is noted in the shared cache). Only who the reader is is
    needed (`request.player_id()`, cribsite.auth): the player is checked, never built."""
    found = polls.numbers(game_id, request.session)  # the session read in the same trip
    if found is None:
        raise Http404("No such game.")
    player_id = request.player_id()
    seat = found["seats"].get(player_id) if player_id is not None else None
    if seat is not None:
        visits.note_polling(seat[0])
    if seat is not None or not found["sealable"]:
        etag = polls.tag(game_id, polls.seen(found, player_id), found["status"])
        if etag in request.META.get("HTTP_IF_NONE_MATCH", ""):  # (request.headers: all headers parsed)
            return _polled(HttpResponseNotModified(), etag)
    return _state(game_id, player_id)


@require_GET
def review_state(request, game_id):
    """What a finished game's page polls while its review is being prepared: {"ready": is the
    reader's own review stored (games.reviews)?}. One query, no write; never ready for anyone
    but a player of the game."""
    user = request.user
    ready = user.is_authenticated and (
        GameReview.objects.filter(game_id=game_id, game__seats__player=user, game__seats__number=F("seat")).exists()
    )
    response = JsonResponse({"ready": ready})
    add_never_cache_headers(response)
    return response


def _polled(response, etag):
    # Kept by the browser but asked again every time: its next poll sends If-None-Match.
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    return response


def _state(game_id, player_id):
    game = _game(game_id)
    seat = selectors.seat_held(game, player_id)
    if seat is None and selectors.sealed_for(game, None):
        response = JsonResponse({"error": "Other tables are still playing these cards."}, status=403)
        add_never_cache_headers(response)
        return response
    view = selectors.view_for(game, seat.number if seat else None)
    table = Table(view)
    response = JsonResponse(
        {
            "game_id": view.game_id,
            "seq": view.seq,
            "status": view.status,
            "phase": view.phase,
            "scores": view.scores,
            "to_act": [table.names[s] for s in view.to_act],
            "your_turn": seat is not None and seat.number in view.to_act,
            "status_text": table.status(),
        }
    )
    return _polled(response, polls.tag(game.pk, view.seq, view.status))


@login_required
@require_POST
def move(request, game_id):
    # The service reads the game and its seats once, under its lock, and finds the player's seat:
    # a refused move (the rare case) loads the page's game itself.
    form = MoveForm.read(request.POST)
    if not form.is_valid():
        return _refused_by_id(request, game_id, form.problem())
    try:
        result = services.submit_move(
            game_id,
            request.user,
            lambda game, seat: form.move(game.muggins),
            expected_seq=form.cleaned_data["expected_seq"],
            source=Event.Source.WEB,
            idempotency_key=f"web:{form.cleaned_data['token']}",
            actor=request.user,
        )
    except Game.DoesNotExist:
        raise Http404("No such game.") from None
    except services.MoveRefused as error:
        return _refused_by_id(request, game_id, error.message, status=refusals.status_of(error.code))
    move = result.move
    if result.duplicate:
        messages.info(request, "That move was already made (the form was sent twice); it counts once.")
    elif move is not None and move.kind == "count_ahead":
        messages.success(request, f"Your count of {move.points} is said: it is counted when your show comes.")
    return redirect(f"{result.game.get_absolute_url()}#table")


def _refused_by_id(request, game_id, words, status=400):
    game = _game(game_id)
    seat = selectors.seat_of(game, request.user)
    if seat is None:
        return not_your_game(request, game)
    return refused(request, game, seat, words, status=status)


@login_required
@require_POST
def plan(request, game_id):
    """Set (or clear) the player's pegging plan: any time from the deal until their last card."""
    game = _game(game_id)
    seat = selectors.seat_of(game, request.user)
    if seat is None:
        return not_your_game(request, game)
    form = PlanForm(request.POST, cards=selectors.view_for(game, seat.number).hand)
    if not form.is_valid() or not form.words():
        return refused(request, game, seat, "Give at least one card a place in the order, or tick a rule.")
    try:
        result = services.submit_words(
            game,
            seat.number,
            f"plan {form.words()}",
            source=Event.Source.WEB,
            idempotency_key=f"web:{request.POST.get('token', '')}" if request.POST.get("token") else None,
            actor=request.user,
        )
    except services.MoveRefused as error:
        return refused(request, game, seat, error.message)
    move = result.move
    said = ". Nobody else sees it." if move.order or move.rules else "."
    messages.success(request, describe_move(move, "done") + said)
    return redirect(f"{game.get_absolute_url()}#plan")


def _reader(request, game):
    seat = selectors.seat_of(game, request.user)
    return seat.number if seat else None


@require_GET
def record(request, game_id):
    game = _game(game_id)
    seat = _reader(request, game)
    if selectors.sealed_for(game, seat):
        return _sealed(request, game)
    rec = selectors.record_for(game, seat)
    table = Table(selectors.view_for(game, seat))
    hands = []
    for h in rec["hands"]:
        hands.append(
            {
                **h,
                "dealer_name": table.name(h["dealer"]),
                "rounds": table.plays(h["plays"]),
                "records": table.records(h["records"])[::-1],
                "shows": table.shows(h["shows"], h["starter"]),
                "score_line": list(zip([table.side_name(s) for s in range(len(h["scores"] or []))], h["scores"] or [])),
            }
        )
    return render(
        request,
        "games/record.html",
        {"game": game, "record": rec, "hands": hands, "table": table, "result": table.result_text()},
    )


@require_GET
def record_download(request, game_id, fmt):
    game = _game(game_id)
    if selectors.sealed_for(game, _reader(request, game)):
        return _sealed(request, game)
    rec = selectors.record_for(game, _reader(request, game))
    if fmt == "json":
        response = HttpResponse(
            json.dumps(rec, indent=2, ensure_ascii=False) + "\n", content_type="application/json; charset=utf-8"
        )
    else:
        response = HttpResponse(selectors.record_text(rec), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="cribbage-game-{game.pk}.{fmt}"'
    return response
