"""Seeded random games of every variant, played to the end by random legal moves, with invariants."""

import json
import os
import random

import pytest

from games.cribbage import (
    FULL_DECK,
    IllegalMove,
    apply,
    cut_for_deal_event,
    deal_event,
    is_over,
    legal_moves,
    needs_chance,
    new_game,
    replay,
    result,
    rules_for,
    state_from_json,
    state_to_json,
    to_act,
    view,
)

DECK = set(FULL_DECK)
CONFIGS = {
    "two-121": dict(variant="two"),
    "two-61": dict(variant="two", target=61),
    "two-muggins": dict(variant="two", muggins=True),
    "three": dict(variant="three"),
    "three-61-muggins": dict(variant="three", target=61, muggins=True),
    "four": dict(variant="four"),
    "four-muggins": dict(variant="four", muggins=True),
    "five_card": dict(variant="five_card"),
    "five_card-muggins": dict(variant="five_card", muggins=True),
}
# Games per configuration: 61-point games are short, so they get more.
FAST_GAMES = {
    "two-121": 80,
    "two-61": 160,
    "two-muggins": 70,
    "three": 70,
    "three-61-muggins": 130,
    "four": 70,
    "four-muggins": 60,
    "five_card": 350,
    "five_card-muggins": 200,
}
VIEW_CHECKED_GAMES = 2  # per configuration: every seat's view after every event


def random_event(state, rng):
    """A chance event, or a random legal move; under muggins claims are mostly right."""
    chance = needs_chance(state)
    if chance == "cut_for_deal":
        return cut_for_deal_event(state, rng)
    if chance == "deal":
        return deal_event(state, rng)
    acting = to_act(state)
    assert acting, "nobody to act in an unfinished game"
    moves = []
    for seat in acting:
        seat_moves = legal_moves(state, seat)
        assert seat_moves, f"seat {seat} must act but has no legal move"
        moves += seat_moves
    # Opponents who are not due to act may still call muggins.
    moves += [
        m
        for s in range(state.rules.players)
        if s not in acting
        for m in legal_moves(state, s)
        if m["kind"] == "muggins"
    ]
    calls = [m for m in moves if m["kind"] == "muggins"]
    if calls and rng.random() < 0.5:
        return rng.choice(calls)
    move = rng.choice([m for m in moves if m["kind"] != "muggins"])
    if "claim" in move or move["kind"] == "count":
        key = "claim" if "claim" in move else "points"
        same = [m for m in moves if m["kind"] == move["kind"] and m.get("card") == move.get("card")]
        if rng.random() < 0.75:
            return max(same, key=lambda m: m[key])
    return move


def check_cards_conserved(state):
    if state.hand_number == 0:
        return
    cards = [c for h in state.hands for c in h] + [p.card for p in state.plays if p.card] + list(state.deck)
    cards += list(state.crib)
    if state.starter is None:
        cards += [c for d in state.discards for c in d]
    else:
        cards.append(state.starter)
        for seat, kept in enumerate(state.kept):
            played = [p.card for p in state.plays if p.seat == seat and p.card]
            assert len(kept) == len(state.hands[seat]) + len(played)
            assert set(kept) == set(state.hands[seat]).union(played)
    assert len(cards) == 52 and set(cards) == DECK


def known_cards(state, seat):
    """Card codes of the current hand that `seat` may know."""
    known = {p.card for p in state.plays if p.card}
    if seat is not None:
        known |= set(state.hands[seat]) | set(state.kept[seat]) | set(state.discards[seat])
    if state.starter:
        known.add(state.starter)
    # a muggins call on the last crib can come after the next deal
    for show in state.shows + (state.previous.shows if state.previous else ()):
        known |= set(show.cards)
    if state.previous:
        known.add(state.previous.starter)
    return {c.code for c in known}


def check_view(state, seat):
    v = view(state, seat)
    json.dumps(v)  # JSON-able
    assert "deck" not in v
    current = [*v["count_cards"], *(p["card"] for p in v["plays"] if p["card"])]
    current += [c for sh in v["shows"] for c in sh["cards"]]
    current += [c for r in v["records"] for i in r.get("items", []) for c in i["cards"]]
    if v["starter"]:
        current.append(v["starter"])
    if seat is not None:
        current += v["hand"] + v["kept"] + v["my_discards"]
    assert set(current) <= known_cards(state, seat)
    assert (v["starter"] is None) == (state.starter is None)


def play_game(config, seed, check_views=False):
    rng = random.Random(seed)
    rules = rules_for(**config)
    state = new_game(rules)
    events = []
    while not is_over(state):
        event = random_event(state, rng)
        new = apply(state, event)
        events.append(event)
        # scores only rise, and the game stops exactly when one reaches the target
        assert all(b >= a for a, b in zip(state.scores, new.scores))
        if is_over(new):
            if new.outcome.reason == "target":
                winner = new.outcome.winner
                assert new.scores[winner] >= rules.target
                assert all(s < rules.target for i, s in enumerate(new.scores) if i != winner)
                assert state.scores[winner] < rules.target
        else:
            assert max(new.scores) < rules.target
        assert 0 <= new.count <= 31 and new.count == sum(c.value for c in new.count_cards)
        check_cards_conserved(new)
        if check_views:
            for seat in (None, *range(rules.players)):
                check_view(new, seat)
        state = new
    return rules, state, events


def check_finished(rules, state, events, rng):
    r = result(state)
    assert r["reason"] == "target" and r["scores"] == list(state.scores)
    assert to_act(state) == () and needs_chance(state) is None
    assert all(legal_moves(state, s) == [] for s in range(rules.players))
    with pytest.raises(IllegalMove):
        apply(state, deal_event(state, rng))
    with pytest.raises(IllegalMove):
        apply(state, {"kind": "resign", "seat": 0})
    snapshot = state_to_json(state)
    assert state_to_json(replay(rules, json.loads(json.dumps(events)))) == snapshot
    assert state_from_json(json.loads(json.dumps(snapshot))) == state


@pytest.mark.parametrize("name", CONFIGS)
def test_random_games(name):
    rng = random.Random(0)
    for seed in range(FAST_GAMES[name]):
        rules, state, events = play_game(CONFIGS[name], seed, check_views=seed < VIEW_CHECKED_GAMES)
        check_finished(rules, state, events, rng)


@pytest.mark.slow
@pytest.mark.skipif(
    not os.environ.get("CRIBBAGE_MANY_GAMES"), reason="about 12,000 games (minutes): set CRIBBAGE_MANY_GAMES=1"
)
@pytest.mark.parametrize("name", CONFIGS)
def test_many_random_games(name):
    rng = random.Random(1)
    for seed in range(10_000, 10_000 + 10 * FAST_GAMES[name]):
        rules, state, events = play_game(CONFIGS[name], seed, check_views=seed % 50 == 0)
        check_finished(rules, state, events, rng)
