"""Reading ratings for pages: one player's, many players' at once, a player's history.

Every rating is returned as an arithmetic.Shown (value ± uncertainty, games);
a player with no rated game in a family shows the new player's rating.
"""

from ratings.arithmetic import FAMILIES, NEW, OVERALL, Shown, Skill, family_of, shown
from ratings.models import Rating, RatingChange

__all__ = ["rating_of", "ratings_of", "ratings_for", "history", "family_of", "OVERALL", "FAMILIES"]


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


def ratings_for(user) -> dict[str, Shown]:
    """`user`'s overall rating and each family they have played rated games in, overall first."""
    rows = {row.family: row.shown for row in Rating.objects.filter(player=user)}
    out = {OVERALL: rows.get(OVERALL, shown(NEW))}
    out.update((family, rows[family]) for family in FAMILIES if family in rows)
    return out


def history(user, family=OVERALL):
    """(when, Shown after the game) for each rated game of `user` in `family`, oldest first."""
    changes = RatingChange.objects.filter(player=user, family=family).order_by("finished_at", "game_id")
    return [
        (finished_at, shown(Skill(mu, sigma)))
        for finished_at, mu, sigma in changes.values_list("finished_at", "mu_after", "sigma_after")
    ]


def _id(user):
    return user if isinstance(user, int) else user.pk
