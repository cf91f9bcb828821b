"""The hand calculator page and the presentation helpers it is built from."""

import re

import pytest
from django.template import Context, Template
from django.urls import reverse

from games.cribbage import parse_cards, score_hand
from games.presentation import card_chip, card_name, cards_text, kind_label, read_show, score_rows

URL = reverse("games:calculator")
TWENTY_NINE = {"hand": "5H 5C 5S JD", "starter": "5D"}


def total(html):
    found = re.findall(r'id="show-total">(\d+)<', html)
    return int(found[0]) if found else None


def errors(html):
    block = re.search(r'<div class="calc-errors" role="alert".*?</div>', html, re.S)
    return re.findall(r"<li>(.*?)</li>", block.group(0)) if block else []


def test_the_empty_page_offers_both_forms(client):
    response = client.get(URL)
    html = response.content.decode()
    assert response.status_code == 200
    assert total(html) is None and not errors(html)
    assert 'method="get"' in html
    assert '<label for="calc-hand">' in html and 'id="calc-hand" name="hand"' in html
    for slot in "1234s":
        assert f'<label for="r{slot}"' in html and f'<label for="s{slot}"' in html
    assert '<option value="H">♥ hearts</option>' in html


def test_the_29_hand_typed(client):
    html = client.get(URL, TWENTY_NINE).content.decode()
    assert total(html) == 29
    assert html.count('class="show-row fifteen"') == 8
    assert html.count('class="show-row double_pair_royal"') == 1
    assert html.count('class="show-row nobs"') == 1
    assert "fifteen sixteen" in html
    assert "a double pair royal is twenty-eight" in html
    assert "one for his nob is twenty-nine" in html
    # Cards are chips with their suit symbol and name, not colour alone.
    assert '<span class="card red" role="img" aria-label="jack of diamonds">J♦</span>' in html
    assert '<span class="card black" role="img" aria-label="5 of spades">5♠</span>' in html
    assert not errors(html)


def test_the_29_hand_picked_with_selects(client):
    params = {
        "r1": "5",
        "s1": "H",
        "r2": "5",
        "s2": "C",
        "r3": "5",
        "s3": "S",
        "r4": "J",
        "s4": "D",
        "rs": "5",
        "ss": "D",
    }
    html = client.get(URL, params).content.decode()
    assert total(html) == 29
    assert '<option value="J" selected>J</option>' in html  # the picks stay chosen
    assert 'value="5H 5C 5S JD"' in html  # and the typed form is filled in


def test_crib_flush_needs_all_five(client):
    hand = {"hand": "2H 4H 6H 8H", "starter": "KD"}
    assert total(client.get(URL, hand).content.decode()) == 4
    html = client.get(URL, {**hand, "crib": "1"}).content.decode()
    assert total(html) == 0
    assert "nineteen" in html
    assert 'id="calc-crib-typed" name="crib" value="1" checked' in html


def test_ten_and_runs_are_labelled(client):
    html = client.get(URL, {"hand": "10H JC QS 2D", "starter": "KD"}).content.decode()
    assert total(html) == 4
    assert "run of four" in html
    assert 'aria-label="10 of hearts">10♥<' in html


@pytest.mark.parametrize(
    "params, message",
    [
        ({"hand": "5H 5X 5S JD", "starter": "5D"}, "Cannot read &#x27;5X&#x27; as a card"),
        ({"hand": "5H 5H 5S JD", "starter": "5D"}, "5♥ (5 of hearts) is named twice"),
        ({"hand": "5H 5C", "starter": "5D"}, "Hand: a hand has four cards; you gave two"),
        ({"hand": "5H 5C 5S JD AC", "starter": "5D"}, "you gave five"),
        ({"hand": "5H 5C 5S", "starter": "5D"}, "a hand has four cards; you gave three"),
        ({"hand": "5H 5C 5S", "starter": "5D", "crib": "1"}, "Crib: a crib has four cards; you gave three"),
        ({"hand": "5H 5C 5S JD", "starter": "JD"}, "J♦ (jack of diamonds) is already in the hand"),
        ({"hand": "5H 5C 5S JD", "starter": ""}, "name the starter card"),
        ({"hand": "5H 5C 5S JD", "starter": "5D 6D"}, "Starter: one card only"),
        ({"hand": "5H 5C 5S JD", "starter": "ZZ"}, "Starter: Cannot read &#x27;ZZ&#x27; as a card"),
        (
            {
                "r1": "5",
                "s1": "",
                "r2": "5",
                "s2": "C",
                "r3": "5",
                "s3": "S",
                "r4": "J",
                "s4": "D",
                "rs": "5",
                "ss": "D",
            },
            "Card 1: choose both a rank and a suit",
        ),
        ({"r1": "5", "s1": "H", "r2": "5", "s2": "C", "r3": "5", "s3": "S", "rs": "5", "ss": "D"}, "you gave three"),
    ],
)
def test_bad_input_gives_a_clear_message_and_no_score(client, params, message):
    response = client.get(URL, params)
    html = response.content.decode()
    assert response.status_code == 400  # a clear 4xx, with the page saying what was wrong
    assert any(message in e for e in errors(html)), errors(html)
    assert total(html) is None
    assert 'class="show-row' not in html
    assert 'role="alert"' in html


def test_score_rows_count_aloud_with_a_running_total():
    rows = score_rows(score_hand(parse_cards("5H 5C 5S JD"), parse_cards("5D")[0]))
    assert [r.running for r in rows] == [2, 4, 6, 8, 10, 12, 14, 16, 28, 29]
    assert rows[0].said == "fifteen two"
    assert rows[-2].label == "double pair royal" and rows[-2].points == 12
    assert rows[-1].said == "one for his nob is twenty-nine"
    run_rows = score_rows(score_hand(parse_cards("3H 4H 5H 6H"), parse_cards("7H")[0]))
    assert [r.label for r in run_rows][-2:] == ["run of five", "five-card flush"]
    assert sum(r.points for r in run_rows) == run_rows[-1].running


def test_card_helpers():
    (ten,) = parse_cards("TD")
    assert card_name(ten) == "10 of diamonds" and card_name("AS") == "ace of spades"
    assert str(card_chip(ten)) == '<span class="card red" role="img" aria-label="10 of diamonds">10♦</span>'
    assert str(card_chip("kc")) == '<span class="card black" role="img" aria-label="king of clubs">K♣</span>'
    assert cards_text(parse_cards("5H JD")) == "5♥ J♦"
    assert cards_text(parse_cards("5H JD"), ascii=True) == "5H JD"
    assert kind_label("pair_royal") == "pair royal"
    hand, starter = read_show("5h,5c 5s jd", "5♦")
    assert len(hand) == 4 and starter.code == "5D"
    assert len(read_show("5h 5c 5s", "jd", five_card=True)[0]) == 3
    with pytest.raises(ValueError, match="a crib has four cards; you gave three"):
        read_show("5h 5c 5s", "jd", crib=True, five_card=True)


def test_card_template_tag_and_filters():
    html = Template("{% load cards %}{% card c %}|{{ c|card }}|{{ cs|cards }}|{{ c|card_name }}").render(
        Context({"c": "5H", "cs": parse_cards("5H QS")})
    )
    chip = '<span class="card red" role="img" aria-label="5 of hearts">5♥</span>'
    assert html.split("|")[:2] == [chip, chip]
    assert html.split("|")[2] == chip + ' <span class="card black" role="img" aria-label="queen of spades">Q♠</span>'
    assert html.split("|")[3] == "5 of hearts"
