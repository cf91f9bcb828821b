"""deal_records: every hand of a game with every seat's cards, folded from the log: what each seat
was dealt, threw, played and pegged, what its hand and crib counted, and the board after."""

from collections import Counter

from games import cribbage
from tests.engine.test_tallies import _random_game


def test_each_hand_holds_what_the_log_dealt_threw_played_and_pegged():
    for seed, variant in ((1, "two"), (5, "five_card"), (2, "three"), (3, "four")):
        rules, moves, _ = _random_game(seed, variant)
        records = cribbage.deal_records(rules, moves)
        deals = [m for m in moves if m["kind"] == "deal"]
        assert [r.number for r in records] == list(range(1, len(deals) + 1))
        state = cribbage.new_game(rules)
        hand = 0
        for move in moves:
            if move["kind"] == "deal":
                hand += 1
                record = records[hand - 1]
                state = cribbage.apply(state, move)
                # Dealt: what the deal gave each seat, in card order.
                assert [list(s.dealt) for s in record.seats] == [[c.code for c in sorted(h)] for h in state.hands]
                assert record.dealer == state.dealer
                continue
            if move["kind"] == "discard":
                assert sorted(move["cards"], key=cribbage.card_from_code) == sorted(
                    records[hand - 1].seats[move["seat"]].thrown, key=cribbage.card_from_code
                )
            state = cribbage.apply(state, move)
        # Every point pegged in the play and counted in the shows is in the hands' records.
        pegged, shown = Counter(), Counter()
        before = cribbage.new_game(rules)
        for move in moves:
            count = len(before.records) if move["kind"] != "deal" else 0
            before = cribbage.apply(before, move)
            for r in before.records[count:]:
                if r.phase == "play":
                    pegged[r.seat] += r.points
                if r.phase == "show":
                    shown[r.seat] += r.points + r.past_target
        assert [sum(r.seats[s].pegged for r in records) for s in range(rules.players)] == [
            pegged[s] for s in range(rules.players)
        ]
        assert [
            sum((r.seats[s].hand or 0) + (r.seats[s].crib or 0) for r in records) for s in range(rules.players)
        ] == [shown[s] for s in range(rules.players)]
        assert records[-1].scores == state.scores
        assert all(r.seats[r.dealer].crib is not None or r is records[-1] for r in records)
