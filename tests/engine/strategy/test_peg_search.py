"""The expert's pegging search: exact play-outs that agree with the engine's own scoring."""

import random

import pytest

from games.cribbage import apply, deal_event, legal_moves, new_game, rules_for, seat_view, to_act, view
from games.cribbage.cards import card_from_code
from games.cribbage.strategy.knowledge import table_from_plays, table_from_view
from games.cribbage.strategy.peg_search import PASSED_UP, opponent_hands, passed_up, play_out, search_plays
from games.cribbage.strategy.players import choose_move


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
    table = table_from_view(seat_view(state, me), me)
    mine = tuple(sorted(c.rank for c in table.hand))
    theirs = tuple(sorted(c.rank for c in state.hands[1 - me]))
    count_ranks = tuple(c.rank for c in table.count_cards)
    count = sum(c.value for c in table.count_cards)
    best = max(play_out(mine, theirs, count_ranks, r, table.one_go) for r in set(mine) if count + min(r, 10) <= 31)
    assert best == engine_minimax(state, me)


def test_opponent_hands_respect_their_goes_and_weigh_what_experts_keep():
    state = position(3, "two")
    me = to_act(state)[0]
    table = table_from_view(seat_view(state, me), me)
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
    table = table_from_view(seat_view(state, me), me)
    values = search_plays(table)
    count = sum(c.value for c in table.count_cards)
    assert set(values) == {c for c in table.hand if count + c.value <= 31}


def test_opponent_hands_weigh_the_whole_kept_pattern():
    state = position(3, "two")
    me = to_act(state)[0]
    table = table_from_view(seat_view(state, me), me)
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


def table_after(plays, kept, **rules):
    """Seat 0's table (the dealer) after view-style ``plays`` of (seat, code) in one count."""
    entries, count = [], 0
    for seat, code in plays:
        count += card_from_code(code).value
        entries.append({"seat": seat, "card": code, "count": count, "round": 0})
    table = table_from_plays(
        players=2, seat=0, kept=[card_from_code(c) for c in kept], known=[], plays=entries, round=0, **rules
    )
    return table._replace(dealer=0)


def test_the_cards_laid_are_kept_with_the_count_before_each():
    table = table_after([(1, "4H"), (0, "6C"), (1, "9D")], ["6C", "8H", "QD", "2S"])
    assert table.laid == ((1, (), 4), (0, (4,), 6), (1, (4, 6), 9))
    assert table.played == ((6,), (4, 9))
    state = position(7, "two")
    me = to_act(state)[0]
    v = view(state, me)
    laid = table_from_view(seat_view(state, me), me).laid
    assert [rank for _, _, rank in laid] == [card_from_code(p["card"]).rank for p in v["plays"] if p["card"]]
    assert all(sum(min(r, 10) for r in count) + min(rank, 10) <= 31 for _, count, rank in laid)


def test_a_hand_that_would_have_pegged_more_is_less_likely():
    # The pone laid a nine on ten (a five made fifteen), then a three on 21 (a ten-card made
    # 31): one card left, each rank listed with its weight.
    plays = [(1, "4H"), (0, "6C"), (1, "9D"), (0, "2S"), (1, "3C")]
    table = table_after(plays, ["6C", "2S", "8H", "QD"])
    seen = dict(opponent_hands(table, 1, random.Random(1)))
    blind = dict(opponent_hands(table._replace(laid=()), 1, random.Random(1)))
    for better in ((5,), (13,)):
        assert seen[better] / seen[(7,)] == pytest.approx(PASSED_UP * blind[better] / blind[(7,)])
    # The five they laid later was in their hand at ten: that choice says nothing of the rest;
    # the five laid on 21 passed up a pair of twos and 31.
    later = table_after([(1, "4H"), (0, "6C"), (1, "9D"), (0, "2S"), (1, "5C")], ["6C", "2S", "8H", "QD"])
    assert passed_up(later, 1) == [frozenset({2, 10, 11, 12, 13})]
