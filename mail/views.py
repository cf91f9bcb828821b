"""Pages behind the links in turn emails: a move (GET shows, POST moves) and one-click unsubscribe.

No login: the signed token is the authority, so these views are CSRF-exempt.
GET changes nothing for an anonymous visitor: mail scanners and previews open
links too, and must not count as the player coming back (see `move`).
"""

import hashlib

from django.db import transaction
from django.http import HttpResponseNotAllowed
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt

from accounts.models import User
from games import services as game_services
from games import visits
from games.cribbage import Move, describe_move, notation
from games.models import Event, Game, Seat
from games.play_forms import PlanForm
from games.presentation import cards_text
from games.presenter.turn import turn_story
from games.selectors import move_made_since

from . import announcements, links, services


def _idempotency_key(token):
    return token if len(token) <= 255 else "link:" + hashlib.sha256(token.encode()).hexdigest()


def _question(move, context):
    """What the confirm page asks, in words and cards: "Lay away 2♦ A♦ to your crib?", "Play 7♥ on 14?"."""
    if move.kind == "discard":
        owner = context.get("crib_owner")
        crib = "your crib" if owner == "you" else f"{owner}’s crib" if owner else "the crib"
        return f"Lay away {cards_text(move.cards)} to {crib}?"
    if move.kind == "play" and context.get("phase") == "play":
        return f"Play {cards_text([move.card])} on {context.get('count', 0)}?"
    return f"{describe_move(move, 'ask')}?"


def _page(request, template, status=200, **context):
    return render(request, f"mail/{template}.html", context, status=status)


@csrf_exempt
def move(request, token):
    if request.method not in ("GET", "HEAD", "POST"):
        return HttpResponseNotAllowed(["GET", "POST"])
    try:
        link = links.read_move_token(token)
    except links.BadToken as exc:
        return _page(request, "link_problem", status=410 if exc.expired else 400, problem=str(exc))
    game = Game.objects.filter(pk=link.game_id).first()
    seat = Seat.objects.select_related("player").filter(game_id=link.game_id, number=link.seat).first()
    if game is None or seat is None or seat.player is None:
        return _page(request, "link_problem", status=404, problem="This game no longer exists.")
    if request.method == "POST" or request.user.pk == seat.player_id:
        # The player is at the table (the quiet inbox and reminders count it): a press of
        # the button, or the page opened in their own logged-in browser; not a link scanner.
        visits.note_seen(seat)
    try:
        asked = Move.from_json(link.move)
    except ValueError:  # a token is signed by us: never a player's doing, but no move a game knows
        problem = "This link's move is not one a game knows."
        return _page(request, "move_stale", status=409, problem=problem, **_fresh(game, link.seat, seat))
    # Under muggins the page asks what is claimed: for a play (its pegging) or the show's count.
    action, ask = describe_move(asked, "ask"), asked.number_to_say(game.muggins)

    def page(template, status=200, context=None, **extra):
        # The whole state (and the discard analysis) only for a page that shows it.
        context = context or turn_story(game, link.seat, seat.player, links=links).as_context()
        return _page(
            request,
            template,
            status=status,
            **context,
            link=link,
            token=token,
            action=action,
            ask=ask,
            tracks=_tracks(context),
            question=_question(asked, context),
            move_cards=list(asked.shown_cards),
            plan_form=_plan_form(asked, context),
            **extra,
        )

    if request.method != "POST":
        context = turn_story(game, link.seat, seat.player, links=links).as_context()
        if game.is_finished:
            return page("move_stale", context=context, problem="This game is over.")
        if link.seq != game.seq and not any(asked.same_choice(m) for m in context["view"].legal_moves):
            if move_made_since(game, link.seat, link.seq, asked):
                return page("move_stale", context=context, done=True, problem=f"{action}: already done.")
            return page("move_stale", context=context, problem="The game has moved on since this link was sent.")
        return page("move_confirm", context=context)

    move = asked
    if ask:
        points = notation.read_number(request.POST.get(ask, ""))  # digits 0 to 9, as in a reply
        if points is None:
            return page("move_confirm", status=400, error="Enter a number of points.")
        move = move.with_number(ask, points)
    plan_form = _plan_form(asked, None, request.POST)
    plan_words = plan_form.words() if plan_form is not None and plan_form.is_valid() else ""
    plan_problem = ""
    # The discard and its plan in one transaction: a turn the discard starts and the plan
    # answers owes no email.
    with transaction.atomic():
        try:
            result = game_services.submit_move(
                game,
                link.seat,
                move,
                expected_seq=link.seq,
                source=Event.Source.LINK,
                idempotency_key=_idempotency_key(token),
                actor=seat.player,
            )
        except game_services.MoveRefused as exc:  # stale, or no longer legal
            stale = exc
        else:
            stale = None
            if plan_words and not result.duplicate:
                plan_problem = _set_plan(result.game, link.seat, seat, plan_words, token)
    if stale is not None:
        # Made already, by this link or another way (a reply, the site, another email's link):
        # what was asked is done, so the answer is "already done", never a conflict.
        if (
            move_made_since(game, link.seat, link.seq, asked)
            or game.events.filter(idempotency_key=_idempotency_key(token)).exists()
        ):
            return _page(
                request,
                "move_stale",
                done=True,
                problem=f"{action}: already done.",
                **_fresh(game, link.seat, seat),
            )
        return _page(request, "move_stale", status=409, problem=stale.message, **_fresh(game, link.seat, seat))
    fresh = _fresh(result.game, link.seat, seat)
    return _page(
        request,
        "move_done",
        duplicate=result.duplicate,
        action=action,
        plan_problem=plan_problem,
        **{k: v for k, v in fresh.items() if k != "action"},
    )


def _plan_form(move, context, data=None):
    """With a discard link, a plan for the cards it keeps (PlanForm); None for any other move."""
    if move.kind != "discard":
        return None
    hand = context["view"].hand if context else None
    if context is None:
        return PlanForm(data, cards=[k[len("place_") :] for k in (data or {}) if k.startswith("place_")])
    return PlanForm(cards=[c for c in hand or [] if c not in move.cards])


def _set_plan(game, number, seat, words, token):
    """Set the plan the confirm page's form gave with the discard; the refusal in words, or ""."""
    try:
        game_services.submit_words(
            game,
            number,
            f"plan {words}",
            source=Event.Source.LINK,
            idempotency_key=_idempotency_key("plan:" + token),
            actor=seat.player,
        )
    except game_services.MoveRefused as exc:
        return exc.message
    return ""


def _fresh(game, number, seat):
    game.refresh_from_db()
    context = turn_story(game, number, seat.player, links=links).as_context()
    return {**context, "tracks": _tracks(context)}


def _tracks(context):
    return [{"name": row["name"], "score": row["score"], "previous": row["previous"]} for row in context["board"]]


@csrf_exempt
def unsubscribe(request, token):
    """RFC 8058: a POST (the mail client's one click, or our button) turns turn emails off; GET asks."""
    try:
        user = links.read_unsubscribe_token(token, User.objects.all())
    except links.BadToken as exc:
        return _page(request, "link_problem", status=400, problem=str(exc))
    if request.method == "POST":
        services.stop_turn_emails(user)
        return _page(request, "unsubscribed", user=user)
    return _page(request, "unsubscribe_confirm", user=user, token=token)


@csrf_exempt
def unsubscribe_events(request, token):
    """RFC 8058 for an announcement: a POST (one click, or our button) stops the organisers'
    announcements only; GET asks."""
    try:
        user = links.read_unsubscribe_token(token, User.objects.all(), salt=links.EVENTS_UNSUBSCRIBE_SALT)
    except links.BadToken as exc:
        return _page(request, "link_problem", status=400, problem=str(exc))
    if request.method == "POST":
        announcements.stop(user)
        return _page(request, "unsubscribed_events", user=user)
    return _page(request, "unsubscribe_events_confirm", user=user, token=token)
