"""show_tallies: each seat's shows, summed from the log, agree with what the shows made (the
points pegged, and those past the target that the game's end left unpegged)."""

import random

from games import cribbage


def _random_game(seed, variant="two"):
    rng = random.Random(seed)
    rules = cribbage.rules_for(variant)
    state, moves, show_points = cribbage.new_game(rules), [], [0] * rules.players
    while not cribbage.is_over(state):
        chance = cribbage.needs_chance(state)
        if chance == "cut_for_deal":
            move = cribbage.cut_for_deal_event(state, rng)
        elif chance == "deal":
            move = cribbage.deal_event(state, rng)
        else:
            seat = cribbage.to_act(state)[0]
            move = {**rng.choice(cribbage.legal_moves(state, seat)), "seat": seat}
        before = len(state.records)
        state = cribbage.apply(state, move)
        if move["kind"] != "deal":
            for record in state.records[before:]:
                if record.phase == "show":
                    show_points[record.seat] += record.points + record.past_target
        moves.append(move)
    return rules, moves, show_points


def test_the_tallies_sum_to_the_show_points_pegged():
    for seed, variant in ((1, "two"), (2, "three"), (3, "four")):
        rules, moves, show_points = _random_game(seed, variant)
        tallies = cribbage.show_tallies(rules, moves)
        assert [t.hand_points + t.crib_points for t in tallies] == show_points
        assert all(t.hands >= t.cribs > 0 for t in tallies)
        best = max(tallies, key=lambda t: t.best_hand)
        assert len(best.best_hand_cards) == rules.kept_size + 1  # the hand and the starter
        hand = cribbage.parse_cards(" ".join(best.best_hand_cards[:-1]))
        starter = cribbage.card_from_code(best.best_hand_cards[-1])
        assert cribbage.score_hand(hand, starter).total == best.best_hand
