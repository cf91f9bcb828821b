"""A casual game counts for the ratings when its challenge says so and every player accepts it."""

import pytest
from django.urls import reverse

from games.models import Challenge, Game
from tests.factories import committed, finish_game, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _env(settings):
    settings.SITE_URL = "https://cribbage.example"
    from django.core.cache import cache

    cache.clear()


def _form(**fields):
    return {"variant": "two", "target": "121", "days_per_move": "3", **fields}


def test_a_rated_challenge_accepted_makes_a_rated_game_without_help(client):
    alice, bob = make_user(allow_forced_moves=False), make_user(allow_forced_moves=False)
    client.force_login(alice)
    response = client.post(reverse("games:new_challenge"), _form(player1=bob.email, rated="on"))
    challenge = Challenge.objects.get()
    assert response.status_code == 302 and challenge.rated
    client.force_login(bob)
    page = client.get(challenge.get_absolute_url()).content.decode()
    assert "<strong>Rated</strong>: the result counts for the players' ratings" in page
    client.post(reverse("games:challenge_accept", args=[challenge.pk]))
    game = Game.objects.get()
    assert game.rated and game.assistance == Game.Assistance.OFF_BY_RULE
    with committed():
        finish_game(game, winner=1)
    assert bob.ratings.get(family="two").mu > alice.ratings.get(family="two").mu


def test_an_unrated_challenge_makes_a_game_that_does_not_count(client):
    alice, bob = make_user(), make_user()
    client.force_login(alice)
    client.post(reverse("games:new_challenge"), _form(player1=bob.email))
    client.force_login(bob)
    client.post(reverse("games:challenge_accept", args=[Challenge.objects.get().pk]))
    assert Game.objects.get().rated is False


def test_rated_with_help_on_is_refused_and_nothing_is_sent(client):
    alice, bob = make_user(), make_user()
    client.force_login(alice)
    response = client.post(reverse("games:new_challenge"), _form(player1=bob.email, rated="on", help_on="on"))
    assert response.status_code == 400
    assert "A rated game has no engine help: untick help on, or rated." in response.content.decode()
    assert not Challenge.objects.exists()


def test_a_rated_seek(client):
    alice, bob = make_user(), make_user()
    client.force_login(alice)
    client.post(reverse("games:seeks"), _form(rated="on"))
    seek = Challenge.objects.get()
    assert seek.is_seek and seek.rated
    client.force_login(bob)
    client.post(reverse("games:challenge_accept", args=[seek.pk]))
    assert Game.objects.get().rated
