"""What games keeps about a player, for their download and for the deletion of their account
(accounts.signals.own_data / account_deleting, connected in GamesConfig.ready())."""

from games import selectors
from games.models import ChallengePlace, Mute, Note, Seat, TableMessage


def _iso(value):
    return value.isoformat() if value else None


def own_data(sender, user, **kwargs):
    """The player's games (each with its record as their seat saw it), notes and table talk."""
    games = []
    for seat in Seat.objects.filter(player=user).select_related("game").order_by("game_id"):
        game = seat.game
        games.append(
            {
                "game": game.pk,
                "seat": seat.number,
                "variant": game.variant,
                "target": game.target,
                "status": game.status,
                "started_at": _iso(game.created_at),
                "finished_at": _iso(game.finished_at),
                "finish": game.finish,
                "winner_side": game.winner_side,
                "my_side": seat.team,
                "players": [str(s) for s in selectors.seats_with_players(game)],
                "record": selectors.record_for(game, seat.number),
            }
        )
    notes = [
        {"game": n.game_id, "text": n.text, "updated_at": _iso(n.updated_at)}
        for n in Note.objects.filter(player=user).order_by("game_id")
    ]
    talk = [
        {"game": m.game_id, "text": m.text, "said_at": _iso(m.created_at), "by": m.source}
        for m in TableMessage.objects.filter(author=user).order_by("created_at")
    ]
    muted = [str(m.muted) for m in Mute.objects.filter(player=user).select_related("muted")]
    return {"games": games, "notes": notes, "table_talk": talk, "muted": muted}


def account_deleting(sender, user, email, **kwargs):
    """The player's notes, messages and mutes go; their seats and moves stay (the logs replay);
    the address they were invited at is forgotten."""
    Note.objects.filter(player=user).delete()
    TableMessage.objects.filter(author=user).delete()
    TableMessage.objects.filter(reported_by=user).update(reported_by=None)
    Mute.objects.filter(player=user).delete()
    Mute.objects.filter(muted=user).delete()
    ChallengePlace.objects.filter(invited_email__iexact=email).update(invited_email="")
