"""The pegging search of three and four players: play-outs the engine agrees with, and draws of
the other hands that keep to what the seat has seen."""

import dataclasses
import random

import pytest

from games.cribbage import apply, deal_event, legal_moves, new_game, rules_for, seat_view, to_act
from games.cribbage.cards import card_from_code
from games.cribbage.strategy.knowledge import table_from_plays, table_from_view
from games.cribbage.strategy.peg_search import PASSED_UP
from games.cribbage.strategy.peg_search_multi import MAX_CARDS, Search, in_reach, other_hands, search_plays
from games.cribbage.strategy.players import choose_move


def engine_line(state, search):
    """Points per side over the rest of the play, every seat playing its side's best net by
    the engine's own moves and scoring (lowest rank first among equals, as the search)."""
    if state.phase != "play":
        return (0,) * search.sides
    seat = to_act(state)[0]
    best = out = None
    plays = sorted((m for m in legal_moves(state, seat) if m["kind"] == "play"), key=lambda m: m["card"])
    seen = set()
    for m in sorted(plays, key=lambda m: _rank(m["card"])):
        if _rank(m["card"]) in seen:
            continue
        seen.add(_rank(m["card"]))
        before = len(state.records)
        after = apply(state, {**m, "seat": seat})
        line = list(engine_line(after, search))
        for r in after.records[before:]:
            if r.phase == "play":
                line[search.side(r.seat)] += r.points
        score = search.net(line, seat)
        if best is None or score > best:
            best, out = score, tuple(line)
    return out


def _rank(code):
    return "A23456789TJQK".index(code[0]) + 1


def position(seed, variant, left):
    """A play with at most ``left`` cards in the hands, the others played at random."""
    rng = random.Random(seed)
    state = new_game(rules_for(variant, target=999), first_dealer=seed % rules_for(variant).players)
    state = apply(state, deal_event(state, rng))
    while state.phase == "discard":
        seat = to_act(state)[0]
        state = apply(state, {**choose_move(state, seat, "standard", rng), "seat": seat})
    while state.phase == "play" and sum(len(h) for h in state.hands) > left:
        seat = to_act(state)[0]
        plays = [m for m in legal_moves(state, seat) if m["kind"] == "play"]
        state = apply(state, {**rng.choice(plays), "seat": seat})
    return state


@pytest.mark.parametrize("seed", range(10))
def test_play_out_equals_the_engine_with_every_hand_known(seed):
    variant = "three" if seed % 2 else "four"
    state = position(seed, variant, 7)
    if state.phase != "play":
        pytest.skip("the play ended early")
    me = to_act(state)[0]
    table = table_from_view(seat_view(state, me), me)
    hands = tuple(tuple(sorted(c.rank for c in h)) for h in state.hands)
    count_ranks = tuple(c.rank for c in table.count_cards)
    search = Search(table.players, table.partnerships)
    assert search.line(hands, count_ranks, me) == engine_line(state, search)


@pytest.mark.parametrize("variant", ["three", "four"])
def test_other_hands_respect_the_goes_and_the_cards_held(variant):
    for seed in range(20):
        state = position(seed, variant, MAX_CARDS)
        if state.phase != "play":
            continue
        me = to_act(state)[0]
        table = table_from_view(seat_view(state, me), me)
        floors = tuple(6 if s != me else 0 for s in range(table.players))
        draws = other_hands(table._replace(floor=floors), random.Random(seed), 24)
        assert sum(w for _, w in draws) == pytest.approx(1)
        unseen = sorted(c.rank for c in table.unseen)
        for hands, _ in draws:
            assert hands[me] == tuple(sorted(c.rank for c in table.hand))
            drawn = [r for s, h in enumerate(hands) if s != me for r in h]
            assert all(min(r, 10) > 6 for r in drawn)
            # Never more of a rank than the unseen cards have.
            assert all(drawn.count(r) <= unseen.count(r) for r in set(drawn))
            for s, h in enumerate(hands):
                if s != me:
                    assert len(h) == min(table.held[s], sum(1 for c in table.unseen if c.value > 6))


def _swap_hidden(state, seat, rng):
    """The same table for ``seat``, every other seat's unseen cards (the partner's too) and the
    undealt cards shuffled among themselves."""
    others = [s for s in range(state.rules.players) if s != seat]
    hidden = [c for s in others for c in state.hands[s]] + list(state.deck)
    swapped = rng.sample(hidden, len(hidden))
    new = dict(zip(hidden, swapped))
    swap = lambda cs: tuple(new.get(c, c) for c in cs)  # noqa: E731
    hands = tuple(swap(h) if s in others else h for s, h in enumerate(state.hands))
    kept = tuple(swap(k) if s in others else k for s, k in enumerate(state.kept))
    if state.starter in new:  # the starter is seen by all: keep it where it is
        return None
    return dataclasses.replace(state, hands=hands, kept=kept, deck=swap(state.deck))


@pytest.mark.parametrize("variant", ["three", "four"])
def test_the_search_never_sees_a_hidden_card(variant):
    rng = random.Random(variant)
    checked = 0
    for seed in range(20):
        state = position(seed, variant, MAX_CARDS)
        while state.phase == "play":
            seat = to_act(state)[0]
            table = table_from_view(seat_view(state, seat), seat)
            other = _swap_hidden(state, seat, rng)
            if other is not None and other.hands != state.hands and in_reach(table):
                assert search_plays(table) == search_plays(table_from_view(seat_view(other, seat), seat))
                a = choose_move(state, seat, "expert", random.Random(seed))
                b = choose_move(other, seat, "expert", random.Random(seed))
                assert a == b
                checked += 1
            state = apply(state, {**choose_move(state, seat, "expert", rng), "seat": seat})
    assert checked >= 30


def test_search_values_every_playable_card_and_prefers_points():
    for seed in range(10):
        state = position(seed, "three", MAX_CARDS)
        if state.phase != "play":
            continue
        me = to_act(state)[0]
        table = table_from_view(seat_view(state, me), me)
        values = search_plays(table)
        count = sum(c.value for c in table.count_cards)
        assert set(values) == {c for c in table.hand if count + c.value <= 31}


def test_a_draw_whose_hand_would_have_pegged_more_weighs_less():
    # Three players: seat 1 laid a nine on 4-6, where a five made fifteen and a run, a six a pair.
    entries, count = [], 0
    for seat, code in [(2, "4H"), (0, "6C"), (1, "9D")]:
        count += card_from_code(code).value
        entries.append({"seat": seat, "card": code, "count": count, "round": 0})
    kept = [card_from_code(c) for c in ("6C", "AS", "2S", "3S")]
    table = table_from_plays(players=3, seat=0, kept=kept, known=[], plays=entries, round=0)
    seen = dict(other_hands(table, random.Random(3), 24))
    blind = dict(other_hands(table._replace(laid=()), random.Random(3), 24))
    assert seen.keys() == blind.keys()
    ratios = {hands: seen[hands] / blind[hands] for hands in seen}
    better = {r for hands, r in ratios.items() if {5, 6} & set(hands[1])}
    others = {r for hands, r in ratios.items() if not {5, 6} & set(hands[1])}
    assert better and others
    assert max(others) == pytest.approx(min(others))
    assert min(better) == pytest.approx(max(better)) == pytest.approx(PASSED_UP * max(others))
