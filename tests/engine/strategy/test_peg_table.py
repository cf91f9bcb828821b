"""The kept cards' worth in the play: the shipped table and its use in discards."""

from games.cribbage.cards import parse_cards
from games.cribbage.strategy import peg_table
from games.cribbage.strategy.analysis import discard_options
from games.cribbage.strategy.players import EXPERT_PIECES, PEGGING_WEIGHT, choose_discard


def test_the_shipped_table_has_every_kept_pattern_in_both_roles_centred():
    data = peg_table.load()
    for variant, size, patterns in (("two", 4, 1820), ("five_card", 3, 455)):
        for role in ("pone", "dealer"):
            table = data[variant][role]
            assert len(table) == patterns
            assert all(len(k.split("-")) == size for k in table)
            assert -5 < min(table.values()) < 0 < max(table.values()) < 5


def test_low_cards_and_pairs_peg_better_than_four_of_a_kind():
    for is_dealer in (False, True):
        assert peg_table.pegging_value([1, 1, 2, 3], is_dealer) > peg_table.pegging_value([9, 9, 9, 9], is_dealer)
    assert peg_table.pegging_value([3, 1, 2, 1], False) == peg_table.pegging_value([1, 1, 2, 3], False)


def test_the_expert_breaks_near_ties_between_throws_by_the_pegging():
    hand = parse_cards("AH 2D 9S 9C KH QD")
    for is_dealer in (False, True):
        options = discard_options(hand, is_dealer)
        by_show = options[0].discard
        chosen = choose_discard(hand, is_dealer, level="expert")
        without = choose_discard(hand, is_dealer, level="expert", pieces=EXPERT_PIECES - {"pegging"})
        assert without == by_show
        best = max(
            options,
            key=lambda o: (
                float(o.total_ev) + PEGGING_WEIGHT * peg_table.pegging_value([c.rank for c in o.keep], is_dealer)
            ),
        )
        assert chosen == best.discard
