import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.cribbage.cards import FULL_DECK, Card, card_from_code, parse_cards


def test_full_deck_is_in_index_order_and_sorted():
    assert len(FULL_DECK) == 52 == len(set(FULL_DECK))
    assert [c.index for c in FULL_DECK] == list(range(52))
    assert sorted(reversed(FULL_DECK)) == list(FULL_DECK)
    assert all(Card.from_index(i) == c for i, c in enumerate(FULL_DECK))


@pytest.mark.parametrize(
    "card, value, index, code, label",
    [
        (Card(1, "S"), 1, 0, "AS", "A♠"),
        (Card(5, "H"), 5, 17, "5H", "5♥"),
        (Card(10, "D"), 10, 38, "TD", "10♦"),
        (Card(11, "C"), 10, 43, "JC", "J♣"),
        (Card(13, "C"), 10, 51, "KC", "K♣"),
    ],
)
def test_card_properties(card, value, index, code, label):
    assert (card.value, card.index, card.code, card.label, str(card)) == (value, index, code, label, code)


def test_card_is_immutable_and_hashable():
    c = Card(5, "H")
    with pytest.raises(AttributeError):
        c.rank = 6
    assert {c: 1}[Card(5, "H")] == 1


@pytest.mark.parametrize("bad", [(0, "S"), (14, "H"), (5, "X"), (5, "h"), ("5", "H")])
def test_card_rejects_nonsense(bad):
    with pytest.raises(ValueError):
        Card(*bad)


@pytest.mark.parametrize(
    "text, codes",
    [
        ("5H jd", ["5H", "JD"]),
        ("10♥ K♠", ["TH", "KS"]),
        ("th, qs", ["TH", "QS"]),
        ("th,qs", ["TH", "QS"]),
        ("5♥\ufe0f A♤ 2♡ 3♢ 4♧", ["5H", "AS", "2H", "3D", "4C"]),
        ("  ", []),
        ("", []),
        ("5h 5h", ["5H", "5H"]),
    ],
)
def test_parse_cards(text, codes):
    assert [c.code for c in parse_cards(text)] == codes


@pytest.mark.parametrize("text, token", [("5H 5X", "5X"), ("1H", "1H"), ("11S", "11S"), ("QQ", "QQ"), ("5", "5")])
def test_parse_cards_names_bad_token(text, token):
    with pytest.raises(ValueError, match=f"Cannot read '{token}' as a card"):
        parse_cards(text)


def test_card_from_code():
    assert card_from_code("10h") == Card(10, "H")


cards_st = st.lists(st.sampled_from(FULL_DECK), max_size=8)


@given(cards_st, st.sampled_from([" ", ", ", ",", "  ,\t"]), st.booleans())
def test_round_trip_codes_and_labels(cs, sep, lower):
    codes = sep.join(c.code for c in cs)
    labels = sep.join(c.label for c in cs)
    assert parse_cards(codes.lower() if lower else codes) == cs
    assert parse_cards(labels) == cs


@given(st.text(alphabet="AJQKX0123456789SHDCZ♠♥!é", min_size=1, max_size=4))
def test_bad_tokens_raise_naming_the_token(token):
    try:
        result = parse_cards(token)
    except ValueError as e:
        assert repr(token) in str(e)
    else:
        assert [c.code for c in result] == [card_from_code(token).code]
