"""The moves in words (notation) and the engine's refusals as codes with parameters."""

import random

import pytest

from games.cribbage import (
    INVALID,
    REFUSALS,
    IllegalMove,
    InvalidMove,
    apply,
    cut_for_deal_event,
    deal_event,
    forced_move,
    is_over,
    is_simple_turn,
    legal_moves,
    moved_on_for,
    moves_to_offer,
    needs_chance,
    new_game,
    notation,
    rules_for,
    to_act,
)
from games.cribbage.notation import from_form, is_offered, read, read_move, same_move, to_move, write

from .test_engine import A_DEAL, A_DISCARDS, A_PLAY, MUG, TWO, discard, play, run


def _without_seat(move):
    return {k: v for k, v in move.items() if k != "seat"}


def _positions(variant, muggins, seed):
    """Every state of one random game of `variant`, chance events drawn from `seed`."""
    rng = random.Random(seed)
    state = new_game(rules_for(variant, muggins=muggins))
    while not is_over(state):
        yield state
        chance = needs_chance(state)
        if chance == "cut_for_deal":
            event = cut_for_deal_event(state, rng)
        elif chance == "deal":
            event = deal_event(state, rng)
        else:
            event = rng.choice(legal_moves(state, to_act(state)[0]))
        state = apply(state, event)


@pytest.mark.parametrize("muggins", [False, True], ids=["plain", "muggins"])
@pytest.mark.parametrize("variant", ["two", "three", "four", "five_card"])
def test_every_legal_move_reads_back_from_its_words(variant, muggins):
    kinds = set()
    for state in _positions(variant, muggins, seed=len(variant) + muggins):
        for seat in range(state.rules.players):
            for move in legal_moves(state, seat) + [{"kind": "resign", "seat": seat}]:
                kinds.add(move["kind"])
                assert read_move(write(move), state.phase, muggins) == _without_seat(move)
                if move["kind"] == "discard":  # just the cards
                    assert read_move(" ".join(move["cards"]), state.phase, muggins) == _without_seat(move)
                if move["kind"] == "play" and not muggins:
                    assert read_move(move["card"].lower(), state.phase) == _without_seat(move)
    assert kinds >= {"discard", "play", "resign"} | ({"count", "muggins"} if muggins else set())


@pytest.mark.parametrize(
    "words, move",
    [
        ("crib 5H JD", {"kind": "discard", "cards": ["5H", "JD"]}),
        ("Throw 10h, td", {"kind": "discard", "cards": ["TH", "TD"]}),
        ("discard 5♥ J♦ please", {"kind": "discard", "cards": ["5H", "JD"]}),
        ("- play 7c", {"kind": "play", "card": "7C"}),
        ("go", {"kind": "go"}),
        ("Muggins!", {"kind": "muggins"}),
        ("concede", {"kind": "resign"}),
        ("count 12", {"kind": "count_ahead", "points": 12}),
    ],
)
def test_the_words_players_write(words, move):
    assert read_move(words, "play") == move


def test_a_count_is_for_the_show_and_said_ahead_in_the_play():
    assert read_move("count 12", "show", muggins=True) == {"kind": "count", "points": 12}
    assert read_move("count 12", "play", muggins=True) == {"kind": "count_ahead", "points": 12}
    assert write({"kind": "count_ahead", "points": 12}) == "count 12"


def test_just_cards_are_the_move_the_phase_asks_for():
    assert read_move("5H JD", "discard") == {"kind": "discard", "cards": ["5H", "JD"]}
    assert read_move("7C", "play") == {"kind": "play", "card": "7C"}
    assert read_move("7C", "play", muggins=False) == {"kind": "play", "card": "7C"}
    assert read("7C") == notation.Reading("cards", "7C", cards=("7C",))


def test_under_muggins_a_play_says_its_claim():
    assert read_move("play 7C claim 2", "play", muggins=True) == {"kind": "play", "card": "7C", "claim": 2}
    assert read_move("play 7C claim 2", "play") == {"kind": "play", "card": "7C"}  # no claims without muggins


def test_writing_leaves_a_blank_for_what_the_player_must_say():
    assert write({"kind": "play", "card": "7C"}, blank="N") == "play 7C claim N"
    assert write({"kind": "count"}, blank="N") == "count N"
    assert write({"kind": "count"}) == "count <points>"
    assert write({"kind": "play", "card": "7C"}) == "play 7C"
    assert write({"kind": "forfeit", "reason": "timeout"}) == "forfeit timeout"


@pytest.mark.parametrize(
    "words, phase, muggins, code, params",
    [
        ("Thanks, will think about it", "discard", False, "not_a_move", {"words": "Thanks, will think about it"}),
        ("crib", "discard", False, "no_cards", {"kind": "discard"}),
        ("play", "play", False, "no_cards", {"kind": "play"}),
        ("count lots", "show", True, "no_points", {}),
        ("5H JD", "show", True, "cards_not_asked", {"phase": "show"}),
        ("5H JD", "play", False, "one_card_at_a_time", {"cards": ["5H", "JD"]}),
        ("play 7C", "play", True, "claim_missing", {"card": "7C"}),
        ("plan", "play", False, "plan_empty", {}),
        ("plan 7C bluff", "discard", False, "plan_unknown_word", {"word": "bluff"}),
        ("plan on 5 TH", "play", False, "plan_unknown_rule", {"words": "on 5 TH"}),
        ("play the 9", "play", False, "rank_not_held", {"rank": "9", "kind": "play"}),
        ("play 7C 8D", "play", False, "one_card_at_a_time", {"cards": ["7C", "8D"]}),
        ("play 7C go", "play", False, "words_not_read", {"words": "go"}),
        ("crib 5H JD count 12", "discard", False, "words_not_read", {"words": "count 12"}),
        ("play 7C plan KH", "play", False, "words_not_read", {"words": "plan KH"}),  # one move asked
        (
            "crib the 7 and KH",
            "discard",
            False,
            "which_card",
            {"rank": "7", "choices": ["7D", "7C"], "kind": "discard"},
        ),
    ],
)
def test_words_that_are_no_move_are_invalid_not_illegal(words, phase, muggins, code, params):
    with pytest.raises(InvalidMove) as caught:
        read_move(words, phase, muggins, hand=["7D", "7C", "KH", "5S"])
    assert (caught.value.code, caught.value.params) == (code, params)
    assert not isinstance(caught.value, IllegalMove)


def test_every_invalid_code_is_tested():
    codes = {
        "not_a_move",
        "no_cards",
        "no_points",
        "cards_not_asked",
        "one_card_at_a_time",
        "claim_missing",
        "plan_empty",
        "plan_unknown_word",
        "plan_unknown_rule",
        "rank_not_held",
        "which_card",
        "words_not_read",
    }
    assert set(INVALID) == codes


@pytest.mark.parametrize("words", ["crib 7H KH plan 9D 6C AC 4H", "crib 7H KH, plan 9D 6C AC 4H", "7H KH plan 9D 6C"])
def test_a_plan_on_the_discards_line_is_read_with_it(words):
    reading = read(words)
    assert to_move(reading, "discard") == {"kind": "discard", "cards": ["7H", "KH"]}
    assert reading.then.kind == "plan" and reading.then.words.startswith("plan 9D 6C")


@pytest.mark.parametrize("mark", ["\u200b", "\u200c", "\u200d", "\ufeff", "\u00ad", "\u2060"])
def test_invisible_characters_are_not_part_of_a_card(mark):
    assert read_move(f"play 7H{mark}", "play") == {"kind": "play", "card": "7H"}
    assert read_move(f"crib {mark}7H KH{mark}", "discard") == {"kind": "discard", "cards": ["7H", "KH"]}


HAND = ["7D", "JC", "5H", "JD", "8C", "KS"]


@pytest.mark.parametrize(
    "words, phase, move",
    [
        ("I'll play the jack of clubs", "play", {"kind": "play", "card": "JC"}),
        ("8 of clubs", "play", {"kind": "play", "card": "8C"}),
        ("play jack of clubs", "play", {"kind": "play", "card": "JC"}),
        ("Jack of Clubs, please", "play", {"kind": "play", "card": "JC"}),
        ("the 7", "play", {"kind": "play", "card": "7D"}),  # the only 7 held
        ("play the seven", "play", {"kind": "play", "card": "7D"}),
        ("the jack", "play", {"kind": "play", "card": "JC"}),  # two jacks: one choice in the play
        ("crib five of hearts and jack of diamonds", "discard", {"kind": "discard", "cards": ["5H", "JD"]}),
        ("crib the 7 and the king", "discard", {"kind": "discard", "cards": ["7D", "KS"]}),
        ("the ten of hearts and 8 of clubs", "discard", {"kind": "discard", "cards": ["TH", "8C"]}),
        ("ok, crib 5H and JD", "discard", {"kind": "discard", "cards": ["5H", "JD"]}),
    ],
)
def test_cards_said_in_words(words, phase, move):
    assert read_move(words, phase, hand=HAND) == move


def test_two_cards_of_a_rank_in_the_discard_are_a_question():
    with pytest.raises(InvalidMove) as caught:
        read_move("crib the jack and the 5", "discard", hand=HAND)
    assert (caught.value.code, caught.value.params) == (
        "which_card",
        {"rank": "J", "choices": ["JC", "JD"], "kind": "discard"},
    )


@pytest.mark.parametrize(
    "words",
    ["The count: 12 (5H 7C)", "Crib: you", "A", "J", "I think so", "the end", "ok thanks", "Starter: 5H"],
)
def test_lines_that_are_not_moves_stay_unread(words):
    reading = read(words)
    assert reading is None or reading.kind == "discard" and not reading.cards  # "Crib: you": no cards


def test_a_readable_move_the_rules_refuse_is_illegal_not_invalid():
    state = run(new_game(TWO, first_dealer=0), A_DEAL)
    move = read_move("crib 7D KH", state.phase)  # readable: KH is a card
    with pytest.raises(IllegalMove) as caught:
        apply(state, {**move, "seat": 0})
    assert caught.value.code == "not_held" and not isinstance(caught.value, InvalidMove)


# --- Refusal codes ----------------------------------------------------------------


def _plan(seat, order):
    return {"kind": "plan", "seat": seat, "order": order.split(), "rules": []}


DISCARDING = run(new_game(TWO, first_dealer=0), A_DEAL)
PLAYING = run(DISCARDING, *A_DISCARDS)
AT_30 = run(PLAYING, *A_PLAY[:3])  # KH KC QD: the count is 30
MUG_PLAYING = run(new_game(MUG, first_dealer=0), A_DEAL, *A_DISCARDS)
MUG_SHOW = run(MUG_PLAYING, *[play(e["seat"], e["card"], claim=p) for e, p in zip(A_PLAY, [0, 2, 0, 2, 0, 0, 2, 1])])
OVER = apply(PLAYING, {"kind": "resign", "seat": 0})
UNDEALT = new_game(TWO, first_dealer=0)
A_DECK = A_DEAL["deck"]

REFUSED = [
    (OVER, play(1, "KH"), "game_over", {}),
    (DISCARDING, "not an event", "malformed", {}),
    (DISCARDING, {"kind": "discard", "seat": 0, "cards": "7D 7C"}, "malformed", {}),
    (DISCARDING, {"kind": "shuffle"}, "unknown_kind", {"kind": "shuffle"}),
    (DISCARDING, discard(5, "7D 7C"), "no_such_seat", {"seat": 5}),
    (new_game(TWO), discard(0, "5H 5C"), "waiting_for_chance", {"chance": "cut_for_deal"}),
    (DISCARDING, A_DEAL, "chance_not_due", {"kind": "deal"}),
    (DISCARDING, {"kind": "cut_for_deal", "cuts": [["7H", "2S"]]}, "chance_not_due", {"kind": "cut_for_deal"}),
    (new_game(TWO), {"kind": "cut_for_deal", "cuts": [["7H", "7H"]]}, "bad_cut", {}),
    (UNDEALT, {"kind": "deal", "deck": A_DECK[:51] + A_DECK[:1]}, "bad_deck", {}),
    (PLAYING, play(0, "KC"), "not_your_turn", {"kind": "play", "phase": "play"}),
    (PLAYING, {"kind": "go", "seat": 0}, "not_your_turn", {"kind": "go", "phase": "play"}),
    (DISCARDING, play(0, "KC"), "wrong_phase", {"kind": "play", "phase": "discard"}),
    (PLAYING, discard(1, "KH QD"), "wrong_phase", {"kind": "discard", "phase": "play"}),
    (PLAYING, {"kind": "count", "seat": 1, "points": 2}, "wrong_phase", {"kind": "count", "phase": "play"}),
    (DISCARDING, discard(0, "7D 5X"), "not_a_card", {"token": "5X"}),
    (DISCARDING, discard(0, "7D KH"), "not_held", {"cards": ["KH"]}),
    (PLAYING, play(1, "KC"), "not_held", {"cards": ["KC"]}),
    (DISCARDING, discard(0, "7D 7D"), "same_card_twice", {"cards": ["7D", "7D"]}),
    (DISCARDING, discard(0, "7D"), "wrong_throw_count", {"needed": 2, "given": 1}),
    (DISCARDING, discard(0, "7D 7C KC"), "wrong_throw_count", {"needed": 2, "given": 3}),
    (AT_30, play(0, "8S"), "count_over_31", {"card": "8S", "count": 30}),
    (
        run(MUG_PLAYING, play(1, "KH", claim=0)),
        play(0, "KC", claim=3),
        "claim_out_of_range",
        {"card": "KC", "claim": 3},
    ),
    (MUG_SHOW, {"kind": "count", "seat": 1, "points": 99}, "count_out_of_range", {"points": 99, "what": "hand"}),
    (MUG_PLAYING, {"kind": "muggins", "seat": 0}, "no_muggins", {}),
    (run(MUG_PLAYING, play(1, "KH", claim=0)), {"kind": "muggins", "seat": 1}, "no_muggins", {}),  # its own
    (run(MUG_PLAYING, play(1, "KH", claim=0)), {"kind": "muggins", "seat": 0}, "muggins_nothing_missed", {}),
    (PLAYING, {"kind": "go", "seat": 1}, "go_is_automatic", {"playable": ["KH", "QD", "5C", "2D"]}),
    (DISCARDING, {"kind": "go", "seat": 0}, "go_is_automatic", {"playable": []}),
    (PLAYING, _plan(1, "4D"), "plan_not_held", {"card": "4D", "held": ["KH", "QD", "5C", "2D"]}),
    (PLAYING, _plan(1, "KH 9S"), "plan_thrown", {"card": "9S"}),
    (PLAYING, _plan(1, "KH QD KH"), "plan_twice", {"cards": ["KH"]}),
    (PLAYING, _plan(1, "5X"), "plan_unknown_word", {"word": "5X"}),
    (
        PLAYING,
        {"kind": "plan", "seat": 1, "order": [], "rules": [{"rule": "bluff"}]},
        "plan_unknown_rule",
        {"rule": "{'rule': 'bluff'}"},
    ),
    (MUG_SHOW, _plan(1, ""), "plan_too_late", {}),
    (PLAYING, play(1, "KH", plan=True), "not_the_plans_card", {"card": "KH"}),
    (PLAYING, {"kind": "count_ahead", "seat": 1, "points": 2}, "count_ahead_no_muggins", {}),
    (
        run(new_game(MUG, first_dealer=0), A_DEAL),
        {"kind": "count_ahead", "seat": 1, "points": 2},
        "count_ahead_needs_starter",
        {},
    ),
    (MUG_SHOW, {"kind": "count_ahead", "seat": 0, "points": 2}, "count_ahead_too_late", {}),
    (MUG_PLAYING, {"kind": "count_ahead", "seat": 1, "points": 30}, "count_ahead_out_of_range", {"points": 30}),
    (MUG_SHOW, {"kind": "count", "seat": 1, "points": 2, "plan": True}, "not_the_count_ahead", {"points": 2}),
]


@pytest.mark.parametrize("state, event, code, params", REFUSED, ids=[f"{i}-{row[2]}" for i, row in enumerate(REFUSED)])
def test_each_refusal_has_its_code_and_parameters(state, event, code, params):
    with pytest.raises(IllegalMove) as caught:
        apply(state, event)
    assert (caught.value.code, caught.value.params) == (code, params)
    assert set(params) <= set(REFUSALS[code])
    assert str(caught.value).startswith(caught.value.reason)  # the developer's message stays


def test_every_refusal_code_is_tested():
    assert {row[2] for row in REFUSED} == set(REFUSALS)


def test_a_refusal_names_no_hidden_card():
    """The parameters go to the player: only what they sent or may see."""
    for state, event, code, params in REFUSED:
        seat = event.get("seat") if isinstance(event, dict) else None
        hidden = {c.code for s, hand in enumerate(state.hands) if s != seat for c in hand}
        hidden |= {c.code for c in state.deck}
        named = set(params.get("cards", [])) | set(params.get("playable", [])) | {params.get("card")}
        sent = set(
            event.get("cards", []) if isinstance(event, dict) and isinstance(event.get("cards"), list) else []
        ) | {event.get("card") if isinstance(event, dict) else None}
        assert not (named - sent) & hidden, code


# --- What the engine says besides refusals ------------------------------------------


def test_the_forced_move_is_the_only_legal_play():
    assert forced_move(AT_30, 0) == play(0, "AS")  # only the ace fits under 31
    assert forced_move(PLAYING, 1) is None  # four cards to choose from
    assert forced_move(DISCARDING, 0) is None  # a discard is never forced


def test_a_simple_turn_is_pegging_or_counting_never_the_discard():
    assert is_simple_turn(PLAYING, 1) and is_simple_turn(MUG_SHOW, 1)
    assert not is_simple_turn(DISCARDING, 0)
    assert not is_simple_turn(PLAYING, 0)  # nothing owed


def test_another_seats_discard_is_no_change_a_seat_can_see():
    assert not moved_on_for(0, [{"kind": "discard", "seat": 1}])
    assert moved_on_for(0, [{"kind": "discard", "seat": 0}])
    assert moved_on_for(0, [{"kind": "discard", "seat": 1}, {"kind": "play", "seat": 1}])
    assert moved_on_for(0, [{"kind": "deal"}]) and not moved_on_for(0, [])


def test_one_choice_whatever_the_order_claim_or_points():
    assert same_move({"kind": "discard", "cards": ["JD", "5H"]}, {"kind": "discard", "seat": 0, "cards": ["5H", "JD"]})
    assert not same_move({"kind": "discard", "cards": ["JD", "5H"]}, {"kind": "discard", "cards": ["5H", "5C"]})
    assert same_move({"kind": "count"}, {"kind": "count", "seat": 1, "points": 4})
    assert same_move({"kind": "play", "card": "7C"}, {"kind": "play", "seat": 0, "card": "7C", "claim": 2})
    assert not same_move({"kind": "play", "card": "7C", "claim": 1}, {"kind": "play", "card": "7C", "claim": 2})
    assert not same_move({"kind": "play", "card": "7C"}, {"kind": "discard", "cards": ["7C"]})
    offered = moves_to_offer(MUG_PLAYING, 1)
    assert is_offered({"kind": "play", "card": "KH"}, offered)
    assert not is_offered({"kind": "play", "card": "KC"}, offered)
    assert not is_offered({"kind": "resign"}, offered)  # resigning is never listed


def test_a_form_names_a_move():
    assert from_form("discard", cards=[" 5h", "jd "]) == {"kind": "discard", "cards": ["5H", "JD"]}
    assert from_form("play", card="7c") == {"kind": "play", "card": "7C"}
    assert from_form("play", card="7c", muggins=True) == {"kind": "play", "card": "7C", "claim": 0}
    assert from_form("play", card="7c", claim=2, muggins=True) == {"kind": "play", "card": "7C", "claim": 2}
    assert from_form("count", points=8) == {"kind": "count", "points": 8}
    assert from_form("muggins") == {"kind": "muggins"} and from_form("resign") == {"kind": "resign"}


def test_a_new_instruction_word_is_one_entry_in_the_table(monkeypatch):
    monkeypatch.setitem(notation.READERS, "lay", notation.READERS["crib"])
    assert to_move(read("lay 5H JD"), "discard") == {"kind": "discard", "cards": ["5H", "JD"]}


def test_the_number_a_player_must_still_say():
    assert notation.number_to_say({"kind": "count"}) == "points"
    assert notation.number_to_say({"kind": "count", "points": 4}) is None
    assert notation.number_to_say({"kind": "play", "card": "7C"}, muggins=True) == "claim"
    assert notation.number_to_say({"kind": "play", "card": "7C", "claim": 0}, muggins=True) is None
    assert notation.number_to_say({"kind": "play", "card": "7C"}) is None
    assert notation.number_to_say({"kind": "discard", "cards": ["5H", "JD"]}, muggins=True) is None
