"""A player's reliability: the share of their games lost on time over the last 90 days.

Games finished in the window, practice apart, with the player at a seat; lost on time is a
forfeit for a timeout at the player's own seat (the clock's `forfeit` move, reason "timeout").
Shown as the share of games finished not on time ("98% reliable"), so that a floor reads as
"at least 90%". A player with no finished game in the window has no figure (None): a floor
never refuses a newcomer, who has not yet let a game lapse.
"""

from datetime import timedelta

from django.db.models import Exists, OuterRef
from django.utils import timezone

from games.models import Event, Game, Seat

WINDOW = timedelta(days=90)


def _finished_seats(player_ids, now):
    since = (now or timezone.now()) - WINDOW
    lost_on_time = Event.objects.filter(
        game=OuterRef("game"), kind="forfeit", seat=OuterRef("number"), data__reason="timeout"
    )
    return Seat.objects.filter(
        player_id__in=player_ids,
        game__status=Game.Status.FINISHED,
        game__practice=False,
        game__finished_at__gte=since,
    ).annotate(on_time=Exists(lost_on_time))


def reliabilities(players, now=None) -> dict[int, int | None]:
    """{player id: percent of games in the window not lost on time, or None} in one query."""
    ids = {p if isinstance(p, int) else p.pk for p in players if p is not None}
    counts = {pid: [0, 0] for pid in ids}
    for player_id, on_time in _finished_seats(ids, now).values_list("player_id", "on_time"):
        counts[player_id][0] += 1
        counts[player_id][1] += on_time
    return {pid: (round(100 * (games - lost) / games) if games else None) for pid, (games, lost) in counts.items()}


def reliability_of(player, now=None) -> int | None:
    return reliabilities([player], now)[player if isinstance(player, int) else player.pk]


def timeouts_of(player, now=None) -> tuple[int, int]:
    """(games lost on time, games finished) in the window."""
    rows = list(_finished_seats([player.pk], now).values_list("on_time", flat=True))
    return sum(rows), len(rows)


def below_floor(player, floor, now=None) -> str:
    """Why `player` is under a reliability `floor` (percent), or "" if they are not (or no floor)."""
    if not floor:
        return ""
    lost, games = timeouts_of(player, now)
    if not games:
        return ""
    share = round(100 * (games - lost) / games)
    if share >= floor:
        return ""
    return (
        f"It asks for a reliability of at least {floor}%: yours is {share}% "
        f"({lost} of your {games} games finished in the last 90 days were lost on time)."
    )
