"""Numbers sent by a form are read only in the digits 0 to 9, as a reply's are: Arabic-Indic
("٣") or fullwidth ("３") digits, which Django's IntegerField and int() read as 3, are refused
with a clear message and change nothing."""

import random

import pytest
from django.urls import reverse

from accounts.models import Vacation
from games.models import Challenge, Event
from tests.factories import make_user, play_random_move, start_two_player_game

pytestmark = pytest.mark.django_db

NOT_ASCII = ("٣", "３", "३")  # Arabic-Indic, fullwidth, Devanagari three
DIGITS_ONLY = "Write a whole number in the digits 0 to 9."


def waiting_for_bob():
    alice, bob = make_user(allow_forced_moves=False), make_user(allow_forced_moves=False)
    game = start_two_player_game(players=[alice, bob])
    play_random_move(game, 0, rng=random.Random(3))
    return game, alice, bob


@pytest.mark.parametrize("three", NOT_ASCII)
def test_more_time_in_other_digits_is_refused(client, three):
    game, alice, _ = waiting_for_bob()
    client.force_login(alice)
    response = client.post(reverse("clock:more_time", args=[game.pk]), {"seat": "1", "days": three})
    assert response.status_code == 400
    assert "Say how many days in the digits 0 to 9" in response.text
    response = client.post(reverse("clock:more_time", args=[game.pk]), {"seat": "١", "days": "3"})
    assert response.status_code == 400 and "Choose whom to give more time." in response.text
    assert not Event.objects.filter(game=game, kind="more_time").exists()
    response = client.post(reverse("clock:more_time", args=[game.pk]), {"seat": "1", "days": "3"})
    assert response.status_code == 302 and Event.objects.filter(game=game, kind="more_time").count() == 1


@pytest.mark.parametrize("three", NOT_ASCII)
def test_a_vacation_in_other_digits_is_refused(client, three):
    _, _, bob = waiting_for_bob()
    client.force_login(bob)
    response = client.post(reverse("clock:vacation_start"), {"days": three})
    assert response.status_code == 400 and "Say how many days in the digits 0 to 9" in response.text
    assert not Vacation.objects.exists()


@pytest.mark.parametrize("three", NOT_ASCII)
def test_a_challenge_with_days_per_move_in_other_digits_is_refused(client, three):
    alice, bob = make_user(), make_user()
    client.force_login(alice)
    for field in ("days_per_move", "time_bank_days"):
        form = {"variant": "two", "target": "121", "days_per_move": "3", "player1": bob.email, field: three}
        response = client.post(reverse("games:new_challenge"), form)
        assert response.status_code == 400 and DIGITS_ONLY in response.text
    assert not Challenge.objects.exists()


def test_a_count_on_the_game_page_in_other_digits_is_refused(client):
    from games import services
    from games.cribbage import legal_moves, to_act

    alice, bob = make_user(allow_forced_moves=False), make_user(allow_forced_moves=False)
    game = start_two_player_game(players=[alice, bob], muggins=True)
    rng = random.Random(5)
    for _ in range(200):  # to the first count of the show
        state = services.engine_state(game)
        seat = to_act(state)[0]
        if any(move["kind"] == "count" for move in legal_moves(state, seat)):
            break
        game = play_random_move(game, seat, rng=rng).game
    else:
        pytest.fail("no count came")
    game.refresh_from_db()
    player = game.seats.get(number=seat).player
    client.force_login(player)
    page = client.get(reverse("games:game", args=[game.pk])).text
    token = page.split('name="token" value="', 1)[1].split('"', 1)[0]
    seq = game.seq
    response = client.post(
        reverse("games:move", args=[game.pk]),
        {"action": "count", "expected_seq": str(seq), "token": token, "points": "٤"},
    )
    assert response.status_code == 400 and DIGITS_ONLY in response.text
    game.refresh_from_db()
    assert game.seq == seq
