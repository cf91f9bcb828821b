"""Ratings on pages of the apps below (games): `{% load ratings %}`.

`{% rating_for user family %}` writes one player's rating; `{% seat_ratings game %}`
the rating of every seat of a game in its family, with one query.
"""

from django import template

from games.models import Seat
from games.selectors import seats_with_players
from ratings import selectors
from ratings.models import FAMILY_CHOICES

register = template.Library()

FAMILY_NAMES = dict(FAMILY_CHOICES)


@register.inclusion_tag("ratings/_rating.html")
def rating_for(user, family=selectors.OVERALL):
    return {"rating": selectors.rating_of(user, family) if user else None, "family": FAMILY_NAMES.get(family, "")}


@register.inclusion_tag("ratings/_seat_ratings.html")
def seat_ratings(game):
    """Each seat's rating in the game's family (a computer seat has none)."""
    family = selectors.family_of(game.variant)
    seats: list[Seat] = seats_with_players(game)
    ratings = selectors.ratings_of([s.player_id for s in seats if s.player_id], family)
    return {
        "game": game,
        "family": FAMILY_NAMES[family],
        "rows": [(seat, ratings.get(seat.player_id) if seat.player_id else None) for seat in seats],
    }


@register.inclusion_tag("ratings/_rating.html")
def variant_rating(user, variant):
    """`user`'s rating in the family of `variant` (a challenge's game)."""
    return rating_for(user, selectors.family_of(variant))


@register.simple_tag
def with_challenger_ratings(challenges):
    """[(challenge, the challenger's rating in its game's family)]: a query per family, not per row."""
    challenges = list(challenges)
    by_family: dict[str, dict] = {}
    for family in {selectors.family_of(c.variant) for c in challenges}:
        ids = [c.challenger_id for c in challenges if selectors.family_of(c.variant) == family]
        by_family[family] = selectors.ratings_of(ids, family)
    return [(c, by_family[selectors.family_of(c.variant)][c.challenger_id]) for c in challenges]
