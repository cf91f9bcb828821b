"""HTML is sent compressed to a browser that asks for it (the game page is large)."""

import gzip
import random

import pytest
from django.urls import reverse

from tests.factories import start_two_player_game

pytestmark = pytest.mark.django_db


def test_the_game_page_is_gzipped_when_asked_and_smaller(client):
    game = start_two_player_game(rng=random.Random(7))
    client.force_login(game.seats.get(number=0).player)
    url = reverse("games:game", args=[game.pk])

    plain = client.get(url)
    assert plain.status_code == 200
    assert "Content-Encoding" not in plain

    packed = client.get(url, headers={"accept-encoding": "gzip"})
    assert packed.status_code == 200
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    html = gzip.decompress(packed.content).decode()
    assert "cribbage-board" in html
    assert len(packed.content) < len(plain.content) / 2
