"""A player's reliability: how many of their games over the last 90 days they lost on time.

Games finished in the window, practice apart, with the player at a seat; lost on time is a
forfeit for a timeout at the player's own seat (the clock's `forfeit` move, reason "timeout").
Chess.com's figure is the share lost on time; a floor is easier to read the other way round,
so the percent here is the share finished not on time ("98% reliable": a floor "at least 90%"),
and the pages say the count itself ("Lost 1 of 20 games on time in the last 90 days"). A player
with no finished game in the window has no figure (None): a floor never refuses a newcomer, who
has not yet let a game lapse.
"""

from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Exists, OuterRef
from django.utils import timezone

from games.models import Event, Game, Seat

WINDOW = timedelta(days=90)


@dataclass(frozen=True, slots=True)
class Reliability:
    """Games lost on time out of the games finished in the window."""

    lost: int = 0
    games: int = 0

    @property
    def percent(self) -> int | None:
        """The share not lost on time, in percent; None with no game in the window."""
        return round(100 * (self.games - self.lost) / self.games) if self.games else None

    @property
    def words(self) -> str:
        """The figure in plain words: "lost 1 of 20 games on time in the last 90 days"."""
        if not self.games:
            return "finished no game in the last 90 days"
        games = f"{self.games} game{'s' if self.games != 1 else ''}"
        if not self.lost:
            return f"lost none of {games} on time in the last 90 days"
        return f"lost {self.lost} of {games} on time in the last 90 days"

    def below(self, floor) -> bool:
        """Under a floor (percent)? Never with no floor, nor with no figure."""
        return bool(floor) and self.percent is not None and self.percent < floor


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


def reliability_figures(players, now=None) -> dict[int, Reliability]:
    """{player id: Reliability} for `players` (users or ids) in one query."""
    ids = {p if isinstance(p, int) else p.pk for p in players if p is not None}
    counts = {pid: [0, 0] for pid in ids}
    for player_id, on_time in _finished_seats(ids, now).values_list("player_id", "on_time"):
        counts[player_id][0] += 1
        counts[player_id][1] += on_time
    return {pid: Reliability(lost=lost, games=games) for pid, (games, lost) in counts.items()}


def reliability_figure(player, now=None) -> Reliability:
    return reliability_figures([player], now)[player if isinstance(player, int) else player.pk]


def reliability_of(player, now=None) -> int | None:
    """The percent not lost on time, or None."""
    return reliability_figure(player, now).percent


def below_floor(player, floor, now=None) -> str:
    """Why `player` is under a reliability `floor` (percent), or "" if they are not (or no floor)."""
    if not floor:
        return ""
    figure = reliability_figure(player, now)
    if not figure.below(floor):
        return ""
    return (
        f"It asks for a reliability of at least {floor}%: yours is {figure.percent}% "
        f"({figure.lost} of your {figure.games} games finished in the last 90 days were lost on time)."
    )
