"""The computer player: legal in every variant, sensible pegging, blind to hidden cards, strong."""

import dataclasses
import random

import pytest

from bench.bench_strength import play_game
from games.cribbage import apply, deal_event, legal_moves, new_game, rules_for, to_act
from games.cribbage.cards import FULL_DECK
from games.cribbage.scoring import score_pegging
from games.cribbage.strategy.analysis import discard_options
from games.cribbage.strategy.peg_table import pegging_value
from games.cribbage.strategy.players import (
    BASELINES,
    LEVELS,
    PEGGING_WEIGHT,
    Table,
    choose_discard,
    choose_move,
    choose_play,
    evaluate_plays,
    peg_points,
)

from ..conftest import cards, stacked_deck

ALL = LEVELS + BASELINES


# --- Legality: whole games in every variant ------------------------------------------


@pytest.mark.parametrize("variant", ["two", "three", "four", "five_card"])
@pytest.mark.parametrize("muggins", [False, True])
def test_every_level_plays_legal_games_to_the_end(variant, muggins):
    rules = rules_for(variant, target=61, muggins=muggins)
    n = rules.players
    for g, level in enumerate(ALL):
        levels = [level if s % 2 == 0 else ALL[(g + 1) % len(ALL)] for s in range(n)]
        rng = random.Random(f"{variant}{muggins}{g}")
        state = new_game(rules, first_dealer=g % n)
        moves = 0
        while state.phase != "over":
            if state.phase == "deal":
                state = apply(state, deal_event(state, rng))
                continue
            seat = to_act(state)[0]
            move = choose_move(state, seat, level=levels[seat], rng=rng)
            assert move in legal_moves(state, seat)
            state = apply(state, {**move, "seat": seat})
            moves += 1
        assert moves > 10


def test_unknown_level_is_refused():
    state = new_game(rules_for("two"), first_dealer=0)
    state = apply(state, deal_event(state, random.Random(1)))
    with pytest.raises(ValueError, match="Unknown level"):
        choose_move(state, 0, level="grandmaster")


# --- Discards --------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(30))
def test_discards_follow_the_analysis(seed):
    rng = random.Random(seed)
    players, size = [(2, 6), (2, 5), (3, 5), (4, 5)][seed % 4]
    hand = rng.sample(FULL_DECK, size)
    is_dealer = seed % 3 == 0
    options = discard_options(hand, is_dealer, players=players)
    best = options[0]
    pick = lambda level: next(  # noqa: E731
        o for o in options if set(o.discard) == set(choose_discard(hand, is_dealer, players, level))
    )
    assert pick("standard") == best

    # The expert adds the kept cards' pegging (two players) to the show.
    def worth(o):
        pegging = pegging_value([c.rank for c in o.keep], is_dealer, size) if players == 2 else 0
        return float(o.total_ev) + PEGGING_WEIGHT * pegging

    assert worth(pick("expert")) == max(worth(o) for o in options)
    assert players == 2 or pick("expert") == best
    assert pick("greedy").hand_ev == max(o.hand_ev for o in options)


def test_expert_keeps_the_obvious_hand():
    # Dealer with 5 5 J 4 6 K: keep 4 5 5 6 (a double run with fifteens), throw J K? The analysis
    # prefers keeping 4-5-5-6 and throwing the ten-cards to its own crib.
    hand = cards("5H 5D JH 4S 6C KH")
    assert set(choose_discard(hand, True, 2, "expert")) == set(cards("JH KH"))


# --- Pegging -----------------------------------------------------------------------------


def table(hand, count_cards="", seen="", held=4, floor=0, gone=()):
    """Two-player knowledge: our hand, the count, and what else we have seen."""
    hand, count_cards, seen = cards(hand), cards(count_cards), cards(seen)
    known = set(hand) | set(count_cards) | set(seen)
    unseen = tuple(c for c in FULL_DECK if c not in known)
    return Table(2, 0, tuple(hand), tuple(count_cards), unseen, (len(hand), held), frozenset(gone), (0, floor))


@pytest.mark.parametrize("level", ["expert", "standard", "easy"])
def test_takes_fifteen_and_thirty_one(level):
    rng = random.Random(3)
    assert choose_play(table("5H 9C 2S 3D", "KS"), level, rng).code == "5H"
    assert choose_play(table("TH 4C 6S", "KS 9D 2C", held=2), level, rng).code == "TH"


@pytest.mark.parametrize("level", ["expert", "standard"])
def test_takes_a_safe_pair(level):
    assert choose_play(table("QH 2C 4S 9D", "QS"), level).code == "QH"


@pytest.mark.parametrize("level", ["expert", "standard"])
def test_never_leaves_five_or_twenty_one_when_nothing_is_at_stake(level):
    # 2 then our 3 would leave 5 for any ten-card.
    assert choose_play(table("3D 9C KS 7H", "2S"), level).code != "3D"
    # Leading: a 5 invites fifteen-two.
    assert choose_play(table("5D 4C KS 9H", ""), level).code != "5D"
    # From 11, a ten-card would leave 21 for their ten-card (31).
    assert choose_play(table("TD 4C 8S", "KS AH", held=3), level).code != "TD"


def test_avoids_handing_over_an_easy_fifteen():
    # After their 6, our 4 makes 10 (any five scores 15, and leaves a run draw 4-5-6);
    # a king (16) gives nothing easy. Neither scores now.
    choice = choose_play(table("4D KC 8S AH", "6S"), "expert").code
    assert choice != "4D"


def test_expert_answers_their_pair_with_a_pair_royal():
    # Leading from a pair: if they pair, we make six.
    t = table("8D 8C KS QH", "")
    values = evaluate_plays(t)
    assert values[cards("8D")[0]] > values[cards("KS")[0]]


def test_goes_limit_what_they_can_hold():
    # They said go at 25: every card they hold is worth more than 6, so a 5-count is no danger
    # of a ten... but after our 9 (count 9) they cannot hold a 6 to make 15.
    t = table("9D 4C", "", held=2, floor=6)
    t_unknown = table("9D 4C", "", held=2, floor=0)
    nine = cards("9D")[0]
    assert evaluate_plays(t)[nine] > evaluate_plays(t_unknown)[nine]


def test_peg_points_agree_with_score_pegging():
    rng = random.Random(7)
    for _ in range(2000):
        seq, count = [], 0
        for c in rng.sample(FULL_DECK, 8):
            if count + c.value > 31:
                break
            seq.append(c)
            count += c.value
        for k in range(1, len(seq) + 1):
            assert peg_points(tuple(c.rank for c in seq[:k])) == score_pegging(seq[:k]).total


# --- Counting and muggins ------------------------------------------------------------------


def _play_phase(muggins=True):
    rules = rules_for("two", muggins=muggins)
    deal = {"kind": "deal", "deck": stacked_deck(rules, 0, ["AH 2H 3H 4H KC QC", "5S 6S 7S TD JD 9D"], starter="8C")}
    state = apply(new_game(rules, first_dealer=0), deal)
    state = apply(state, {"kind": "discard", "seat": 0, "cards": ["KC", "QC"]})
    return apply(state, {"kind": "discard", "seat": 1, "cards": ["JD", "9D"]})


def test_expert_claims_the_true_count_and_calls_muggins():
    state = _play_phase()
    # Seat 1 (pone) leads a ten; the expert dealer's 5? It holds A-4 only: none makes 15.
    state = apply(state, {"kind": "play", "seat": 1, "card": "5S", "claim": 0})
    move = choose_move(state, 0, "expert", random.Random(1))
    assert move["kind"] == "play" and move["claim"] == max(
        m["claim"] for m in legal_moves(state, 0) if m.get("card") == move["card"]
    )
    state = apply(state, {"kind": "play", "seat": 0, "card": "4H", "claim": 0})  # count 9
    state = apply(state, {"kind": "play", "seat": 1, "card": "6S", "claim": 0})  # 15 and a run 4-5-6: 5 missed
    assert choose_move(state, 0, "expert", random.Random(1)) == {"kind": "muggins", "seat": 0}
    state = apply(state, {"kind": "muggins", "seat": 0})
    assert state.scores[0] == 5
    assert choose_move(state, 0, "expert", random.Random(1))["kind"] == "play"


def test_no_muggins_call_on_a_true_claim():
    state = _play_phase()
    state = apply(state, {"kind": "play", "seat": 1, "card": "5S", "claim": 0})
    state = apply(state, {"kind": "play", "seat": 0, "card": "4H", "claim": 0})
    state = apply(state, {"kind": "play", "seat": 1, "card": "6S", "claim": 5})
    assert choose_move(state, 0, "expert", random.Random(1))["kind"] == "play"


# --- Hidden information -------------------------------------------------------------------


def _swap_hidden(state, seat, rng):
    """The same table for `seat`, with the others' unseen cards exchanged for undealt ones."""
    others = [s for s in range(state.rules.players) if s != seat]
    hidden = [c for s in others for c in state.hands[s]]
    pool = list(state.deck[1:] if state.starter is None else state.deck)
    if len(pool) < len(hidden):
        return None
    new = dict(zip(hidden, rng.sample(pool, len(hidden))))
    back = {v: k for k, v in new.items()}
    swap = lambda cs: tuple(new.get(c, c) for c in cs)  # noqa: E731
    hands = tuple(swap(h) if s in others else h for s, h in enumerate(state.hands))
    kept = tuple(swap(k) if s in others else k for s, k in enumerate(state.kept))
    first = state.deck[:1] if state.starter is None else ()
    deck = first + tuple(back.get(c, c) for c in (state.deck[1:] if state.starter is None else state.deck))
    return dataclasses.replace(state, hands=hands, kept=kept, deck=deck)


@pytest.mark.parametrize("level", ALL)
def test_moves_depend_only_on_what_the_seat_can_see(level):
    rng = random.Random(level)
    checked = 0
    # "late": near the end of a game, where the expert's discards and plays go by win chance
    # (the exact play-out of sampled hands) and its discards weigh the kept cards' pegging.
    cases = ("two", "three", "four", "five_card", "late")
    for i, variant in enumerate(cases):
        rules = rules_for("two" if variant == "late" else variant)
        state = new_game(rules, first_dealer=0)
        if variant == "late":
            state = dataclasses.replace(state, scores=(96, 99), prev_scores=(96, 99))
        while state.phase != "over" and checked < 60 * (1 + i):
            if state.phase == "deal":
                state = apply(state, deal_event(state, rng))
                continue
            seat = to_act(state)[0]
            other = _swap_hidden(state, seat, rng)
            if other is not None and other.hands != state.hands:
                a = choose_move(state, seat, level, random.Random(checked))
                b = choose_move(other, seat, level, random.Random(checked))
                assert a == b, (state.phase, a, b)
                checked += 1
            state = apply(state, {**choose_move(state, seat, level, rng), "seat": seat})
    assert checked >= 200


# --- Strength -------------------------------------------------------------------------------


@pytest.mark.slow
def test_expert_clearly_beats_the_greedy_baseline():
    games = 200
    wins = 0
    for g in range(games):
        levels = ("expert", "greedy") if g % 2 == 0 else ("greedy", "expert")
        res, _ = play_game(levels, 50_000 + g, first_dealer=(g // 2) % 2)
        wins += levels[res["winner"]] == "expert"
    assert wins >= 0.6 * games, f"expert won {wins} of {games}"
