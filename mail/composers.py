"""Composers of the outbox kinds whose causes are below mail (a move's turn and result emails,
games' challenges, accounts' invitations and the emails a person asks for on the site): each renders its row when it is sent (see mail.kinds):
in the send task (mail.services.send_outbound, the worker's), after the commit of its cause, never
in a request nor in the move's transaction."""

import logging

from accounts import emails, privacy, strangers
from accounts import services as accounts
from accounts.models import User
from games import reviews
from games.models import Challenge
from games.presenter.table_text import game_title
from games.selectors import game_with_seats, view_for

from . import kinds, links, messages, quiet, rendering
from .models import OutboundEmail

log = logging.getLogger(__name__)


def _game_seat(row):
    """The row's game and Seat (with its player), loaded once for the checks and the rendering."""
    game = game_with_seats(row.game_id)
    return game, next(s for s in game.seats.all() if s.number == row.seat)


def _turn_skip(row, game, seat):
    player = seat.player
    if game.is_finished or not seat.to_act or player is None or player.notify != player.Notify.EVERY_TURN:
        return "not needed any more"
    if (
        game.seq != row.seq
        and OutboundEmail.objects.filter(game_id=row.game_id, seat=row.seat, kind=row.kind, seq__gt=row.seq).exists()
    ):
        return "a newer turn email replaces it"
    return None


def turn_needed(row):
    game, seat = _game_seat(row)
    reason = _turn_skip(row, game, seat)
    if reason is None:
        # kinds.compose asks this check and then, at once, turn(row): it takes these from the row.
        row.__dict__["_turn_game_seat"] = game, seat
    return reason


def turn(row):
    checked = row.__dict__.pop("_turn_game_seat", None)  # turn_needed's, just before: checked
    if checked is None:
        game, seat = _game_seat(row)
        reason = _turn_skip(row, game, seat)
        if reason:
            return reason
    else:
        game, seat = checked
    known = row.__dict__.pop("_told_at_claim", None)  # mail.rows.claim's, when it read them
    told = quiet.told(seat) if known is None else quiet.told(seat, known[0], read=False)
    hold = told.hold()
    if hold is not None:
        # Not come back since the last one: this one waits, and then tells all that happened since.
        return kinds.Hold(hold)
    any_talk = True if known is None else known[1]
    return rendering.turn_message(game, row.seat, seat.player, seat_row=seat, told=told, any_talk=any_talk)


def result(row):
    game, seat = _game_seat(row)
    if seat.player is None:
        return "no one to send it to"
    _store_review(game)
    return rendering.result_message(game, row.seat, seat.player)


def _store_review(game):
    """The game-over email carries the review's figures every time: the send task usually comes
    before the review's own (games.reviews, a listener of game_finished), so it stores the review
    first when it is not stored yet (reviews.prepare: idempotent, one query when it is there; the
    answer to "review" does the same). If that fails the email still goes, offering the review
    without its figures."""
    try:
        reviews.prepare(game.pk)
    except Exception:
        log.exception("The review of game %s could not be stored; the game-over email goes without it.", game.pk)


def challenge_notice(row):
    challenge = Challenge.objects.select_related("challenger", "game").filter(pk=row.context["challenge"]).first()
    if challenge is None:
        return "the challenge is gone"
    kind = row.context["notice"]
    by = User.objects.filter(pk=row.context["by"]).first() if row.context.get("by") else None
    url = challenge.game.get_absolute_url() if kind == "accepted" and challenge.game else challenge.get_absolute_url()
    context = {
        "challenge": challenge,
        "to": row.user,
        "by": by,
        "url": links.absolute(url),
        "seats": [challenge.challenger] + [p.player for p in challenge.places.select_related("player")],
        # To an address no member has, no player's name leads the subject (no relay for their words).
        "member": strangers.is_member(row.user),
    }
    game_id = None
    if kind == "accepted" and challenge.game:  # the game's first email: in its thread, with its subject
        game_id = context["game_id"] = challenge.game.pk
        context["title"] = game_title(view_for(challenge.game))
    reply_to = None
    if kind == "challenge" and challenge.is_open:
        # The invited player may answer by replying "accept" or "decline" (mail.inbound).
        reply_to = context["reply_to"] = links.challenge_reply_address(challenge.pk, row.user.pk)
    return messages.build(
        f"games/email/challenge_{kind}", context, to=row.user.email, user=row.user, reply_to=reply_to, game_id=game_id
    )


def invitation(row):
    invited_by = User.objects.filter(pk=row.context["invited_by"]).first() if row.context.get("invited_by") else None
    context = accounts.invitation_context(
        row.user,
        invited_by,
        row.context.get("next_url", ""),
        invited_to=row.context.get("invited_to", ""),
        details=row.context.get("details", ""),
    )
    return messages.build("accounts/email/invitation", context, to=row.user.email, user=row.user)


def address_changed(row):
    """To the old address (the row's `to`), with the undo link made now."""
    context = privacy.undo_context(row.user, row.context["old"], row.context["new"])
    return messages.build("accounts/email/address_changed", context, to=row.to, user=row.user)


def asked(row):
    """An email a person asked for on the site (accounts.emails), its link made now; like every
    answer to a request, it carries no list headers."""
    context = emails.context(row.kind, row.user, row.context)
    return messages.build(f"accounts/email/{row.kind}", context, to=row.to, user=row.user, automatic=False)


def asked_needed(row):
    return emails.not_needed(row.kind, row.user, row.to)
