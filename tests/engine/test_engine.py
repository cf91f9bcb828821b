"""Scripted hands through the engine: deal, discard, pegging, go, show, game end, muggins."""

import dataclasses
import json

import pytest

from games.cribbage import (
    IllegalMove,
    apply,
    deal_event,
    describe_move,
    is_over,
    legal_moves,
    moves_to_offer,
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
from games.cribbage.pegging import resolve_play

from .conftest import card, cards, stacked_deck


def deal(rules, dealer, hands, crib="", starter=None):
    return {"kind": "deal", "deck": stacked_deck(rules, dealer, hands, crib, starter)}


def play(seat, code, **extra):
    return {"kind": "play", "seat": seat, "card": code, **extra}


def discard(seat, codes):
    return {"kind": "discard", "seat": seat, "cards": codes.split()}


def run(state, *events):
    for e in events:
        state = apply(state, e)
    return state


# Scenario A: dealer 0, pone 1. Pone keeps KH QD 5C 2D, dealer keeps TC 8S 3H AS, starter 4D.
TWO = rules_for("two")
A_DEAL = deal(TWO, 0, ["KC 8S 3H AS 7D 7C", "KH QD 5C 2D 9S 9H"], starter="4D")
A_DISCARDS = [discard(1, "9S 9H"), discard(0, "7D 7C")]
A_PLAY = [
    play(1, "KH"),
    play(0, "KC"),
    play(1, "QD"),
    play(0, "AS"),
    play(1, "5C"),
    play(0, "8S"),
    play(1, "2D"),
    play(0, "3H"),
]


def test_a_whole_hand_pegging_and_show():
    s = run(new_game(TWO, first_dealer=0), A_DEAL)
    assert s.phase == "discard" and to_act(s) == (0, 1)
    assert s.hands[1] == tuple(cards("KH QD 5C 2D 9S 9H"))
    assert len(legal_moves(s, 0)) == 15
    s = run(s, *A_DISCARDS)
    assert s.starter == card("4D") and to_act(s) == (1,)  # non-dealer leads
    s = run(s, A_PLAY[0], A_PLAY[1])
    assert s.scores == (2, 0) and s.count == 20  # a pair of kings
    s = run(s, A_PLAY[2])
    assert to_act(s) == (0,) and [m["card"] for m in legal_moves(s, 0)] == ["AS"]
    s = run(s, A_PLAY[3])
    assert s.scores == (4, 0) and s.count == 0 and to_act(s) == (1,)  # 31 for 2, pone leads again
    s = run(s, *A_PLAY[4:7])
    assert s.scores == (4, 2)  # fifteen two
    s = run(s, A_PLAY[7])
    # last card 1; then the show is automatic: pone 4, dealer 4, crib (9 9 7 7 + 4) 4
    assert [(sh.seat, sh.what, sh.score.total) for sh in s.shows] == [(1, "hand", 4), (0, "hand", 4), (0, "crib", 4)]
    assert s.scores == (13, 6) and s.prev_scores == (9, 2)
    assert s.phase == "deal" and needs_chance(s) == "deal"
    assert [(r.seat, r.phase, r.points) for r in s.records] == [
        (0, "play", 2),
        (0, "play", 2),
        (1, "play", 2),
        (0, "play", 1),
        (1, "show", 4),
        (0, "show", 4),
        (0, "show", 4),
    ]
    assert [i.kind for i in s.records[1].items] == ["thirty_one"]
    assert [i.kind for i in s.records[3].items] == ["last_card"]
    # next deal: the deal alternates and the finished hand becomes public history
    s2 = apply(s, deal(TWO, 1, ["AS 2S 3S 4S 5S 6S", "AH 2H 3H 4H 5H 6H"]))
    assert s2.dealer == 1 and s2.previous.crib == s.crib and s2.records == ()
    assert view(s2, 0)["previous_hand"]["kept"][1] == ["KH", "QD", "5C", "2D"]


def test_go_in_two_player_and_the_player_with_cards_plays_on():
    s = run(
        new_game(TWO, first_dealer=0),
        deal(TWO, 0, ["TS JC 5D 6C AS AH", "9H 9C 8D 4S AD AC"], starter="KH"),
        discard(0, "AS AH"),
        discard(1, "AD AC"),
        play(1, "9H"),
        play(0, "TS"),
        play(1, "9C"),
    )
    # 28: dealer cannot play, pone cannot either -> pone pegs 1 for the go, dealer leads
    assert s.scores == (0, 1) and s.count == 0 and s.turn == 0
    assert [(p.seat, p.card) for p in s.plays][-1] == (0, None)  # the dealer's go, recorded
    assert s.records[-1].items[0].kind == "go"
    s = run(s, play(0, "JC"), play(1, "4S"), play(0, "5D"), play(1, "8D"))
    # 27: the dealer's 6 does not fit, pone is out of cards -> go to pone; dealer leads the 6 alone
    assert s.scores == (0, 2) and s.turn == 0
    s = apply(s, play(0, "6C"))
    assert s.records[len(s.records) - 4].items[0].kind == "last_card"  # before the three shows


def test_resolve_play_last_card_on_fifteen_pegs_three():
    res = resolve_play(cards("TH"), card("5C"), [(), ()], seat=0)
    assert res.score.total == 3 and [i.kind for i in res.score.items] == ["fifteen", "last_card"]
    assert res.play_over


def test_resolve_play_thirty_one_with_a_pair_pegs_four_not_five():
    res = resolve_play(cards("TH 3C 9D"), card("9S"), [(), ()], seat=1)
    assert res.score.total == 4 and [i.kind for i in res.score.items] == ["thirty_one", "pair"]


def test_at_thirty_one_nobody_says_go():
    """The count is over at 31: the others, whatever they hold, did not say go (no "go" in the record)."""
    res = resolve_play(cards("TH QC AS"), card("KS"), [cards("KD 9H"), cards("QS")], seat=0)
    assert res.count == 31 and res.count_over and res.went == ()
    assert res.next_seat == 1  # the next count is led as usual
    res = resolve_play(cards("TH QC"), card("5S"), [cards("KD 9H"), cards("QS")], seat=0)
    assert res.count == 25 and res.went == (1,)  # below 31, holding only tens: go


def test_three_player_go_the_next_players_play_on():
    # seat 0 made 28; seat 1 holds only a 5 (goes), seat 2 plays the 2 (30), seat 0 the ace for 31
    hands = [cards("AH"), cards("5S"), cards("2C KD")]
    res = resolve_play(cards("TH TD"), card("8C"), hands, seat=0)
    assert not res.count_over and res.next_seat == 2 and res.went == (1,)
    hands = [cards("AH"), cards("5S"), cards("KD")]
    res = resolve_play(cards("TH TD 8C"), card("2C"), hands, seat=2)
    assert res.next_seat == 0 and not res.count_over
    hands = [(), cards("5S"), cards("KD")]
    res = resolve_play(cards("TH TD 8C 2C"), card("AH"), hands, seat=0)
    assert res.count_over and res.score.total == 2 and res.next_seat == 1  # 31; left of the last player leads


def test_three_player_go_point_goes_to_whoever_played_last():
    hands = [cards("KH"), cards("5S"), cards("KD")]
    res = resolve_play(cards("TH TD 8C"), card("2C"), hands, seat=2)
    assert res.count_over and res.score.total == 1 and res.score.items[0].kind == "go"
    assert res.next_seat == 0 and set(res.went) == {0, 1}


def test_four_player_leader_skips_players_without_cards():
    hands = [(), (), cards("KD"), ()]
    res = resolve_play(cards("TH TD 8C"), card("2C"), hands, seat=0)
    assert res.count_over and res.next_seat == 2


def test_four_player_partners_pool_points():
    four = rules_for("four")
    s = run(
        new_game(four, first_dealer=3),
        deal(four, 3, ["5H 9C 2D 3S KC", "5S 9D 2H 3C KD", "5D 9H 2S 3D KH", "5C 9S 2C 3H KS"], starter="AH"),
        *[discard(i, code) for i, code in enumerate(["KC", "KD", "KH", "KS"])],
    )
    assert s.turn == 0 and len(s.crib) == 4
    s = run(s, play(0, "5H"), play(1, "5S"), play(2, "5D"), play(3, "5C"))
    # pair 2 to team 1, pair royal 6 to team 0 (the 5s also make fifteen 2), double pair royal 12 to team 1
    assert s.scores == (8, 14)
    assert [r.side for r in s.records] == [1, 0, 1]


def test_five_card_pone_starts_three_up_and_play_stops_after_first_go():
    five = rules_for("five_card")
    s = new_game(five, first_dealer=0)
    assert s.scores == (0, 3) and s.records[0].items[0].kind == "pone_start"
    s = run(
        s,
        deal(five, 0, ["KS QS 2H 7C 7D", "TH TD 9C 6C 6D"], starter="AC"),
        discard(0, "7C 7D"),
        discard(1, "6C 6D"),
        play(1, "TH"),
        play(0, "KS"),
        play(1, "TD"),
    )
    # 30: nobody can play; pone pegs the go and the play ends with cards unplayed
    assert s.phase == "deal"
    assert s.hands[1] == tuple(cards("9C")) and set(s.hands[0]) == set(cards("QS 2H"))
    pone_hand, dealer_hand, crib = (sh.score.total for sh in s.shows)
    assert (pone_hand, dealer_hand) == (2, 0)  # T T 9 A: a pair; K Q 2 A: nothing
    assert s.scores == (crib, 3 + 1 + 2)
    assert view(s, 0)["shows"][0]["cards"] == ["TH", "TD", "9C"]


def test_heels_pegs_at_once_and_can_win():
    s = new_game(TWO, first_dealer=0)
    s = dataclasses.replace(s, scores=(119, 50))
    s = run(s, deal(TWO, 0, ["KC 8S 3H AS 7D 7C", "KH QD 5C 2D 9S 9H"], starter="JD"), *A_DISCARDS)
    assert is_over(s) and s.scores == (121, 50)
    assert s.records[-1].phase == "heels" and s.records[-1].items[0].kind == "heels"
    assert result(s) == {
        "winner": 0,
        "winner_seats": [0],
        "scores": [121, 50],
        "skunk": "double_skunk",
        "skunks": {"1": "double_skunk"},
        "reason": "target",
        "seat": None,
        "detail": None,
    }
    with pytest.raises(IllegalMove, match="over"):
        apply(s, play(1, "KH"))
    assert to_act(s) == () and legal_moves(s, 1) == [] and needs_chance(s) is None


def test_game_ends_the_moment_pone_reaches_target_in_the_show():
    s = dataclasses.replace(new_game(TWO, first_dealer=0), scores=(110, 117))
    s = run(s, A_DEAL, *A_DISCARDS, *A_PLAY)
    # pegging: dealer 115, pone 119; pone shows 4 first and wins before the dealer's hand,
    # its peg stopping in the game hole
    assert is_over(s) and s.scores == (115, 121) and len(s.shows) == 1
    assert result(s)["winner"] == 1 and result(s)["skunk"] is None
    assert (s.records[-1].points, s.records[-1].past_target) == (2, 2)


def _play_out(s):
    while s.phase == "play":
        seat = to_act(s)[0]
        s = apply(s, legal_moves(s, seat)[0])
    return s


def test_a_show_of_twenty_from_116_ends_the_game_at_121():
    hands = ["KC 8S 3H AS 7D 7C", "5H 5D TD JC 9S 9H"]  # pone keeps 5 5 T J: twenty with the 5 turned
    dealt = [deal(TWO, 0, hands, starter="5S"), discard(1, "9S 9H"), discard(0, "7D 7C")]
    pegged = _play_out(run(new_game(TWO, first_dealer=0), *dealt)).records
    pone_pegged = sum(r.points for r in pegged if r.seat == 1 and r.phase == "play")
    s = dataclasses.replace(new_game(TWO, first_dealer=0), scores=(100, 116 - pone_pegged))
    s = _play_out(run(s, *dealt))
    dealer_pegged = sum(r.points for r in pegged if r.seat == 0 and r.phase == "play")
    assert is_over(s) and s.scores == (100 + dealer_pegged, 121) and len(s.shows) == 1
    show = s.records[-1]
    assert (show.phase, show.points, show.past_target, sum(i.points for i in show.items)) == ("show", 5, 15, 20)
    assert s.shows[-1].score.total == 20  # the hand made 20; 5 were pegged
    assert result(s)["scores"] == [s.scores[0], 121]
    assert state_from_json(json.loads(json.dumps(state_to_json(s)))) == s


def test_game_ends_during_the_play():
    s = dataclasses.replace(new_game(TWO, first_dealer=0), scores=(119, 0))
    s = run(s, A_DEAL, *A_DISCARDS, A_PLAY[0], A_PLAY[1])
    assert is_over(s) and s.scores == (121, 0)
    with pytest.raises(IllegalMove):
        apply(s, A_PLAY[2])


def test_skunk_lines():
    assert [TWO.skunk(x) for x in (90, 91, 60, 61)] == ["skunk", None, "double_skunk", "skunk"]
    r61 = rules_for("two", target=61)
    assert [r61.skunk(x) for x in (30, 31, 0)] == ["skunk", None, "skunk"]


# --- Muggins ---------------------------------------------------------------

MUG = rules_for("two", muggins=True)


def test_muggins_in_the_play():
    s = run(new_game(MUG, first_dealer=0), A_DEAL, *A_DISCARDS, play(1, "KH", claim=0))
    assert [m for m in legal_moves(s, 0) if m["kind"] == "play" and m["card"] == "KC"] == [
        play(0, "KC", claim=0),
        play(0, "KC", claim=1),
        play(0, "KC", claim=2),
    ]
    with pytest.raises(IllegalMove, match="claim"):
        apply(s, play(0, "KC", claim=3))  # more than the card makes
    s = apply(s, play(0, "KC", claim=0))  # the dealer missed a pair
    assert s.scores == (0, 0) and {"kind": "muggins", "seat": 1} in legal_moves(s, 1)
    pone_view = view(s, 1)
    assert pone_view["may_call_muggins"] and pone_view["records"] == []  # a nil claim shows nothing
    with pytest.raises(IllegalMove):
        apply(s, {"kind": "muggins", "seat": 0})  # not on your own claim
    s = apply(s, {"kind": "muggins", "seat": 1})
    assert s.scores == (0, 2) and s.records[-1].phase == "muggins"
    assert [(r["phase"], r["points"], r["missed"]) for r in view(s, 0)["records"]] == [
        ("play", 0, 2),
        ("muggins", 2, 0),
    ]
    with pytest.raises(IllegalMove, match="no muggins"):
        apply(s, {"kind": "muggins", "seat": 1})


def test_muggins_window_closes_when_the_opponent_moves_on():
    s = run(
        new_game(MUG, first_dealer=0),
        A_DEAL,
        *A_DISCARDS,
        play(1, "KH", claim=0),
        play(0, "KC", claim=0),
        play(1, "QD", claim=0),
    )
    assert not any(m["kind"] == "muggins" for m in legal_moves(s, 1))
    assert s.scores == (0, 0)


def test_muggins_show_counting_and_the_crib_after_the_deal():
    claims = [play(e["seat"], e["card"], claim=p) for e, p in zip(A_PLAY, [0, 2, 0, 2, 0, 0, 2, 1])]
    s = run(new_game(MUG, first_dealer=0), A_DEAL, *A_DISCARDS, *claims)
    assert s.phase == "show" and to_act(s) == (1,) and s.scores == (5, 2)
    assert [m["points"] for m in legal_moves(s, 1)] == [0, 1, 2, 3, 4]
    s = run(s, {"kind": "count", "seat": 1, "points": 4})
    assert to_act(s) == (0,) and view(s, 0)["shows"][0]["cards"] == ["KH", "QD", "5C", "2D"]
    with pytest.raises(IllegalMove):
        apply(s, {"kind": "count", "seat": 0, "points": 5})
    s = run(s, {"kind": "count", "seat": 0, "points": 4}, {"kind": "count", "seat": 0, "points": 1})
    assert s.phase == "deal" and s.scores == (10, 6)
    assert "score" not in view(s, 1)["shows"][2]  # the crib's true count stays secret
    s = run(s, deal(MUG, 1, ["AS 2S 3S 4S 5S 6S", "AH 2H 3H 4H 5H 6H"]), discard(0, "AS 2S"))
    s = apply(s, {"kind": "muggins", "seat": 1})  # still open: the crib missed 3
    assert s.scores == (10, 9)
    assert "score" in view(s, 1)["previous_hand"]["shows"][2]


def test_muggins_crib_window_closes_when_the_opponent_discards():
    claims = [play(e["seat"], e["card"], claim=p) for e, p in zip(A_PLAY, [0, 2, 0, 2, 0, 0, 2, 1])]
    s = run(
        new_game(MUG, first_dealer=0),
        A_DEAL,
        *A_DISCARDS,
        *claims,
        *[{"kind": "count", "seat": x, "points": 0} for x in (1, 0, 0)],
        deal(MUG, 1, ["AS 2S 3S 4S 5S 6S", "AH 2H 3H 4H 5H 6H"]),
        discard(1, "AH 2H"),
    )
    with pytest.raises(IllegalMove):
        apply(s, {"kind": "muggins", "seat": 1})


# --- Illegal moves, cuts, resignations, text ---------------------------------


def test_illegal_moves_name_the_legal_ones():
    s = run(new_game(TWO, first_dealer=0), A_DEAL)
    with pytest.raises(IllegalMove) as err:
        apply(s, discard(0, "7D"))
    assert "crib 7D 7C" in str(err.value) and len(err.value.legal) == 15
    with pytest.raises(IllegalMove, match=r"^Seat 0 does not hold KH\. Legal"):  # 7D is in the hand
        apply(s, discard(0, "7D KH"))
    with pytest.raises(IllegalMove, match=r"^The same card twice: 7D 7D\. Legal"):
        apply(s, discard(0, "7D 7D"))
    with pytest.raises(IllegalMove, match="seat"):
        apply(s, discard(5, "7D 7C"))
    with pytest.raises(IllegalMove):
        apply(s, play(1, "KH"))  # no playing during the discard
    with pytest.raises(IllegalMove, match="Unknown"):
        apply(s, {"kind": "shuffle"})
    with pytest.raises(IllegalMove):
        apply(s, {"kind": "deal", "deck": A_DEAL["deck"]})
    s = run(s, *A_DISCARDS)
    with pytest.raises(IllegalMove):
        apply(s, discard(0, "KC 8S"))  # already discarded
    with pytest.raises(IllegalMove) as err:
        apply(s, play(0, "KC"))  # the dealer does not lead
    assert {m["seat"] for m in err.value.legal} == {1}
    s = run(s, play(1, "KH"), play(0, "KC"), play(1, "QD"))
    with pytest.raises(IllegalMove, match="past 31") as err:
        apply(s, play(0, "8S"))
    assert err.value.legal == [play(0, "AS")]
    assert isinstance(err.value, ValueError)


def test_cut_for_deal():
    s = new_game(TWO)
    assert needs_chance(s) == "cut_for_deal" and to_act(s) == ()
    s2 = apply(s, {"kind": "cut_for_deal", "cuts": [["7H", "7S"], ["QS", "2D"]]})
    assert s2.dealer == 1 and needs_chance(s2) == "deal"
    for bad in ([["7H", "7S"]], [["2D", "QS"], ["7H", "7S"]], [["7H", "7H"]], [["7H"]]):
        with pytest.raises(IllegalMove):
            apply(s, {"kind": "cut_for_deal", "cuts": bad})
    three = new_game(rules_for("three"))
    assert apply(three, {"kind": "cut_for_deal", "cuts": [["AH", "AS", "9D"], ["KH", "5S", "9D"]]}).dealer == 1
    with pytest.raises(IllegalMove):
        apply(s2, {"kind": "cut_for_deal", "cuts": [["7H", "2S"]]})


def test_resign_and_forfeit():
    s = run(new_game(TWO, first_dealer=0), A_DEAL)
    r = result(apply(s, {"kind": "resign", "seat": 0}))
    # Resigning concedes as the board stands: at 0 points that is a double skunk.
    assert (r["winner"], r["reason"], r["skunk"], r["seat"]) == (1, "resign", "double_skunk", 0)
    late = dataclasses.replace(s, scores=(95, 100))
    assert result(apply(late, {"kind": "resign", "seat": 0}))["skunk"] is None
    assert result(apply(dataclasses.replace(s, scores=(70, 100)), {"kind": "resign", "seat": 0}))["skunk"] == "skunk"
    r = result(apply(s, {"kind": "forfeit", "seat": 1, "reason": "timeout"}))
    # A timeout or adjudication is a plain win.
    assert (r["winner"], r["reason"], r["detail"], r["skunk"]) == (0, "forfeit", "timeout", None)
    three = dataclasses.replace(new_game(rules_for("three"), first_dealer=0), scores=(10, 40, 30))
    assert result(apply(three, {"kind": "resign", "seat": 1}))["winner"] == 2
    four = new_game(rules_for("four"), first_dealer=0)
    r = result(apply(four, {"kind": "resign", "seat": 2}))
    assert r["winner"] == 1 and r["winner_seats"] == [1, 3]


def test_move_text():
    assert describe_move(discard(0, "5H JD")) == "crib 5H JD"
    assert describe_move(play(1, "7C")) == "play 7C"
    assert describe_move(play(1, "7C", claim=2)) == "play 7C claim 2"
    assert describe_move({"kind": "count", "seat": 0, "points": 12}) == "count 12"
    assert describe_move({"kind": "muggins", "seat": 0}) == "muggins"
    assert describe_move({"kind": "resign", "seat": 0}) == "resign"


def test_snapshot_round_trip_and_replay():
    events = [A_DEAL, *A_DISCARDS, *A_PLAY[:5]]
    s = replay(TWO, events, first_dealer=0)
    snap = json.loads(json.dumps(state_to_json(s)))
    assert state_from_json(snap) == s and state_to_json(state_from_json(snap)) == snap


def test_view_hides_what_the_seat_may_not_know():
    s = run(new_game(TWO, first_dealer=0), A_DEAL)
    v = view(s, 0)
    assert v["hand"] == ["KC", "8S", "3H", "AS", "7D", "7C"] and v["cards_held"] == [6, 6]
    assert v["starter"] is None and "deck" not in v and "4D" not in json.dumps(v)
    s = run(s, *A_DISCARDS)
    text = json.dumps(view(s, 0))
    assert "9S" not in text and "KH" not in text and '"4D"' in text  # pone's crib cards and hand hidden
    assert view(s, None)["seat"] is None and "hand" not in view(s, None)


def test_view_hides_the_true_value_of_an_open_claim():
    s = run(
        new_game(MUG, first_dealer=0), A_DEAL, *A_DISCARDS, play(1, "KH", claim=0), play(0, "KC", claim=1)
    )  # a pair claimed as 1
    rec = view(s, 1)["records"][-1]
    assert rec["points"] == 1 and "items" not in rec and "missed" not in rec
    assert view(s, 1)["may_call_muggins"] and not view(s, 0)["may_call_muggins"]
    s = apply(s, play(1, "QD", claim=0))  # pone moved on: window closed
    rec = [r for r in view(s, 1)["records"] if r["seat"] == 0][-1]
    assert rec["missed"] == 1 and rec["items"][0]["kind"] == "pair"


def test_chance_phases_have_no_player_moves():
    s = new_game(TWO)
    assert all(legal_moves(s, seat) == [] for seat in (0, 1))
    with pytest.raises(IllegalMove, match="Waiting for the cut for deal"):
        apply(s, discard(0, "5H 5C"))


def test_moves_offered_under_muggins_do_not_count_for_the_player():
    import random as _random

    rules = rules_for("two", muggins=True)
    rng = _random.Random(4)
    state = new_game(rules, first_dealer=0)
    state = apply(state, deal_event(state, rng))
    for seat in (0, 1):
        state = apply(state, legal_moves(state, seat)[0])
    seat = to_act(state)[0]
    offered = moves_to_offer(state, seat)
    assert all("claim" not in m for m in offered)
    assert len(offered) == len({m["card"] for m in offered if m["kind"] == "play"})
    while state.phase != "show":
        seat = to_act(state)[0]
        state = apply(state, legal_moves(state, seat)[0])  # claims 0 for every play
    seat = to_act(state)[0]
    offered = moves_to_offer(state, seat)
    assert offered[0] == {"kind": "count", "seat": seat}  # no points: the player counts
    assert {m["kind"] for m in offered} <= {"count", "muggins"}
    counting = view(state, 1 - seat)["counting"]
    assert counting["seat"] == seat and len(counting["cards"]) == 4
    # After a claim, the opponent is offered muggins whether or not anything was missed.
    state = apply(state, {"kind": "count", "seat": seat, "points": 0})
    other = 1 - seat
    assert {"kind": "muggins", "seat": other} in moves_to_offer(state, other)
