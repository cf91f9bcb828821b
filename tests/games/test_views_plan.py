"""The pegging plan on the game page (a form that needs no script) and on a discard link's confirm page."""

import random
import re

import pytest
from django.urls import reverse

from games import cribbage, selectors, services
from mail import links
from tests.factories import start_two_player_game

from .test_views_play import messages_of, page

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    return start_two_player_game(rng=random.Random(7))


@pytest.fixture
def players(game):
    return [s.player for s in game.seats.order_by("number")]


def plan_token(html):
    form = re.search(r'<form method="post" action="[^"]*/plan/".*?</form>', html, re.S).group(0)
    return re.search(r'name="token" value="([0-9a-f]+)"', form).group(1)


def test_the_page_orders_the_cards_and_ticks_the_rules_and_only_the_player_sees_the_plan(client, game, players):
    client.force_login(players[0])
    html = page(client, game)
    hand = list(selectors.view_for(game, 0).hand)
    for code in hand:
        assert f'name="place_{code}"' in html
    fields = {
        "token": plan_token(html),
        "score_first": "on",
        "on_rank": "5",
        "on_card": hand[0],
        f"place_{hand[2]}": "1",
        f"place_{hand[1]}": "2",
    }
    response = client.post(reverse("games:plan", args=[game.pk]), fields, follow=True)
    words = f"plan score first, on 5 play {hand[0]}, {hand[2]} {hand[1]}"
    assert any(words in m for m in messages_of(response))
    game.refresh_from_db()
    assert selectors.view_for(game, 0).plan["words"] == words
    assert words in page(client, game)
    client.force_login(players[1])
    assert words not in page(client, game) and "plan score first" not in page(client, game)
    client.logout()
    assert "plan score first" not in page(client, game)


def test_a_refused_plan_on_the_page_says_why_and_changes_nothing(client, game, players):
    client.force_login(players[0])
    html = page(client, game)
    seq = game.seq
    response = client.post(
        reverse("games:plan", args=[game.pk]), {"token": plan_token(html), "on_rank": "5", "on_card": "XX"}, follow=True
    )
    assert any('"XX" is not a card' in m or "XX" in m for m in messages_of(response))
    response = client.post(reverse("games:plan", args=[game.pk]), {"token": plan_token(html)}, follow=True)
    assert any("Give at least one card a place" in m for m in messages_of(response))
    game.refresh_from_db()
    assert game.seq == seq


def test_a_discard_links_confirm_page_takes_the_plan_with_the_discard(client, game):
    view = selectors.view_for(game, 0)
    move = next(m for m in view.legal_moves if m["kind"] == "discard")
    url = links.move_url(game.pk, 0, game.seq, {k: v for k, v in move.items() if k != "seat"})
    path = re.sub(r"^https?://[^/]+", "", url)
    html = client.get(path).content.decode()
    kept = [c for c in view.hand if c not in move["cards"]]
    for code in kept:
        assert f'name="place_{code}"' in html
    for code in move["cards"]:
        assert f'name="place_{code}"' not in html
    response = client.post(path, {f"place_{kept[3]}": "1", f"place_{kept[0]}": "2", "score_first": "on"})
    assert response.status_code == 200
    game.refresh_from_db()
    assert selectors.view_for(game, 0).plan["words"] == f"plan score first, {kept[3]} {kept[0]}"
    assert list(selectors.view_for(game, 0).my_discards) == move["cards"]


def test_the_confirm_page_discards_in_one_click_without_a_plan(client, game):
    view = selectors.view_for(game, 0)
    move = next(m for m in view.legal_moves if m["kind"] == "discard")
    path = re.sub(
        r"^https?://[^/]+", "", links.move_url(game.pk, 0, game.seq, {k: v for k, v in move.items() if k != "seat"})
    )
    assert client.post(path).status_code == 200
    game.refresh_from_db()
    assert selectors.view_for(game, 0).plan is None and services.engine_state(game).discards[0]


def test_another_seats_plan_does_not_move_the_pages_poll(client, game, players):
    from games import cribbage

    client.force_login(players[0])
    before = client.get(reverse("games:state", args=[game.pk])).json()["seq"]
    services.submit_move(game, 1, cribbage.read_plan(" ".join(selectors.view_for(game, 1).hand)))
    assert client.get(reverse("games:state", args=[game.pk])).json()["seq"] == before
    assert f'data-seq="{before}"' in page(client, game)
    client.force_login(players[1])
    assert client.get(reverse("games:state", args=[game.pk])).json()["seq"] == before + 1


def test_muggins_a_count_ahead_on_the_page_is_said_for_the_show_and_seen_by_its_player_alone(client):
    game = start_two_player_game(rng=random.Random(7), muggins=True, target=61)
    for seat in (0, 1):
        services.submit_move(game, seat, {"kind": "discard", "cards": list(selectors.view_for(game, seat).hand[:2])})
    game.refresh_from_db()
    state = services.engine_state(game)
    pone = 1 - state.dealer
    players = {s.number: s.player for s in game.seats.all()}
    client.force_login(players[pone])
    html = page(client, game)
    form = re.search(r'<form[^>]*id="count-ahead".*?</form>', html, re.S).group(0)
    fields = dict(re.findall(r'name="(expected_seq|token)" value="([^"]*)"', form))
    true = cribbage.score_hand(state.kept[pone], state.starter).total
    response = client.post(
        reverse("games:move", args=[game.pk]), {**fields, "action": "count_ahead", "points": true}, follow=True
    )
    assert f"Your count of {true} is said" in " ".join(messages_of(response))
    game.refresh_from_db()
    assert selectors.view_for(game, pone).count_ahead == true
    assert selectors.view_for(game, state.dealer).count_ahead is None
    client.force_login(players[state.dealer])
    assert f"You have said {true}" not in page(client, game)
    refused = client.post(
        reverse("games:move", args=[game.pk]),
        {**fields, "token": "f" * 32, "action": "count_ahead", "points": 40},
        follow=True,
    )
    assert refused.status_code == 400 and "Cannot count 40 for your hand" in refused.content.decode()


@pytest.mark.parametrize(
    "initial",
    [
        {},
        {"place_7S": 2, "place_AH": 1},
        {"place_KD": 3, "score_first": True, "on_rank": "T", "on_card": "KD"},
        {"on_rank": "A", "on_card": "7S"},
    ],
)
def test_the_game_pages_plan_fields_are_the_markup_of_the_forms_widgets(initial):
    """The page writes the plan form's fields itself (PlanFields), without a template per widget:
    the same markup, byte for byte, as PlanForm's own widgets render."""
    from games.play_forms import PlanFields, PlanForm

    cards = ["7S", "KD", "AH", "5C"]
    form = PlanForm(cards=cards)
    form.initial = initial
    fields = PlanFields(cards, initial)
    assert [(card, str(html)) for card, html in fields.places] == [(card, str(f)) for card, f in form.places()]
    assert str(fields.score_first) == str(form["score_first"])
    assert form["score_first"].id_for_label == "id_score_first"
    assert fields.score_first_label == form["score_first"].label
    assert str(fields.on_rank) == str(form["on_rank"])
    assert fields.on_card == (form["on_card"].value() or "")
