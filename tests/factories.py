"""Tiny helpers to make test data. Keep them general: every app's tests use them."""
import itertools

from accounts.models import User

_numbers = itertools.count(1)


def make_user(email=None, display_name=None, password="pw-Secret-123", **fields):
    """A saved player who can log in with ``password`` (None: no usable password).

    Unless told otherwise the address is unique and already confirmed.
    """
    n = next(_numbers)
    fields.setdefault("email_confirmed", True)
    return User.objects.create_user(email or f"player{n}@example.com", password,
                                    display_name=display_name or f"Player {n}", **fields)


def start_two_player_game(variant="two", players=None, rng=None, **settings):
    """A dealt game between new players (as many as the variant seats)."""
    import random

    from games import services
    from games.models import SEATS_BY_VARIANT

    if players is None:
        players = [make_user(allow_forced_moves=False) for _ in range(SEATS_BY_VARIANT[variant])]
    return services.start_game(players=players, variant=variant, rng=rng or random.Random(1), **settings)


def play_random_move(game, seat, rng=None, **kwargs):
    """Submit one random legal move for `seat` through the move service."""
    import random

    from games import cribbage, services

    legal = cribbage.legal_moves(services.engine_state(game), seat)
    move = (rng or random).choice(legal)
    return services.submit_move(game, seat, move, rng=rng, **kwargs)
