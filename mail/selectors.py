"""Reading for mail: what the emails list, queried here and changed nowhere."""

from django.db.models import F

from games.models import Game


def waiting_games_for(user):
    """The active games where `user` must act, most urgent deadline first (for the daily digest)."""
    return (
        Game.objects.filter(status=Game.Status.ACTIVE, seats__player=user, seats__to_act=True)
        .order_by(F("seats__deadline").asc(nulls_last=True), "pk")
        .distinct()
    )
