"""No seat's view ever holds a card that seat could not see at the table."""

import random

import pytest

from games import cribbage, services
from games.selectors import record_for, view_for
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


def set_random_plan(game, seat, rng):
    """A plan of the seat's own cards in a random order, sometimes with rules; its words."""
    state = services.engine_state(game)
    held = [c.code for c in state.hands[seat]]
    rng.shuffle(held)
    words = " ".join(held[: rng.randint(1, len(held))])
    if rng.random() < 0.5:
        words = f"score first, on {rng.choice('A23456789TJQK')} play {held[0]}, " + words
    move = cribbage.read_plan(words)
    services.submit_move(game, seat, move, rng=rng)
    game.refresh_from_db()
    return cribbage.describe_move(move)


@pytest.mark.parametrize(
    "variant, muggins", [("two", False), ("three", False), ("four", False), ("five_card", False), ("two", True)]
)
def test_views_never_show_a_hidden_card_nor_another_seats_plan(variant, muggins):
    rng = random.Random(variant)
    all_codes = {c.code for c in cribbage.FULL_DECK}
    game = start_two_player_game(variant=variant, rng=rng, **({"target": 61, "muggins": True} if muggins else {}))
    checks = planned = 0
    while not game.is_finished:
        state = services.engine_state(game)
        plans = {}
        if state.phase in ("discard", "play"):
            for seat in range(state.rules.players):
                if state.hands[seat] and rng.random() < 0.3:
                    plans[seat] = set_random_plan(game, seat, rng)
            state = services.engine_state(game)
        for seat in [None, *range(state.rules.players)]:
            visible = (seen_by(state, seat) if seat is not None else seen_by_spectator(state)) | counted(state)
            seen = view_for(game, seat).to_json()  # everything it holds, as the pages and scripts get it
            leaked = _strings(seen) & (all_codes - visible)
            assert not leaked, f"seat {seat} sees {leaked} in phase {state.phase}"
            # A seat sees its own plan alone: not an opponent's, a partner's, nor (a spectator) any.
            assert seen.get("plan") == (cribbage.view(state, seat)["plan"] if seat is not None else None)
            for other, plan in plans.items():
                if other != seat:
                    assert plan not in repr(seen) and plan not in repr(record_for(game, seat))
            # Nor that one was made: the sequence a reader is shown skips the others' plans.
            assert seen["seq"] == last_seen_event(game, seat)
            checks += 1
        planned += len(plans)
        if cribbage.is_over(state) or not cribbage.to_act(state):
            break
        play_random_move(game, cribbage.to_act(state)[0], rng=rng)
        game.refresh_from_db()
    assert checks > 50 and planned > 10


def last_seen_event(game, seat):
    return max(e.seq for e in game.events.all() if e.kind != "plan" or e.seat == seat)


def counted(state):
    """Under muggins, the hand (or crib) being counted now lies face up on the table, and the
    last hand's show stays public (its crib can be mugged after the deal)."""
    shown = (
        {c.code for show in state.previous.shows for c in show.cards} | {state.previous.starter.code}
        if state.previous
        else set()
    )
    if state.phase != "show":
        return shown
    seat, what = cribbage.show_order(state)[state.show_next]
    return shown | {c.code for c in (state.crib if what == "crib" else state.kept[seat])}


def seen_by_spectator(state):
    seen = {p.card for p in state.plays if p.card} | {c for show in state.shows for c in show.cards}
    if state.starter:
        seen.add(state.starter)
    return {c.code for c in seen}
