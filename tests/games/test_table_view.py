"""The typed view of a game (games.selectors.TableView) gives, as JSON, exactly the plain data the
view was before it was typed: the same keys, in the same order, with the same values, byte for byte.
"""

import json
import random

import pytest
from django.core.serializers.json import DjangoJSONEncoder

from games import cribbage, services
from games.selectors import PlayerAtTable, TableView, seats_with_players, view_for
from tests.factories import play_random_move, start_two_player_game

pytestmark = pytest.mark.django_db


def the_dict_it_was(game, seat):
    """The view as `view_for` built it as a dict, before TableView."""
    state = cribbage.state_from_json(game.snapshot)
    seats = seats_with_players(game)
    reader = next((s for s in seats if s.number == seat), None) if seat is not None else None
    return {
        **cribbage.view(state, seat),
        "game_id": game.pk,
        "seq": game.seen_seq(reader),
        "variant": game.variant,
        "variant_label": game.get_variant_display(),
        "target": game.target,
        "muggins": game.muggins,
        "status": game.status,
        "viewer": seat,
        "players": [
            {
                "seat": s.number,
                "name": str(s),
                "team": s.team,
                "is_computer": s.is_computer,
                "to_act": s.to_act,
                "deadline": s.deadline,
            }
            for s in seats
        ],
        "legal_moves": cribbage.moves_to_offer(state, seat) if seat is not None and not game.is_finished else [],
    }


def as_bytes(data):
    return json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False).encode()


@pytest.mark.parametrize(
    "variant, options, moves",
    [
        ("two", {"target": 61, "muggins": True}, 400),  # to the end: the show, muggins, the result
        ("two", {}, 60),
        ("three", {}, 50),
        ("four", {}, 50),
        ("five_card", {}, 50),
    ],
)
def test_the_typed_view_gives_the_json_it_gave_as_a_dict(variant, options, moves):
    rng = random.Random(variant)
    game = start_two_player_game(variant=variant, rng=rng, **options)
    phases = set()
    for _ in range(moves):
        for seat in [None, *range(len(game.seats.all()))]:
            typed = view_for(game, seat)
            assert isinstance(typed, TableView) and all(isinstance(p, PlayerAtTable) for p in typed.players)
            assert as_bytes(typed.to_json()) == as_bytes(the_dict_it_was(game, seat))
            phases.add(typed.phase)
        if game.is_finished:
            break
        state = services.engine_state(game)
        play_random_move(game, cribbage.to_act(state)[0], rng=rng)
        game.refresh_from_db()
    assert {"discard", "play"} <= phases
    if moves == 400:
        assert game.is_finished and "over" in phases
