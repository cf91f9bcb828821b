"""The expert's pegging search: exact play-outs that agree with the engine's own scoring."""

import random

import pytest

from games.cribbage import apply, deal_event, legal_moves, new_game, rules_for, to_act, view
from games.cribbage.knowledge import _table_from_view
from games.cribbage.peg_search import opponent_hands, play_out, search_plays
from games.cribbage.players import choose_move


def engine_minimax(state, me):
    """Best net play points for `me` over the rest of the play, both hands open, by the engine."""
    if state.phase != "play":
        return 0
    seat = to_act(state)[0]
    values = []
    for m in legal_moves(state, seat):
        if m["kind"] != "play":
            continue
        before = len(state.records)
        after = apply(state, {**m, "seat": seat})
        gain = sum(r.points if r.seat == me else -r.points for r in after.records[before:] if r.phase == "play")
        values.append(gain + engine_minimax(after, me))
    return max(values) if seat == me else min(values)


def position(seed, variant):
    rng = random.Random(seed)
    state = new_game(rules_for(variant, target=999), first_dealer=seed % 2)
    state = apply(state, deal_event(state, rng))
    while state.phase == "discard":
        seat = to_act(state)[0]
        state = apply(state, {**choose_move(state, seat, "standard", rng), "seat": seat})
    for _ in range(rng.randint(0, 3)):
        seat = to_act(state)[0]
        plays = [m for m in legal_moves(state, seat) if m["kind"] == "play"]
        state = apply(state, {**rng.choice(plays), "seat": seat})
    return state


@pytest.mark.parametrize("seed", range(12))
def test_play_out_equals_the_engine_with_both_hands_known(seed):
    state = position(seed, "five_card" if seed % 3 == 0 else "two")
    if state.phase != "play":
        pytest.skip("the play ended early")
    me = to_act(state)[0]
    table = _table_from_view(view(state, me), me)
    mine = tuple(sorted(c.rank for c in table.hand))
    theirs = tuple(sorted(c.rank for c in state.hands[1 - me]))
    count_ranks = tuple(c.rank for c in table.count_cards)
    count = sum(c.value for c in table.count_cards)
    best = max(play_out(mine, theirs, count_ranks, r, table.one_go) for r in set(mine) if count + min(r, 10) <= 31)
    assert best == engine_minimax(state, me)


def test_opponent_hands_respect_their_goes_and_weigh_what_experts_keep():
    state = position(3, "two")
    me = to_act(state)[0]
    table = _table_from_view(view(state, me), me)
    hands = opponent_hands(table._replace(floor=(6, 6)), 1 - me, random.Random(1))
    assert all(min(r, 10) > 6 for hand, _ in hands for r in hand)
    assert sum(w for _, w in hands) == pytest.approx(1)
    # One card left among few candidates: every rank listed, fives (kept by a pone nearly
    # always) weighed above kings (usually thrown by the pone).
    one = table._replace(held=(1, 1), floor=(0, 0), dealer=me)
    weights = dict(opponent_hands(one, 1 - me, random.Random(1)))
    assert weights[(5,)] / weights[(13,)] > 2


def test_search_values_every_playable_card():
    state = position(5, "two")
    me = to_act(state)[0]
    table = _table_from_view(view(state, me), me)
    values = search_plays(table)
    count = sum(c.value for c in table.count_cards)
    assert set(values) == {c for c in table.hand if count + c.value <= 31}


def test_opponent_hands_weigh_the_whole_kept_pattern():
    state = position(3, "two")
    me = to_act(state)[0]
    table = _table_from_view(view(state, me), me)
    opp = 1 - me
    # A pone that led a five nearly always kept another five or cards that go with it; a pone
    # that led a king had no five to keep it company as often: the same last card, told apart
    # by what was played with it.
    base = table._replace(held=(1, 1), floor=(0, 0), dealer=me, played=((), ()))
    with_five = dict(
        opponent_hands(
            base._replace(played=tuple((5, 5, 6) if s == opp else () for s in (0, 1))), opp, random.Random(1)
        )
    )
    with_kings = dict(
        opponent_hands(
            base._replace(played=tuple((13, 13, 12) if s == opp else () for s in (0, 1))), opp, random.Random(1)
        )
    )
    assert sum(with_five.values()) == pytest.approx(1)
    assert with_five[(4,)] > with_kings[(4,)]
