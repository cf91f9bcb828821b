"""A player's pages are never kept by a browser or a proxy: Cache-Control private, no-store on
every page for someone logged in, and on every page reached by a secret link or key."""

import re

import pytest
from django.core import mail as outbox_mail
from django.urls import reverse

from clock import calendar
from games.selectors import view_for
from mail import links
from tests.factories import start_two_player_game

pytestmark = pytest.mark.django_db


def assert_private(response):
    directives = {part.strip() for part in response.get("Cache-Control", "").split(",")}
    assert {"private", "no-store"} <= directives, (response.request["PATH_INFO"], response.get("Cache-Control"))


@pytest.fixture
def game():
    return start_two_player_game()


def test_a_logged_in_players_pages_are_private(client, game):
    alice = game.seats.get(number=0).player
    client.force_login(alice)
    for path in (
        reverse("games:my_games"),
        reverse("accounts:profile"),
        reverse("accounts:own_data"),
        reverse("games:game", args=[game.pk]),
        reverse("games:new_challenge"),
        reverse("home"),
    ):
        response = client.get(path)
        assert response.status_code == 200, path
        assert_private(response)
    # A refused form post and a redirect after one are the player's too.
    assert_private(client.post(reverse("accounts:profile"), {"display_name": ""}))
    assert_private(client.post(reverse("accounts:theme"), {"theme": "dark"}))


def test_pages_reached_by_a_secret_link_are_private_without_a_login(client, game):
    view = view_for(game, 0)
    move_path = re.sub(r"^https?://[^/]+", "", links.move_url(game.pk, 0, view.seq, view.legal_moves[0]))
    response = client.get(move_path)  # shows Alice's hand
    assert response.status_code == 200 and response.wsgi_request.user.is_anonymous
    assert_private(response)

    alice = game.seats.get(number=0).player
    client.post(reverse("accounts:login_link"), {"email": alice.email})
    login_path = re.search(r"https?://[^/\s]+(/accounts/login-link/[^\s\"<]+)", outbox_mail.outbox[-1].body)[1]
    assert_private(client.get(login_path))
    assert_private(client.get(reverse("clock:calendar_feed", args=[calendar.key_for(alice)])))


def test_public_pages_for_visitors_stay_cacheable(client):
    response = client.get(reverse("help"))
    assert response.status_code == 200
    assert "no-store" not in response.get("Cache-Control", "")


def test_the_games_poll_keeps_its_own_revalidated_caching(client, game):
    client.force_login(game.seats.get(number=0).player)
    response = client.get(reverse("games:state", args=[game.pk]))
    assert response["Cache-Control"] == "private, no-cache" and response.has_header("ETag")
