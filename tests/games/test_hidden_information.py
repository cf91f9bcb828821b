"""No seat's view ever holds a card that seat could not see at the table."""
import random

import pytest

from games import cribbage, services
from games.selectors import view_for
from tests.factories import play_random_move, start_two_player_game

pytestmark = pytest.mark.django_db

# Cards from the cut for deal and the previous hand were public then and may be
# dealt again now: they are checked by the engine's own tests, not here.
EARLIER_HANDS = {"cuts", "previous_hand", "rules"}


def _strings(value):
    if isinstance(value, dict):
        return {s for k, v in value.items() if k not in EARLIER_HANDS for s in _strings(v)}
    if isinstance(value, (list, tuple)):
        return {s for v in value for s in _strings(v)}
    return {value} if isinstance(value, str) else set()


def seen_by(state, seat):
    """Codes of the cards `seat` has seen in the current hand."""
    seen = set(state.hands[seat]) | set(state.kept[seat]) | set(state.discards[seat]) if state.hands else set()
    seen |= {p.card for p in state.plays if p.card}
    seen |= {c for show in state.shows for c in show.cards}
    if state.starter:
        seen.add(state.starter)
    return {c.code for c in seen}


@pytest.mark.parametrize("variant", ["two", "three", "four", "five_card"])
def test_views_never_show_a_hidden_card(variant):
    rng = random.Random(variant)
    all_codes = {c.code for c in cribbage.FULL_DECK}
    game = start_two_player_game(variant=variant, rng=rng)
    checks = 0
    while not game.is_finished:
        state = services.engine_state(game)
        for seat in [None, *range(state.rules.players)]:
            visible = seen_by(state, seat) if seat is not None else seen_by_spectator(state)
            leaked = _strings(view_for(game, seat)) & (all_codes - visible)
            assert not leaked, f"seat {seat} sees {leaked} in phase {state.phase}"
            checks += 1
        play_random_move(game, cribbage.to_act(state)[0], rng=rng)
        game.refresh_from_db()
    assert checks > 50


def seen_by_spectator(state):
    seen = {p.card for p in state.plays if p.card} | {c for show in state.shows for c in show.cards}
    if state.starter:
        seen.add(state.starter)
    return {c.code for c in seen}
