"""Simultaneous moves on real PostgreSQL: exactly the legal ones land, no fork, no gap."""

import pytest

from games import cribbage, services
from games.management.commands.verify_games import replay_problem
from games.models import Game
from tests.factories import at_once, start_two_player_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_many_threads_submitting_to_one_game_never_fork_the_log():
    game = start_two_player_game()
    rounds = 0
    while not game.is_finished and rounds < 40:
        rounds += 1
        state = services.engine_state(game)
        seq = game.seq
        calls = []
        # Every seat tries every legal move at once, twice over, against the same state.
        for seat in range(2):
            for move in cribbage.legal_moves(state, seat)[:4] * 2:
                calls.append(
                    lambda seat=seat, move=move, seq=seq: services.submit_move(
                        Game.objects.get(pk=game.pk), seat, move, expected_seq=seq
                    )
                )
        outcomes = at_once(*calls)
        landed = [o for o in outcomes if isinstance(o, services.MoveResult) and not o.duplicate]
        refused = [o for o in outcomes if isinstance(o, services.MoveRefused)]
        assert len(landed) + len(refused) == len(calls), [o for o in outcomes if o not in landed + refused]
        game.refresh_from_db()
        acting_before = cribbage.to_act(state)
        # In the play one move lands; in the discard each seat's first throw can land.
        assert 1 <= len(landed) <= len(acting_before)
        seqs = list(game.events.order_by("seq").values_list("seq", flat=True))
        assert seqs == list(range(1, game.seq + 1))
        # The seats' cached turns follow the snapshot: a move that waited for the lock
        # read the seats as the move before it left them.
        acting = set(cribbage.to_act(services.engine_state(game)))
        assert set(game.seats.filter(to_act=True).values_list("number", flat=True)) == acting
    assert replay_problem(game) is None


def test_the_same_email_delivered_twice_at_once_moves_once():
    game = start_two_player_game()
    move = cribbage.legal_moves(services.engine_state(game), 0)[0]
    outcomes = at_once(
        *[
            lambda: services.submit_move(Game.objects.get(pk=game.pk), 0, move, idempotency_key="<m1@x>")
            for _ in range(6)
        ]
    )
    assert sum(1 for o in outcomes if isinstance(o, services.MoveResult) and not o.duplicate) == 1
    assert all(isinstance(o, services.MoveResult) for o in outcomes)
    assert game.events.filter(kind="discard").count() == 1
