"""The challenge form asks for the players the game seats, and finds members by name."""

import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from accounts import services as accounts
from games.models import Challenge
from tests.factories import make_user, start_two_player_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _env(settings):
    settings.SITE_URL = "https://cribbage.example"
    cache.clear()  # the per-address mail limits


@pytest.fixture
def alice(client):
    alice = make_user("alice@example.com", "Alice")
    client.force_login(alice)
    return alice


def post(client, **fields):
    return client.post(
        reverse("games:new_challenge"), {"variant": "two", "target": "121", "days_per_move": "3", **fields}
    )


def field_errors(response, name):
    match = re.search(rf'<ul class="errorlist" id="id_{name}_errors">(.*?)</ul>', response.text, re.S)
    return match.group(1) if match else ""


def test_a_game_of_two_asks_for_one_opponent_the_others_set_apart(client, alice):
    page = client.get(reverse("games:new_challenge")).text
    fieldset = page[
        page.index('<fieldset class="more-players"') : page.index("</fieldset>", page.index("more-players"))
    ]
    assert "For three or four players" in fieldset and "Leave these empty for a game of two" in fieldset
    assert 'name="player2"' in fieldset and 'name="player3"' in fieldset and 'name="player1"' not in fieldset
    assert page.index('name="variant"') < page.index('name="player1"') < page.index('class="more-players"')
    # With JavaScript the boxes follow the game chosen: it knows how many each game needs.
    assert "data-others-needed=" in page and "&quot;four&quot;: 3" in page and 'src="/static/js/challenge.js"' in page


@pytest.mark.parametrize(
    ("fields", "field", "says"),
    [
        ({"player1": "bob@example.com", "player2": "carol@example.com"}, "player2", "has no place for a second player"),
        ({"player1": "bob@example.com", "variant": "three"}, "player2", "needs 2 other players: name this one"),
        ({"player1": "a@example.com", "player2": "b@example.com", "variant": "four"}, "player3", "needs 3 other"),
        ({"player1": "nobody-called-this"}, "player1", "No member goes by “nobody-called-this”"),
        ({"player1": "bob@"}, "player1", "“bob@” is not a valid email address"),
    ],
)
def test_a_wrong_number_of_players_or_an_unknown_name_is_refused_by_the_server(client, alice, fields, field, says):
    response = post(client, **fields)
    assert response.status_code == 400 and says in field_errors(response, field)
    assert not Challenge.objects.exists()


def test_a_member_is_found_by_the_name_they_play_under(client, alice):
    bob = make_user("bob@example.com", "Bob Brown")
    make_user("robert@example.com", "Robert")
    response = post(client, player1="  bob   BROWN ")
    challenge = Challenge.objects.get()
    assert response.status_code == 302 and [p.player for p in challenge.places.all()] == [bob]
    challenge.delete()
    post(client, player1="brown")  # part of the name, when no name is exactly that
    assert [p.player for p in Challenge.objects.get().places.all()] == [bob]


def test_namesakes_are_offered_to_choose_from_without_their_addresses(client, alice):
    first = make_user("sam.one@example.com", "Sam")
    second = make_user("sam.two@mail.example", "Sam")
    response = post(client, player1="Sam")
    assert response.status_code == 400 and "2 members go by names like “Sam”" in field_errors(response, "player1")
    assert f'name="player1_pick" value="{first.pk}"' in response.text
    assert f'name="player1_pick" value="{second.pk}"' in response.text
    assert "s…@e….com" in response.text and "s…@m….example" in response.text
    assert "sam.one@example.com" not in response.text and "sam.two@mail.example" not in response.text
    stranger = make_user("zed@example.com", "Zed")
    assert post(client, player1="Sam", player1_pick=str(stranger.pk)).status_code == 400  # only a namesake
    response = post(client, player1="Sam", player1_pick=str(second.pk))
    assert response.status_code == 302 and [p.player for p in Challenge.objects.get().places.all()] == [second]


def test_only_members_who_joined_are_found_and_never_yourself(client, alice, mailoutbox):
    accounts.invite("dora@example.com", alice, "/games/")  # named "dora" until she joins
    assert "No member goes by “dora”" in field_errors(post(client, player1="dora"), "player1")
    assert "No member goes by “Alice”" in field_errors(post(client, player1="Alice"), "player1")
    # An address still invites someone new.
    assert post(client, player1="newcomer@example.com").status_code == 302


def test_the_people_you_have_played_are_offered_as_you_type(client, alice):
    start_two_player_game(players=[alice, make_user(display_name="Old Friend")])
    make_user(display_name="A Stranger")
    page = client.get(reverse("games:new_challenge")).text
    datalist = re.search(r'<datalist id="people-played">(.*?)</datalist>', page, re.S).group(1)
    assert 'value="Old Friend"' in datalist and "Stranger" not in datalist and "Alice" not in datalist
    assert 'list="people-played"' in page
