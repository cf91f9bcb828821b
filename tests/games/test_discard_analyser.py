"""The calculator's discard analyser: which two to throw from six, for the dealer and the pone,
and never for a hand of the player's own game in play without the engine's help."""

import random
import re

import pytest
from django.urls import reverse

from games.cribbage import FULL_DECK, parse_cards
from games.cribbage.strategy import discard_options
from games.presentation import card_name
from games.selectors import view_for
from tests.factories import make_user, start_two_player_game

pytestmark = pytest.mark.django_db

DEAL = "5H 5C JD 6S 9C KH"


def analysed(client, deal):
    return client.get(reverse("games:calculator"), {"deal": deal})


def test_every_throw_is_valued_for_the_dealer_and_the_pone(client):
    response = analysed(client, DEAL)
    assert response.status_code == 200
    rows = response.context["throws"].rows
    assert len(rows) == 15
    hand = parse_cards(DEAL)
    best_dealer, best_pone = discard_options(hand, True)[0], discard_options(hand, False)[0]
    [dealer_row] = [r for r in rows if r.get("best_dealer")]
    [pone_row] = [r for r in rows if r.get("best_pone")]
    assert dealer_row["discard"] == best_dealer.discard and dealer_row["dealer"] == float(best_dealer.total_ev)
    assert pone_row["discard"] == best_pone.discard and pone_row["pone"] == float(best_pone.total_ev)
    assert all(r["crib_dealer"] > 0 and r["crib_pone"] < 0 for r in rows)
    html = response.content.decode()
    assert "Which two to throw from" in html and html.count("<strong>best</strong>") == 2


@pytest.mark.parametrize("deal", ["5H 5C JD 6S 9C", "5H 5C JD 6S 9C 5H", "5H 5C JD 6S 9C ZZ"])
def test_a_deal_that_is_not_six_cards_is_refused_with_why(client, deal):
    response = analysed(client, deal)
    assert response.status_code == 400
    assert "Dealt hand" in response.content.decode() and not response.context["throws"].rows


def test_not_for_the_players_own_hand_in_a_game_without_help(client):
    alice = make_user()
    game = start_two_player_game(players=[alice, make_user()], rng=random.Random(5))
    hand = " ".join(view_for(game, 0).hand)
    client.force_login(alice)
    response = analysed(client, hand)
    assert response.status_code == 403
    html = response.content.decode()
    assert f"game {game.pk}" in html and "without the engine’s help" in html
    assert not response.context["throws"].rows and "As dealer" not in html

    # Someone else may analyse the same cards: they are not theirs to play.
    client.force_login(make_user())
    assert analysed(client, hand).status_code == 200


def test_the_players_own_hand_where_help_is_on(client):
    alice = make_user()
    game = start_two_player_game(players=[alice, make_user()], rng=random.Random(5), help_on=True)
    assert game.help_allowed_for(0)
    client.force_login(alice)
    assert analysed(client, " ".join(view_for(game, 0).hand)).status_code == 200


def test_every_throw_and_keep_is_listed_in_card_order(client):
    """Low to high, suit order ♠ ♥ ♦ ♣ fixed: "9♣ J♦", never "J♦ 9♣" (the engine's own order)."""
    html = analysed(client, DEAL).content.decode()
    table = html[html.index('class="throws-table"') :]
    rows = re.findall(r"<tr><td class=\"show-cards\">(.*?)</tr>", table, re.S)
    assert len(rows) == 15
    for row in rows:
        cells = re.findall(r'<td class="show-cards[^"]*">(.*?)</td>', row, re.S)
        for cell in cells:
            labels = re.findall(r'aria-label="([^"]+)"', cell)
            cards = [ORDER.index(label) for label in labels]
            assert cards == sorted(cards), labels
    assert 'aria-label="9 of clubs">9♣</span> <span class="card red" role="img" aria-label="jack of diamonds"' in html
    heading = re.search(r'<h2 id="throws-heading">(.*?)</h2>', html, re.S).group(1)
    assert [ORDER.index(label) for label in re.findall(r'aria-label="([^"]+)"', heading)] == sorted(
        ORDER.index(label) for label in re.findall(r'aria-label="([^"]+)"', heading)
    )


ORDER = [card_name(c) for c in FULL_DECK]
