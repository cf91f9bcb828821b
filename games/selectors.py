"""Reading games: every page, email and JSON is rendered from these views.

A view holds only what one person may know at the table (the engine's
`view`), plus who sits where. Raw engine state never leaves this module.
"""
from django.db.models import Case, IntegerField, Prefetch, When

from games import cribbage
from games.models import Event, Game, Seat


def seat_of(game, user):
    """The seat `user` holds in `game`, or None (a spectator)."""
    if user is None or not user.is_authenticated:
        return None
    for seat in game.seats.all():
        if seat.player_id == user.pk:
            return seat
    return None


def view_for(game, seat=None):
    """What seat number `seat` (None: a spectator) may see of `game`, as plain data."""
    state = cribbage.state_from_json(game.snapshot)
    view = cribbage.view(state, seat)
    seats = list(game.seats.all())
    return {
        **view,
        "game_id": game.pk,
        "seq": game.seq,
        "variant": game.variant,
        "variant_label": game.get_variant_display(),
        "target": game.target,
        "muggins": game.muggins,
        "status": game.status,
        "viewer": seat,
        "players": [
            {"seat": s.number, "name": str(s), "team": s.team, "is_computer": s.is_computer,
             "to_act": s.to_act, "deadline": s.deadline}
            for s in seats
        ],
        "legal_moves": cribbage.legal_moves(state, seat) if seat is not None and not game.is_finished else [],
    }


def games_for(user):
    """The player's games: their turn first, then the others, then finished ones."""
    mine = Seat.objects.filter(player=user)
    return (
        Game.objects.filter(seats__in=mine)
        .annotate(
            order=Case(
                When(status=Game.Status.FINISHED, then=2),
                When(seats__in=mine.filter(to_act=True), then=0),
                default=1,
                output_field=IntegerField(),
            )
        )
        .order_by("order", "-updated_at")
        .distinct()
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
    )


def record_for(game, seat=None):
    """The game's record as `seat` may read it: every event, hidden cards left out.

    Deals show only the reader's own cards and discards only their own throw;
    plays, counts and the show were public at the table.
    """
    entries = []
    for event in Event.objects.filter(game=game).order_by("seq"):
        entries.append({
            "seq": event.seq,
            "at": event.created_at.isoformat(),
            "source": event.source,
            **cribbage.public_event(event.data, seat),
        })
    return {"game_id": game.pk, "variant": game.variant, "target": game.target,
            "players": [str(s) for s in game.seats.all()], "events": entries,
            "result": _result(game)}


def _result(game):
    if not game.is_finished:
        return None
    return {"winner_side": game.winner_side, "finish": game.finish, "skunk": game.skunk or None}
