"""The clock's notices, owed in the transaction that makes them owed: out of time (a claim
offer, or a second period), the computer standing in, a vacation day spent, an opponent away
or back. One outbox row per recipient (mail.outbox), rendered when sent (clock.emails).

Each key names the clock change it tells of, so telling it twice owes one email.
"""

from games.models import Game, Seat
from mail import outbox
from mail.models import OutboundEmail

Kind = OutboundEmail.Kind


def _recipients(seats, about_seat, only=None):
    for seat in seats:
        if seat.is_computer or seat.player is None or not seat.player.wants_email:
            continue
        if only == "others" and seat.number == about_seat:
            continue
        if only == "self" and seat.number != about_seat:
            continue
        yield seat


def _tell(kind, game_id, about_seat, key, context=None, only=None, seats=None):
    """Owe `kind` about seat number `about_seat` of game `game_id` to its players (`only`:
    "self" or "others")."""
    if seats is None:
        seats = Seat.objects.filter(game_id=game_id).select_related("player").order_by("number")
    rows = [
        outbox.owed(
            kind,
            seat.player,
            f"{game_id}:{about_seat}:{key}:{seat.number}",
            context={"about_seat": about_seat, **(context or {})},
            game_id=game_id,
            seat=seat.number,
        )
        for seat in _recipients(seats, about_seat, only)
    ]
    return len(outbox.write(rows))


def owe_claim_offer(game_id, seat_number, only=None, timed_out_at=None):
    """Out of time: the opponents may claim (opponent_chooses), and the player is told how long is left."""
    stamp = timed_out_at.isoformat() if timed_out_at else "now"
    return _tell(Kind.CLAIM_OFFER, game_id, seat_number, f"{stamp}:{only or 'all'}", only=only)


def owe_stand_in(game_id, seat_number, move, seq):
    """The computer made `move` for the absent player (the game's state is `seq` after it)."""
    return _tell(Kind.STAND_IN, game_id, seat_number, seq, context={"move": move}, only="self")


def owe_vacation_day(game_id, seat_number, seq):
    """A vacation day kept the game going (the clock event is `seq`)."""
    return _tell(Kind.VACATION_DAY, game_id, seat_number, seq, only="self")


def owe_vacation_notices(user_id, what, vacation_id=None, *, send=True):
    """Tell the opponents in every active game of `user_id` that they went away ("start") or came
    back: how many. `send=False`: the keys, for the caller to queue them (mail.outbox.queue)
    once the clocks are changed, so that they tell the new deadlines."""
    seats = list(
        Seat.objects.filter(game__status=Game.Status.ACTIVE, game__seats__player_id=user_id)
        .select_related("player")
        .order_by("game_id", "number")
    )
    rows = []
    for game_id in dict.fromkeys(seat.game_id for seat in seats):
        mine = next(seat for seat in seats if seat.game_id == game_id and seat.player_id == user_id)
        for seat in _recipients([s for s in seats if s.game_id == game_id], mine.number, only="others"):
            rows.append(
                outbox.owed(
                    Kind.VACATION_NOTICE,
                    seat.player,
                    f"{user_id}:{what}:{vacation_id}:{game_id}:{seat.number}",
                    context={"about_seat": mine.number, "away": user_id, "what": what},
                    game_id=game_id,
                    seat=seat.number,
                )
            )
    keys = outbox.write(rows, send=send)
    return len(keys) if send else keys
