"""Near the end of a game the expert plays for the win, not the points, and still sees no hidden card."""

import dataclasses
import random

from games.cribbage import apply, new_game, rules_for, to_act
from games.cribbage.cards import FULL_DECK
from games.cribbage.strategy.analysis import discard_options
from games.cribbage.strategy.endgame import Board, discard_chances, in_reach
from games.cribbage.strategy.players import choose_discard, choose_move
from games.cribbage.strategy.stats import fast_score

from ..conftest import cards, stacked_deck
from .test_players import _swap_hidden


def deal(hands, dealer=0, scores=(0, 0), starter=None, target=121):
    rules = rules_for("two", target=target)
    state = new_game(rules, first_dealer=dealer)
    state = dataclasses.replace(state, scores=tuple(scores))
    return apply(state, {"kind": "deal", "deck": stacked_deck(rules, dealer, hands, starter=starter)})


def test_in_reach_only_when_this_deal_may_decide():
    assert not in_reach(Board(60, 70, True, "two", 121))
    assert in_reach(Board(60, 95, True, "two", 121))
    assert not in_reach(None)


def test_a_pone_two_short_keeps_the_points_it_is_sure_of():
    # Pone at 119 counts first: any two points in hand win, whatever the dealer holds.
    hand = cards("2S 2H 9D TC JS KH")
    board = Board(119, 100, False, "two", 121)
    keep = [c for c in hand if c not in choose_discard(hand, False, 2, "expert", board=board)]
    unseen = [c for c in FULL_DECK if c not in hand]
    assert all(fast_score([c.index for c in keep], z.index) >= 2 for z in unseen)


def test_chances_follow_the_board():
    hand = cards("5S 5H 6D 4C JS KH")
    options = discard_options(hand, True)
    close = discard_chances(options, hand, Board(110, 110, True, "two", 121))
    ahead = discard_chances(options, hand, Board(115, 90, True, "two", 121))
    assert all(0 <= p <= 1 for p in close + ahead)
    assert min(ahead) > max(close)


def test_endgame_moves_depend_only_on_what_the_seat_can_see():
    rng = random.Random(4)
    checked = 0
    for g in range(6):
        hands = [" ".join(c.code for c in h) for h in (lambda d: (d[:6], d[6:12]))(rng.sample(FULL_DECK, 12))]
        state = deal(hands, dealer=g % 2, scores=(105 + g, 108 - g))
        while state.phase in ("discard", "play") and state.outcome is None:
            seat = to_act(state)[0]
            other = _swap_hidden(state, seat, rng)
            if other is not None and other.hands != state.hands:
                assert choose_move(state, seat, "expert") == choose_move(other, seat, "expert")
                checked += 1
            state = apply(state, {**choose_move(state, seat, "expert"), "seat": seat})
    assert checked >= 20


def test_a_discards_chance_is_the_plain_average_over_starters_and_play_outcomes():
    # The sums shared between options must give what each option's own sum gives.
    from games.cribbage.strategy.endgame import PEGGING_OUTCOMES, _between, _mean
    from games.cribbage.strategy.win_chance import after_play, pegging_chances, show_chances

    hand = cards("5S 5H 6D 4C JS KH")
    board = Board(104, 99, False, "two", 121)
    options = discard_options(hand, False)
    pegging_values = [0.6 - 0.1 * i for i in range(len(options))]
    got = discard_chances(options, hand, board, pegging_values)
    pegging = pegging_chances("two", 121)[:PEGGING_OUTCOMES]
    mass = sum(w for *_, w in pegging)
    mean_crib = _mean(show_chances("two", 121)["crib"])
    unseen = [c for c in FULL_DECK if c not in hand]
    for i in (0, 5, 14):
        o = options[i]
        total = 0.0
        for shift, w_crib in _between(abs(float(o.crib_ev)) - mean_crib):
            for peg, w_peg in _between(pegging_values[i]):
                for z in unseen:
                    s = fast_score([c.index for c in o.keep], z.index)
                    for pone, dealer, w in pegging:
                        mine, theirs = pone + max(peg, 0), dealer - min(peg, 0)
                        total += w_crib * w_peg * w * after_play(104 + mine, 99 + theirs, False, s, "two", 121, shift)
        assert abs(got[i] - total / (len(unseen) * mass)) < 1e-12


def test_a_play_by_chance_is_the_same_whatever_was_searched_before():
    # The win-chance search keeps a deal's positions for its later plays: the values must not
    # depend on it.
    from games.cribbage.strategy import peg_search
    from games.cribbage.strategy.endgame import board_from_view, crib_shift, kept_and_starter, play_chances
    from games.cribbage.strategy.knowledge import table_from_view
    from games.cribbage.table_view import seat_view

    rng = random.Random(9)
    compared = 0
    for g in range(3):
        hands = [" ".join(c.code for c in h) for h in (lambda d: (d[:6], d[6:12]))(rng.sample(FULL_DECK, 12))]
        state = deal(hands, dealer=g % 2, scores=(100 + g, 104 - g))
        while state.phase in ("discard", "play") and state.outcome is None:
            seat = to_act(state)[0]
            if state.phase == "play":
                v = seat_view(state, seat)
                args = (table_from_view(v, seat), board_from_view(v, seat), *kept_and_starter(v), crib_shift(v, seat))
                warm = play_chances(*args)
                peg_search._END_SEARCHES.clear()
                assert play_chances(*args) == warm
                compared += 1
            state = apply(state, {**choose_move(state, seat, "expert"), "seat": seat})
    assert compared >= 8
