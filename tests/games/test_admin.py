"""The game admin: the log read-only, and no card a player could not see while the game is on."""

import json

import pytest
from django.utils.html import escape

from games import cribbage, services
from games.models import Event
from tests.factories import finish_game, make_user, start_two_player_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client):
    client.force_login(make_user(is_staff=True, is_superuser=True))
    return client


def shown(data):
    """How a piece of JSON reads in an admin page."""
    return escape(json.dumps(data))


def test_a_game_on_shows_its_log_but_no_hidden_card(staff_client):
    game = start_two_player_game()
    services.submit_move(game, 0, cribbage.legal_moves(services.engine_state(game), 0)[0])
    deal, discard = (Event.objects.get(game=game, kind=kind) for kind in ("deal", "discard"))
    secrets = [shown(deal.data["deck"]), shown(discard.data["cards"]), escape('"hands"')]

    page = staff_client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert all(f"<p>{kind}</p>" in page for kind in ("cut_for_deal", "deal", "discard"))
    assert page.count("Hidden while the game is on") == 3  # the snapshot, the deal, the discard
    assert game.get_absolute_url() in page  # the spectator's table instead
    for event in (deal, discard):
        event_page = staff_client.get(f"/admin/games/event/{event.pk}/change/").content.decode()
        assert "Hidden while the game is on" in event_page
        page += event_page
    assert not [secret for secret in secrets if secret in page]


def test_a_finished_game_shows_everything_and_the_log_cannot_be_changed(staff_client):
    game = finish_game(start_two_player_game(), 0, "")
    page = staff_client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert "Hidden while" not in page
    assert shown(Event.objects.filter(game=game, kind="deal").first().data["deck"]) in page
    event = game.events.get(seq=1)
    assert staff_client.post(f"/admin/games/event/{event.pk}/change/", {"kind": "deal"}).status_code == 403
    assert staff_client.post(f"/admin/games/event/{event.pk}/delete/", {"post": "yes"}).status_code == 403
    assert staff_client.get("/admin/games/event/add/").status_code == 403
    event.refresh_from_db()
    assert event.kind == "cut_for_deal"


def test_a_pegging_plan_is_hidden_from_staff_while_the_game_is_on(staff_client):
    game = start_two_player_game()
    held = [c.code for c in services.engine_state(game).hands[1]]
    services.submit_move(game, 1, cribbage.read_plan(" ".join(reversed(held))))
    plan = Event.objects.get(game=game, kind="plan")
    page = staff_client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    page += staff_client.get(f"/admin/games/event/{plan.pk}/change/").content.decode()
    assert shown(plan.data["order"]) not in page and escape('"plans"') not in page
    assert page.count("Hidden while the game is on") >= 4  # the snapshot, the deal, the plan twice
