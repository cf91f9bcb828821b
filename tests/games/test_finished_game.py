"""A finished game's page: the result and its skunk, the final board, the review and the ways on
(rematch, new game, my games), and nothing left over from the play (cards, the starter, the clock)."""

import random
import re

import pytest
from django.urls import reverse

from games import services
from games.models import Challenge, Game
from tests.factories import finish_game, make_user, start_two_player_game

pytestmark = pytest.mark.django_db


def page(client, game):
    response = client.get(reverse("games:game", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def players():
    return make_user(display_name="Alice", allow_forced_moves=False), make_user(
        display_name="Bob", allow_forced_moves=False
    )


def resigned(seat=1, **settings):
    """A game just dealt, in which `seat` resigns at once (a double skunk conceded)."""
    alice, bob = players()
    game = start_two_player_game(players=[alice, bob], rng=random.Random(2), **settings)
    services.submit_move(game, seat, {"kind": "resign"})
    game.refresh_from_db()
    return game, alice, bob


def test_the_winner_sees_the_result_its_skunk_the_final_board_and_the_ways_on(client):
    alice, bob = players()
    game = finish_game(start_two_player_game(players=[alice, bob]), winner=0, skunk="skunk")
    client.force_login(alice)
    html = page(client, game)
    assert re.search(r'<h2 id="over-heading">You won, with a skunk</h2>', html)
    assert "Alice won (reached 121), with a skunk" in html
    assert html.index("game-over") < html.index('class="scoreboard"')
    assert 'data-peg="front" data-track="0" data-hole="121"' in html  # the final board
    assert f'action="{reverse("games:rematch", args=[game.pk])}"' in html
    assert f'href="{reverse("games:new_challenge")}"' in html and f'href="{reverse("games:my_games")}"' in html
    assert 'id="review"' in html
    # Nothing left over from the play.
    for stale in (
        "not turned yet",
        "In hand:",
        "Kept for the show",
        'class="game-clock"',
        "Move due",
        "to move</span>",
    ):
        assert stale not in html, stale


def test_the_loser_reads_that_they_took_the_skunk(client):
    game, alice, bob = resigned(seat=1)
    client.force_login(bob)
    html = page(client, game)
    assert '<h2 id="over-heading">You lost, and took a double skunk</h2>' in html
    assert "Bob resigned" in html
    client.force_login(make_user())
    assert '<h2 id="over-heading">Alice won, with a double skunk</h2>' in page(client, game)
    assert "games:rematch" not in page(client, game) and "Rematch" not in page(client, game)


def test_rematch_challenges_the_same_players_with_the_same_settings(client):
    game, alice, bob = resigned(target=61, days_per_move=5)
    client.force_login(bob)
    response = client.post(reverse("games:rematch", args=[game.pk]), follow=True)
    challenge = Challenge.objects.get()
    assert response.redirect_chain[-1][0] == challenge.get_absolute_url()
    assert challenge.challenger == bob and [p.player for p in challenge.places.all()] == [alice]
    assert (challenge.variant, challenge.target, challenge.days_per_move) == (game.variant, 61, 5)
    assert "rematch challenge is sent" in response.content.decode()
    assert not challenge.rated


def test_the_rematch_of_a_rated_game_is_rated(client):
    game, alice, bob = resigned(rated=True)
    client.force_login(bob)
    client.post(reverse("games:rematch", args=[game.pk]))
    assert Challenge.objects.get().rated


def test_a_rematch_before_the_end_or_by_a_stranger_changes_nothing(client):
    alice, bob = players()
    game = start_two_player_game(players=[alice, bob])
    client.force_login(alice)
    assert "Rematch" not in page(client, game)
    response = client.post(reverse("games:rematch", args=[game.pk]))
    assert response.status_code == 400 and "games/game.html" in [t.name for t in response.templates]
    assert "not over yet" in response.content.decode() and not Challenge.objects.exists()
    game, *_ = resigned()
    client.force_login(make_user())
    assert client.post(reverse("games:rematch", args=[game.pk])).status_code == 403
    assert client.get(reverse("games:rematch", args=[game.pk])).status_code == 405
    assert not Challenge.objects.exists()


def test_a_finished_practice_game_offers_another_practice_game_not_a_rematch(client):
    game, alice, _ = resigned(seat=0)
    Game.objects.filter(pk=game.pk).update(practice=True)
    client.force_login(alice)
    html = page(client, game)
    assert "Rematch" not in html and f'href="{reverse("games:practice")}"' in html
    response = client.post(reverse("games:rematch", args=[game.pk]))
    assert response.status_code == 400
    assert [str(m) for m in response.context["messages"]] == [
        "A practice game is against the computer: start another on the site."
    ]
    assert not Challenge.objects.exists()


def test_a_hand_that_goes_past_the_target_says_what_it_made_and_what_was_not_pegged(client):
    alice, bob = players()
    game = finish_game(start_two_player_game(players=[alice, bob]), winner=0)
    [last] = [r for r in services.engine_state(game).records if r.past_target]
    client.force_login(alice)
    html = page(client, game)
    assert f"<strong>+{last.points}</strong>" in html and max(services.engine_state(game).scores) == 121
    made, left = last.points + last.past_target, last.past_target
    said = f"It made {made}; the peg stops in the game hole, so {left} {'was' if left == 1 else 'were'} not pegged"
    assert said in html
