"""Pegging plans: the words, the refusals, which card a plan plays, privacy and replay."""

import random

import pytest

from games.cribbage import (
    IllegalMove,
    PlanProblem,
    apply,
    deal_event,
    describe_move,
    legal_moves,
    new_game,
    plan_of,
    planned_move,
    read_plan,
    read_standing_plan,
    replay,
    rules_for,
    score_hand,
    state_from_json,
    state_to_json,
    to_act,
    view,
)

from .test_engine import A_DEAL, A_DISCARDS, TWO, deal, discard, play, run


def plan(seat, words):
    return {**read_plan(words), "seat": seat}


def a_play_state():
    """Scenario A at the start of the play: pone 1 holds KH QD 5C 2D, dealer 0 TC 8S 3H AS... (see test_engine)."""
    return run(new_game(TWO, first_dealer=0), A_DEAL, *A_DISCARDS)


# --- The words ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "words, order, rules",
    [
        ("7C 8D 5H KS", ["7C", "8D", "5H", "KS"], []),
        ("7c, 10d then 5♥", ["7C", "TD", "5H"], []),
        ("7C ask KS", ["7C", "ask", "KS"], []),
        ("score first, 7C 8D", ["7C", "8D"], [{"rule": "score_first"}]),
        ("on 5 play TH; 7C", ["7C"], [{"rule": "on", "rank": 5, "card": "TH"}]),
        ("on k play 5h score first", [], [{"rule": "on", "rank": 13, "card": "5H"}, {"rule": "score_first"}]),
        ("clear", [], []),
        ("score first, low first", [], [{"rule": "score_first"}, {"rule": "low_first"}]),
        ("high first 7C", ["7C"], [{"rule": "high_first"}]),
    ],
)
def test_the_words_of_a_plan(words, order, rules):
    move = read_plan(words)
    assert move == {"kind": "plan", "order": order, "rules": rules}
    assert read_plan(describe_move(move)[len("plan ") :]) == move  # the words read back the same


@pytest.mark.parametrize(
    "words, code",
    [
        ("7C 8X", "plan_unknown_word"),
        ("7C please", "plan_unknown_word"),
        ("score", "plan_unknown_rule"),
        ("low", "plan_unknown_rule"),
        ("on 5 TH", "plan_unknown_rule"),
        ("on 11 play TH", "plan_unknown_rule"),
        ("on 5 play 1X", "plan_unknown_word"),
        ("", "plan_empty"),
    ],
)
def test_words_that_are_not_a_plan_are_refused_by_name(words, code):
    with pytest.raises(PlanProblem) as refused:
        read_plan(words)
    assert refused.value.code == code


# --- Refusals by the engine -------------------------------------------------------------


@pytest.mark.parametrize(
    "words, code, named",
    [
        ("KH 9D", "plan_not_held", "9D"),
        ("KH 9S", "plan_thrown", "9S"),
        ("KH QD KH", "plan_twice", "KH"),
        ("on 5 play 9H", "plan_thrown", "9H"),
    ],
)
def test_a_plan_naming_a_card_not_held_thrown_or_twice_is_refused_and_changes_nothing(words, code, named):
    s = a_play_state()
    with pytest.raises(IllegalMove) as refused:
        apply(s, plan(1, words))
    assert refused.value.code == code and named in refused.value.reason
    assert plan_of(s, 1) is None


def test_a_card_played_already_is_dropped_from_a_plan_and_after_the_play_no_plan_can_be_set():
    s = run(a_play_state(), play(1, "KH"))
    assert view(run(s, plan(1, "KH QD")), 1)["plan"]["order"] == ["QD"]  # say, forced between two lines
    s = run(s, plan(0, "KC AS 8S 3H"), plan(1, "QD 5C 2D"))
    assert planned_move(s) == {"kind": "play", "seat": 0, "card": "KC", "plan": True}
    while planned_move(s):
        s = apply(s, planned_move(s))
    with pytest.raises(IllegalMove) as refused:
        apply(s, plan(1, "clear"))
    assert s.phase == "deal" and refused.value.code == "plan_too_late"


def test_a_plan_set_before_the_discard_forgets_the_cards_laid_away():
    s = run(new_game(TWO, first_dealer=0), A_DEAL, plan(1, "9S KH QD"))
    s = run(s, *A_DISCARDS)
    assert view(s, 1)["plan"]["order"] == ["KH", "QD"]


# --- Which card a plan plays --------------------------------------------------------------


def test_the_first_planned_card_that_is_legal_is_played_and_one_that_would_pass_31_waits():
    s = run(a_play_state(), plan(1, "QD KH 5C 2D"))
    assert planned_move(s)["card"] == "QD"
    s = run(s, play(1, "QD"), play(0, "KC"), play(1, "5C"))  # count 25: KH waits, 2D goes
    assert s.count == 25 and planned_move(s) is None  # the dealer has no plan
    s = run(s, play(0, "AS"))  # 26
    assert planned_move(s)["card"] == "2D"


def test_ask_stops_the_plan_and_a_partial_plan_asks_once_its_cards_are_played():
    s = run(a_play_state(), plan(1, "KH ask QD"))
    assert planned_move(s)["card"] == "KH"
    s = run(s, play(1, "KH"), play(0, "KC"))
    assert to_act(s) == (1,) and planned_move(s) is None
    s = run(a_play_state(), plan(1, "KH"), play(1, "KH"), play(0, "KC"))
    assert planned_move(s) is None


def test_score_first_plays_the_card_that_pegs_most_ties_in_the_planned_order():
    s = run(a_play_state(), plan(1, "KH QD 5C 2D"), play(1, "KH"))
    s = run(s, plan(0, "score first, AS 8S 3H KC"))
    assert planned_move(s)["card"] == "KC"  # a pair (2) before the order's AS
    s = run(s, play(0, "KC"), plan(1, "score first, 2D 5C QD"))  # count 20: nothing pegs; the order
    assert planned_move(s)["card"] == "2D"


def test_score_first_ties_go_to_the_order_then_the_hand():
    rules = rules_for("two")
    s = run(
        new_game(rules, first_dealer=0),
        deal(rules, 0, ["5S 5D TC 2H 3H 4H", "TH JD QS KC 9C 8C"]),
        discard(0, "2H 3H"),
        discard(1, "9C 8C"),
        play(1, "TH"),
    )
    s = run(s, plan(0, "score first, 4H 5D 5S"))
    assert planned_move(s)["card"] == "5D"  # 5D and 5S make 15 alike, TC a pair: the order says 5D
    s = run(s, plan(0, "score first, 4H"))
    assert planned_move(s)["card"] == "5S"  # none of them named: as held


def test_low_first_and_high_first_play_the_lowest_and_highest_legal_card_and_answer_every_turn():
    s = run(a_play_state(), plan(1, "low first"))  # pone holds KH QD 5C 2D
    assert planned_move(s)["card"] == "2D"
    s = run(a_play_state(), plan(1, "high first"))
    assert planned_move(s)["card"] == "KH"
    s = run(s, play(1, "KH"), play(0, "KC"))  # 20
    assert planned_move(s)["card"] == "QD"
    s = run(s, play(1, "QD"), play(0, "AS"))  # 31: a new count, the pone leads
    assert planned_move(s)["card"] == "5C"


def test_high_first_passes_over_a_card_that_would_pass_31():
    s = run(a_play_state(), plan(1, "high first"), play(1, "QD"), play(0, "KC"), play(1, "5C"), play(0, "AS"))
    assert s.count == 26 and planned_move(s)["card"] == "2D"  # KH waits


def test_rules_come_in_their_order_score_first_before_low_first():
    s = run(a_play_state(), plan(1, "score first, low first"))
    assert planned_move(s)["card"] == "2D"  # nothing pegs on the lead: the lowest
    s = run(s, play(1, "2D"), play(0, "3H"))  # 5: a ten-card makes 15
    assert planned_move(s)["card"] == "KH"
    s = run(a_play_state(), plan(1, "low first, score first"))
    s = run(s, play(1, "2D"), play(0, "3H"))
    assert planned_move(s)["card"] == "5C"


def test_a_standing_plan_is_made_of_rules_that_name_no_card():
    assert read_standing_plan("score first, low first") == [{"rule": "score_first"}, {"rule": "low_first"}]
    assert read_standing_plan("clear") == []
    for words in ("7C 8D", "on 5 play TH", "score first, KH"):
        with pytest.raises(PlanProblem) as refused:
            read_standing_plan(words)
        assert refused.value.code == "plan_standing_cards"


def test_on_a_rank_play_a_card():
    s = run(a_play_state(), plan(1, "KH QD 5C 2D"), play(1, "KH"), play(0, "KC"), play(1, "QD"), play(0, "AS"))
    s = run(s, plan(0, "on 5 play 8S, 3H 8S"))
    s = run(s, play(1, "5C"))
    assert planned_move(s)["card"] == "8S"
    s = run(s, plan(0, "on 2 play 8S, 3H 8S"))
    assert planned_move(s)["card"] == "3H"  # the card before was a 5, not a 2


def test_plan_clear_and_a_new_plan_replaces_the_old():
    s = run(a_play_state(), plan(1, "KH QD"), plan(1, "QD"))
    assert planned_move(s)["card"] == "QD"
    s = run(s, plan(1, "clear"))
    assert plan_of(s, 1) is None and planned_move(s) is None


def test_a_play_marked_as_planned_must_be_the_plans_card():
    s = run(a_play_state(), plan(1, "QD KH"))
    with pytest.raises(IllegalMove):
        apply(s, play(1, "KH", plan=True))
    assert run(s, play(1, "QD", plan=True)).plan_played == {1}


def test_a_plan_ends_with_the_hands_play_and_says_it_ran_in_the_next_hand():
    s = run(a_play_state(), plan(1, "KH QD 5C 2D"), plan(0, "KC AS 8S 3H"))
    while planned_move(s):
        s = apply(s, planned_move(s))
    assert s.phase == "deal" and s.plans == ()
    s = apply(s, deal_event(s, random.Random(3)))
    assert view(s, 0)["plan_played_last_hand"] and view(s, 1)["plan_played_last_hand"]


def test_muggins_a_planned_card_claims_what_it_pegs():
    rules = rules_for("two", muggins=True)
    s = run(
        new_game(rules, first_dealer=0),
        deal(rules, 0, ["KC 8S 3H AS 7D 7C", "KH QD 5C 2D 9S 9H"], starter="4D"),
        discard(1, "9S 9H"),
        discard(0, "7D 7C"),
        play(1, "KH", claim=0),
        plan(0, "KC"),
    )
    assert planned_move(s) == {"kind": "play", "seat": 0, "card": "KC", "plan": True, "claim": 2}


def test_muggins_a_count_said_in_the_play_is_counted_at_the_show_for_that_seat_alone():
    rules = rules_for("two", muggins=True)
    events = [
        deal(rules, 0, ["KC 8S 3H AS 7D 7C", "KH QD 5C 2D 9S 9H"], starter="4D"),
        discard(1, "9S 9H"),
        discard(0, "7D 7C"),
    ]
    s = run(new_game(rules, first_dealer=0), *events)
    true = score_hand(s.kept[1], s.starter).total
    events += [{"kind": "count_ahead", "seat": 1, "points": true - 1}, plan(1, "KH QD 5C 2D"), plan(0, "KC AS 8S 3H")]
    s = run(s, *events[3:])
    assert view(s, 1)["count_ahead"] == true - 1 and view(s, 0)["count_ahead"] is None
    assert "count_ahead" not in view(s, None)
    while s.phase == "play":
        events.append(planned_move(s))
        s = apply(s, events[-1])
    assert s.phase == "show" and s.turn == 1
    assert planned_move(s) == {"kind": "count", "seat": 1, "points": true - 1, "plan": True}
    events.append(planned_move(s))
    s = apply(s, events[-1])
    assert s.scores[1] == sum(r.points for r in s.records if r.side == 1)
    assert {"kind": "muggins", "seat": 0} in legal_moves(s, 0)  # a point short: the dealer may call it
    assert planned_move(s) is None  # the dealer said nothing ahead: asked
    assert replay(rules, events, first_dealer=0) == s == state_from_json(state_to_json(s))


def test_a_count_ahead_is_the_players_own_and_said_in_the_play_only():
    s = run(new_game(rules_for("two", muggins=True), first_dealer=0), A_DEAL)
    with pytest.raises(IllegalMove) as early:
        apply(s, {"kind": "count_ahead", "seat": 1, "points": 4})
    assert early.value.code == "count_ahead_needs_starter"
    with pytest.raises(IllegalMove) as plain:
        apply(a_play_state(), {"kind": "count_ahead", "seat": 1, "points": 4})
    assert plain.value.code == "count_ahead_no_muggins"


# --- Privacy and replay ------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["two", "three", "four", "five_card"])
def test_a_plan_is_seen_by_its_seat_alone_and_replays_the_same(variant):
    rules = rules_for(variant)
    rng = random.Random(variant)
    s = new_game(rules, first_dealer=0)
    events = [deal_event(s, rng)]
    s = apply(s, events[0])
    for seat in range(rules.players):
        held = [c.code for c in s.hands[seat]]
        events.append(plan(seat, " ".join(reversed(held))))
        s = apply(s, events[-1])
    for seat in range(rules.players):
        mine = view(s, seat)["plan"]
        assert mine["order"] == [c.code for c in reversed(s.hands[seat])]
        others = {tuple(view(s, other)["plan"]["order"]) for other in range(rules.players) if other != seat}
        assert tuple(mine["order"]) not in others
    assert "plan" not in view(s, None)
    for seat in range(rules.players):
        events.append(legal_moves(s, seat)[0])
        s = apply(s, events[-1])
    while planned_move(s):
        events.append(planned_move(s))
        s = apply(s, events[-1])
    assert s.phase == "deal" and s.plan_played == set(range(rules.players))
    assert replay(rules, events, first_dealer=0) == s == state_from_json(state_to_json(s))
