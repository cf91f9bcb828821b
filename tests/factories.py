"""Factories shared by every test package: one place to make users and games."""
import itertools
import random

from django.contrib.auth import get_user_model

_numbers = itertools.count(1)

PASSWORD = "pw-Secret-123"


def make_user(email=None, display_name=None, password=PASSWORD, **fields):
    n = next(_numbers)
    fields.setdefault("email_confirmed", True)
    return get_user_model().objects.create_user(
        email or f"player{n}@example.com", password, display_name=display_name or f"Player {n}", **fields
    )


def start_two_player_game(variant="two", players=None, rng=None, **settings):
    """A dealt game between new players (as many as the variant seats)."""
    from games import services
    from games.models import SEATS_BY_VARIANT

    if players is None:
        players = [make_user(allow_forced_moves=False) for _ in range(SEATS_BY_VARIANT[variant])]
    return services.start_game(players=players, variant=variant, rng=rng or random.Random(1), **settings)


def play_random_move(game, seat, rng=None, **kwargs):
    """Submit one random legal move for `seat` through the move service."""
    from games import cribbage, services

    legal = cribbage.legal_moves(services.engine_state(game), seat)
    move = (rng or random).choice(legal)
    return services.submit_move(game, seat, move, rng=rng, **kwargs)
