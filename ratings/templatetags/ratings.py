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
def with_challenger_ratings(challenges, rating_from=None, rating_to=None):
    """[(challenge, the challenger's rating in its game's family)], only those rated from
    `rating_from` to `rating_to` when given (the seek board's filter): a query per family."""
    return selectors.challengers_rated(challenges, rating_from, rating_to)
