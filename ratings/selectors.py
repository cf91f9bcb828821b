"""Reading ratings for pages: one player's, many players' at once, a player's history.

Every rating is returned as an arithmetic.Shown (value ± uncertainty, games);
a player with no rated game in a family shows the new player's rating.
"""

from datetime import timedelta

from django.db.models import F
from django.utils import timezone

from ratings.arithmetic import FAMILIES, NEW, OVERALL, Shown, Skill, family_of, shown
from ratings.models import Rating, RatingChange

# A player is active in a family with a rated game of it finished in this window (the leaderboards).
ACTIVE_WINDOW = timedelta(days=90)

__all__ = [
    "rating_of",
    "ratings_of",
    "ratings_for",
    "history",
    "challengers_rated",
    "leaderboard",
    "family_of",
    "OVERALL",
    "FAMILIES",
]


def rating_of(user, family=OVERALL) -> Shown:
    """`user`'s rating in `family` (OVERALL or one of FAMILIES): one query."""
    return ratings_of([user], family)[_id(user)]


def ratings_of(users, family=OVERALL) -> dict[int, Shown]:
    """{user id: Shown} for `users` (users or ids) in `family`: one query for them all."""
    ids = {_id(user) for user in users if user is not None}
    found = {
        player: shown(Skill(mu, sigma), games)
        for player, mu, sigma, games in Rating.objects.filter(player_id__in=ids, family=family).values_list(
            "player_id", "mu", "sigma", "games"
        )
    }
    return {player: found.get(player, shown(NEW)) for player in ids}


def challengers_rated(challenges, rating_from=None, rating_to=None) -> list[tuple[object, Shown]]:
    """[(challenge, its challenger's rating in its game's family)] for the challenges whose
    challenger's shown rating lies in [rating_from, rating_to] (either end open): a query per
    family, not per challenge. The order of `challenges` is kept."""
    challenges = list(challenges)
    by_family: dict[str, dict[int, Shown]] = {}
    for family in {family_of(c.variant) for c in challenges}:
        ids = [c.challenger_id for c in challenges if family_of(c.variant) == family]
        by_family[family] = ratings_of(ids, family)
    rated = [(c, by_family[family_of(c.variant)][c.challenger_id]) for c in challenges]
    return [
        (c, rating)
        for c, rating in rated
        if (rating_from is None or rating.value >= rating_from) and (rating_to is None or rating.value <= rating_to)
    ]


def ratings_for(user) -> dict[str, Shown]:
    """`user`'s overall rating and each family they have played rated games in, overall first."""
    rows = {row.family: row.shown for row in Rating.objects.filter(player=user)}
    out = {OVERALL: rows.get(OVERALL, shown(NEW))}
    out.update((family, rows[family]) for family in FAMILIES if family in rows)
    return out


def leaderboard(family, now=None):
    """The active players of `family` (a rated game of it finished in the last ACTIVE_WINDOW),
    best shown rating first (mu - 3 sigma: what the pages show), then more games, then the name:
    Rating rows with their players, for a page to slice. Players who keep their page private,
    and closed accounts, are left out."""
    since = (now or timezone.now()) - ACTIVE_WINDOW
    return (
        Rating.objects.filter(
            family=family, games__gt=0, updated_at__gte=since, player__is_active=True, player__profile_public=True
        )
        .select_related("player")
        .order_by((F("mu") - 3 * F("sigma")).desc(), "-games", "player__display_name", "player_id")
    )


def history(user, family=OVERALL):
    """(when, Shown after the game) for each rated game of `user` in `family`, oldest first."""
    changes = RatingChange.objects.filter(player=user, family=family).order_by("finished_at", "game_id")
    return [
        (finished_at, shown(Skill(mu, sigma)))
        for finished_at, mu, sigma in changes.values_list("finished_at", "mu_after", "sigma_after")
    ]


def _id(user):
    return user if isinstance(user, int) else user.pk
