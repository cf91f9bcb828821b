"""The open challenges (seeks): a seek may ask for a reliability floor, and the board is filtered
by game, the challenger's rating and the challenger's reliability, from a GET form."""

import re

import pytest
from django.urls import reverse

from games import challenges
from games.models import Challenge
from ratings.models import Rating
from tests.factories import lose_on_time, make_user

pytestmark = pytest.mark.django_db


def _board(client, **query):
    response = client.get(reverse("games:seeks"), query)
    return response, response.content.decode()


def _challengers(html):
    """The challengers' names on the board, in order."""
    return re.findall(r'<li><a href="/challenges/\d+/">([^<(]+?)(?: \(you\))?</a>', html)


def _rated(player, family, value_mu, games=20):
    """`player`'s rating in `family`, settled (sigma 2): shown 1000 + 40 (mu - 6)."""
    Rating.objects.create(player=player, family=family, mu=value_mu, sigma=2.0, games=games)


def test_a_seek_with_a_reliability_floor_refuses_a_player_under_it_with_the_reason(client):
    alice = make_user(display_name="Alice")
    client.force_login(alice)
    form = {"variant": "two", "target": "121", "days_per_move": "3", "min_reliability": "90"}
    assert client.post(reverse("games:seeks"), form).status_code == 302
    seek = Challenge.objects.get(is_seek=True)
    assert seek.min_reliability == 90
    assert "Open to players at least 90% reliable." in _board(client)[1]

    late = make_user(display_name="Late")
    lose_on_time(late, times=1, wins=3)  # 75%
    client.force_login(late)
    response = client.post(reverse("games:challenge_accept", args=[seek.pk]))
    page = response.content.decode()
    assert response.status_code == 403
    assert (
        "You cannot take this open challenge. It asks for a reliability of at least 90%: yours is 75% "
        "(1 of your 4 games finished in the last 90 days were lost on time)." in page
    )
    seek.refresh_from_db()
    assert seek.status == "open" and not seek.places.filter(player__isnull=False).exists()

    # A newcomer has no figure and is not kept out.
    newcomer = make_user(display_name="New")
    client.force_login(newcomer)
    client.post(reverse("games:challenge_accept", args=[seek.pk]))
    seek.refresh_from_db()
    assert seek.status == "accepted" and seek.game.seats.filter(player=newcomer).exists()


def test_a_floor_is_a_percent():
    with pytest.raises(challenges.ChallengeError, match="0 to 100"):
        challenges.create_seek(make_user(), min_reliability=101)


def test_the_board_shows_each_challengers_reliability_in_plain_words(client):
    steady, late = make_user(display_name="Steady"), make_user(display_name="Late")
    lose_on_time(late, times=1, wins=19)
    lose_on_time(steady, times=0, wins=2)
    challenges.create_seek(steady)
    challenges.create_seek(late)
    challenges.create_seek(make_user(display_name="Newcomer"))
    client.force_login(make_user())
    html = _board(client)[1]
    assert "Late lost 1 of 20 games on time in the last 90 days." in html
    assert "Steady lost none of 2 games on time in the last 90 days." in html
    assert "Newcomer finished no game in the last 90 days." in html


def test_the_board_filters_by_game_rating_and_reliability(client, django_assert_max_num_queries):
    ann, bob, cat, dan = (make_user(display_name=n) for n in ("Ann", "Bob", "Cat", "Dan"))
    _rated(ann, "two", 40)  # about 2360
    _rated(bob, "two", 20)  # about 1560
    _rated(cat, "three", 40)  # about 2360 at three players, new at two
    lose_on_time(bob, times=1, wins=3)  # 75%
    challenges.create_seek(ann)
    challenges.create_seek(bob, variant="five_card")  # five-card is in the two-player family
    challenges.create_seek(cat, variant="three")
    challenges.create_seek(dan)  # new everywhere: about 1000
    client.force_login(make_user())

    response, html = _board(client)
    assert response.status_code == 200 and _challengers(html) == ["Ann", "Bob", "Cat", "Dan"]
    assert _challengers(_board(client, variant="three")[1]) == ["Cat"]
    assert _challengers(_board(client, variant="two")[1]) == ["Ann", "Dan"]
    assert _challengers(_board(client, rating_from="2000")[1]) == ["Ann", "Cat"]
    assert _challengers(_board(client, rating_from="1200", rating_to="2000")[1]) == ["Bob"]
    assert _challengers(_board(client, rating_to="1100")[1]) == ["Dan"]
    html = _board(client, reliability="90")[1]
    assert _challengers(html) == ["Ann", "Cat", "Dan"]  # Bob is 75%; the others have no figure
    assert "3 open challenges match your filters." in html and 'href="/seeks/">Show them all' in html
    html = _board(client, variant="four")[1]
    assert _challengers(html) == [] and "No open challenge matches your filters." in html
    # The form keeps what was asked, and the page is the same without script: a plain GET form.
    html = _board(client, variant="three", rating_from="1500", reliability="95")[1]
    assert '<form method="get" class="seek-filters">' in html
    assert '<option value="three" selected>' in html and 'name="rating_from" value="1500"' in html
    assert '<option value="95" selected>' in html

    # The queries do not grow with the seeks.
    with django_assert_max_num_queries(12) as few:
        _board(client, rating_from="0")
    for n in range(6):
        challenges.create_seek(make_user(display_name=f"More {n}"), variant=["two", "three"][n % 2])
    with django_assert_max_num_queries(len(few.captured_queries)):
        _board(client, rating_from="0")


@pytest.mark.parametrize(
    "query, why",
    [
        ({"rating_from": "2000", "rating_to": "1000"}, "Give a rating range from low to high: 2000 is above 1000."),
        ({"rating_from": "lots"}, "Write a whole number in the digits 0 to 9."),
        ({"rating_to": "１５００"}, "Write a whole number in the digits 0 to 9."),
        ({"variant": "chess"}, "Select a valid choice."),
        ({"reliability": "50"}, "Select a valid choice."),
    ],
)
def test_bad_filters_are_refused_with_the_reason_and_the_whole_board_shown(client, query, why):
    challenges.create_seek(make_user(display_name="Ann"))
    challenges.create_seek(make_user(display_name="Cat"), variant="three")
    client.force_login(make_user())
    response, html = _board(client, **query)
    assert response.status_code == 400 and why in html
    assert _challengers(html) == ["Ann", "Cat"]
