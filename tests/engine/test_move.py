"""The engine's typed boundary: a `Move` writes exactly the log's JSON and reads it back, the
words come in one way (`read_move` against the state), a move is said one way per voice
(`describe_move`), and a seat's view as a value (`SeatView`) is the view's JSON."""

import json
import random

import pytest

from games.cribbage import (
    INVALID,
    IllegalMove,
    InvalidMove,
    Move,
    apply,
    cut_for_deal_event,
    deal_event,
    describe_move,
    is_over,
    legal_moves,
    needs_chance,
    new_game,
    planned_move,
    read_move,
    read_plan,
    rules_for,
    seat_view,
    to_act,
    view,
)

from .test_engine import A_DEAL, A_DISCARDS, A_PLAY, TWO, discard, play, run


def _game(variant, muggins, seed):
    """Every (state, event) of one random game: the event applied to the state."""
    rng = random.Random(seed)
    state = new_game(rules_for(variant, muggins=muggins))
    while not is_over(state):
        chance = needs_chance(state)
        if chance == "cut_for_deal":
            event = cut_for_deal_event(state, rng)
        elif chance == "deal":
            event = deal_event(state, rng)
        else:
            event = planned_move(state) or rng.choice(legal_moves(state, to_act(state)[0]))
        yield state, event
        state = apply(state, event)


@pytest.mark.parametrize("muggins", [False, True], ids=["plain", "muggins"])
@pytest.mark.parametrize("variant", ["two", "three", "four", "five_card"])
def test_a_move_writes_the_logs_json_exactly(variant, muggins):
    """Every seat's move of a game, and every legal move offered on the way, reads into a Move
    and writes back the same JSON, its keys in the same order: the log does not change."""
    seen = set()
    for state, event in _game(variant, muggins, seed=len(variant) + muggins):
        moves = [event] if event["kind"] not in ("deal", "cut_for_deal") else []
        for seat in range(state.rules.players):
            moves += legal_moves(state, seat) + [{"kind": "resign", "seat": seat}]
        for move in moves:
            seen.add(move["kind"])
            typed = Move.from_json(move)
            assert json.dumps(typed.to_json()) == json.dumps(move)
            assert Move.from_json(typed.to_json()) == typed
    assert {"discard", "play", "resign"} <= seen


@pytest.mark.parametrize(
    "event",
    [
        {"kind": "play", "card": "7C", "claim": 2, "seat": 1},  # as the move service writes it: seat last
        {"kind": "play", "seat": 0, "card": "7C", "plan": True, "claim": 0},  # a planned play
        {"kind": "count", "seat": 0, "points": 12, "plan": True},
        {"kind": "count_ahead", "points": 8, "seat": 1},
        {"kind": "forfeit", "reason": "timeout", "seat": 1},
        {"kind": "plan", "seat": 0, "order": ["7C", "ask"], "rules": [{"rule": "on", "rank": 5, "card": "TH"}]},
        {"kind": "plan", "order": [], "rules": []},
        {"kind": "muggins", "seat": 0},
    ],
)
def test_the_logs_other_shapes_read_back_the_same(event):
    assert Move.from_json(event).to_json() == event


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "deal", "deck": []},  # a chance event: the engine's own, not a seat's move
        {"kind": "teleport"},
        {"kind": "play", "card": "7C", "to": "the moon"},
        {"card": "7C"},
        {"kind": "play", "card": "7C", "plan": False},
    ],
)
def test_what_is_no_seats_move_is_refused(data):
    with pytest.raises(ValueError):
        Move.from_json(data)


def test_words_are_read_against_the_state_for_the_seat():
    state = run(new_game(TWO, first_dealer=0), A_DEAL, *A_DISCARDS)  # the play: seat 1 (the pone) leads
    hand = [c.code for c in state.hands[1]]
    assert read_move(state, 1, hand[0].lower()) == Move("play", seat=1, card=hand[0])
    assert read_move(state, 1, "plan clear") == Move("plan", seat=1, order=(), rules=())
    discarding = run(new_game(TWO, first_dealer=0), A_DEAL)
    assert read_move(discarding, 0, "7D 7C") == Move("discard", seat=0, cards=("7D", "7C"))
    assert read_move(discarding, 0, "crib the 8 and the ace of spades") == Move(
        "discard", seat=0, cards=("AS", "8S")
    )  # named cards first, then a rank resolved


def test_invalid_words_and_an_illegal_move_are_different_errors():
    state = run(new_game(TWO, first_dealer=0), A_DEAL, *A_DISCARDS)
    with pytest.raises(InvalidMove) as unreadable:
        read_move(state, 1, "hello there")
    assert unreadable.value.code == "not_a_move" and unreadable.value.code in INVALID
    readable = read_move(state, 0, "play KC")  # words that read, by a seat whose turn it is not
    with pytest.raises(IllegalMove) as illegal:
        apply(state, readable.to_json())
    assert illegal.value.code == "not_your_turn"


def test_a_move_is_said_one_way_per_voice():
    crib = Move("discard", cards=("5H", "JD"))
    assert describe_move(crib) == "crib 5H JD"
    assert describe_move(crib, "ask") == "Lay away 5♥ J♦ to the crib"
    assert describe_move(crib, "done") == "You laid away 5♥ J♦ to the crib"
    claimed = Move("play", card="7C", claim=2)
    assert describe_move(claimed) == "play 7C claim 2"
    assert describe_move(claimed, "done") == "You played 7♣, claiming 2"
    assert describe_move(Move("play", card="7C"), blank="N") == "play 7C claim N"
    assert describe_move(Move("count"), "ask") == "Claim your show"
    assert describe_move(Move("count", points=12), "done") == "You counted 12 for your show"
    plan = Move.from_json(read_plan("score first, 7C 8D"))
    assert describe_move(plan, "done") == "Your plan is set: plan score first, 7C 8D"
    assert describe_move(Move("plan", order=(), rules=()), "done") == "Your plan is cleared"
    assert describe_move({"kind": "table_result", "scores": [60, 121]}) == "result at the table 60-121"


def test_a_link_move_takes_the_number_the_player_says():
    count = Move("count")
    assert count.number_to_say(muggins=True) == "points"
    assert count.with_number("points", 9).to_json() == {"kind": "count", "points": 9}
    assert Move("play", card="7C").number_to_say(muggins=True) == "claim"
    assert Move("play", card="7C").number_to_say(muggins=False) is None
    assert Move("discard", cards=("5H", "JD")).same_choice({"kind": "discard", "seat": 0, "cards": ["JD", "5H"]})


def test_a_seats_view_as_a_value_is_the_views_json():
    state = run(new_game(TWO, first_dealer=0), A_DEAL, *A_DISCARDS, *A_PLAY[:2])
    for seat in (None, 0, 1):
        typed = seat_view(state, seat)
        assert typed.to_json() == view(state, seat)
        assert json.dumps(typed.to_json()) == json.dumps(view(state, seat))
    assert "hand" not in seat_view(state, None).to_json()  # a spectator has no hand
    assert seat_view(state, 0).hand == tuple(c.code for c in state.hands[0])


def test_a_seats_view_gives_the_rules_as_a_value():
    state = run(new_game(rules_for("four", muggins=True), first_dealer=1))
    typed = seat_view(state, 2)
    assert typed.game_rules == state.rules
    assert typed.game_rules.partnerships and typed.game_rules.side_of(2) == 0
    assert "game_rules" not in typed.to_json()  # the JSON keeps the rules as data, once


def test_discard_helpers_still_read():  # the test_engine helpers are moves the log keeps
    assert Move.from_json(discard(0, "5H JD")).cards == ("5H", "JD")
    assert Move.from_json(play(1, "7C", claim=2)).claim == 2
