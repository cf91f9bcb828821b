"""Reading the clock for the pages, replies and emails: a player's turns with a clock, the
vacation days spent for them, the games a digest lists; queried here and changed nowhere."""

from django.db import models
from django.utils import timezone

from accounts.models import VacationDay
from games import times
from games.models import Event, Game, Seat
from mail import links
from mail.selectors import waiting_games_for


def turns_of(user):
    """The seats where it is `user`'s turn in a game with a clock to stop (practice games have none)."""
    return list(
        Seat.objects.filter(player=user, to_act=True, game__status=Game.Status.ACTIVE, game__practice=False)
        .order_by("game_id")
        .only("pk", "game_id", "number")
    )


def turns_running_on(user, paused):
    """The games (ids) where it is `user`'s turn and the clock was not stopped by the vacation
    just started (`paused`: the games it stopped): their game allows no vacation, or no more."""
    return [seat.game_id for seat in turns_of(user) if seat.game_id not in set(paused)]


def days_spent(user, limit=30):
    """The automatic vacation days charged to `user`, latest first, each with the games it
    covered: [(VacationDay, [game ids])]."""
    spent = list(VacationDay.objects.filter(user=user)[:limit])
    covered = {}
    events = (
        Event.objects.filter(
            kind="vacation_day",
            game__seats__player=user,
            game__seats__number=models.F("seat"),
            data__day__in=[d.day.isoformat() for d in spent],
        )
        .values_list("data__day", "game_id")
        .order_by("game_id")
        .distinct()
    )
    for day, game_id in events:
        covered.setdefault(day, []).append(game_id)
    return [(d, covered.get(d.day.isoformat(), [])) for d in spent]


def digest_items(user, now=None):
    """The games waiting for `user`, most urgent first, as the digest lists them."""
    now = now or timezone.now()
    items = []
    for game in waiting_games_for(user).prefetch_related("seats__player"):
        seats = list(game.seats.all())
        mine = next(s for s in seats if s.player_id == user.pk)
        items.append(
            {
                "game_id": game.pk,
                "opponents": ", ".join(str(s) for s in seats if s.team != mine.team) or "your partner",
                "deadline": times.deadline_text(mine.deadline, user, now) if mine.deadline else "no deadline",
                "url": links.absolute(game.get_absolute_url()),
                "due": mine.deadline,
            }
        )
    return items
