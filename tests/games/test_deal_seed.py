"""Games dealt from a seed (duplicate events): the same decks at every table, and kept secret."""

import random

import pytest
from django.urls import reverse

from games import lifecycle, services
from games.models import Event
from tests.factories import make_user, play_random_move

pytestmark = pytest.mark.django_db

SEED = "0f3c9a7e51b2d4c6a8e0f1a2b3c4d5e6"


def _seeded_game(seed=SEED):
    players = [make_user(allow_forced_moves=False), make_user(allow_forced_moves=False)]
    return lifecycle.start_game(players=players, first_dealer=0, deal_seed=seed, rng=random.Random(99))


def _decks(game):
    return [e.data["deck"] for e in Event.objects.filter(game=game, kind="deal").order_by("seq")]


def _play_hands(game, hands, rng):
    while len(_decks(game)) < hands and not game.is_finished:
        state = services.engine_state(game)
        seat = services.cribbage.to_act(state)[0]
        play_random_move(game, seat, rng=rng)
        game.refresh_from_db()


def test_games_of_one_seed_are_dealt_the_same_decks_hand_by_hand_whatever_is_played():
    first, second = _seeded_game(), _seeded_game()
    assert _decks(first) == _decks(second) and len(_decks(first)) == 1
    # Different play (and a different rng passed in): the third hand's deck is still the same.
    _play_hands(first, 3, random.Random(1))
    _play_hands(second, 3, random.Random(2))
    assert _decks(first)[:3] == _decks(second)[:3]
    assert len({tuple(deck) for deck in _decks(first)[:3]}) == 3  # a new deck each hand
    other = _seeded_game(seed="another")
    assert _decks(other)[0] != _decks(first)[0]
    unseeded = lifecycle.start_game(players=[make_user(), make_user()], rng=random.Random(99))
    assert unseeded.deal_seed == ""


def test_a_finished_game_is_sealed_from_spectators_while_its_cards_are_played_elsewhere(client):
    done, playing = _seeded_game(), _seeded_game()
    _play_hands(done, 2, random.Random(3))  # a hand shown: its cards are in the record
    services.record_forfeit(done, 1, reason="left")
    spectator = make_user()
    client.force_login(spectator)
    pages = [
        reverse("games:game", args=[done.pk]),
        reverse("games:state", args=[done.pk]),
        reverse("games:record", args=[done.pk]),
        reverse("games:record_txt", args=[done.pk]),
        reverse("games:record_json", args=[done.pk]),
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 403, url
        assert "deck" not in response.text and "Hand 1" not in response.text
    assert "other tables are still playing the same cards" in client.get(pages[0]).text
    # Its own players still read their game; the other table's players watch nothing of it.
    client.force_login(done.seats.get(number=0).player)
    assert client.get(pages[2]).status_code == 200
    client.force_login(playing.seats.get(number=1).player)
    assert client.get(pages[2]).status_code == 403
    # When the last table finishes, the round's games can be watched.
    services.record_forfeit(playing, 0, reason="left")
    client.force_login(spectator)
    assert all(client.get(url).status_code == 200 for url in pages)
    assert "Hand 1" in client.get(pages[3]).text


def test_no_page_shows_the_seed_and_the_admin_hides_the_sealed_decks(client):
    done, playing = _seeded_game(), _seeded_game()
    services.record_forfeit(done, 0, reason="left")
    staff = make_user(is_staff=True, is_superuser=True)
    client.force_login(staff)
    page = client.get(reverse("admin:games_game_change", args=[done.pk]))
    assert page.status_code == 200
    assert SEED not in page.text and "Hidden while the game is on" in page.text
    assert '"deck"' not in page.text
    client.force_login(playing.seats.get(number=0).player)
    for url in (reverse("games:game", args=[playing.pk]), reverse("games:state", args=[playing.pk])):
        assert SEED not in client.get(url).text
