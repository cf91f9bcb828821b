"""The leaderboards: a variant family's active players (a rated game of it finished in the last 90
days) by their rating, in plain words, 50 a page, in the same few queries however many."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from ratings.models import Rating
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def _rated(name, family="two", mu=25.0, sigma=2.0, games=20, days_ago=1, **user):
    player = make_user(display_name=name, **user)
    Rating.objects.create(
        player=player,
        family=family,
        mu=mu,
        sigma=sigma,
        games=games,
        updated_at=timezone.now() - timedelta(days=days_ago),
    )
    return player


def _board(client, family="two", **query):
    response = client.get(reverse("ratings:leaderboard", args=[family]), query)
    return response, response.content.decode()


def _rows(html):
    """(place, name, rating in words) of each row."""
    return [
        (int(place), name, re.sub(r"\s+", " ", words))
        for place, name, words in re.findall(
            r'<td class="num">(\d+)</td><th scope="row" class="player"><a href="/players/\d+/">([^<]+)</a></th>\s*'
            r'<td><span class="rating"[^>]*>([^<]+)</span>',
            html,
        )
    ]


def test_a_board_lists_the_active_players_of_its_family_best_first_in_plain_words(client):
    _rated("Ann", mu=40)  # about 2360
    _rated("Bob", mu=30)  # about 1960
    _rated("Cat", mu=30, sigma=5, games=3)  # about 1600, still settling
    _rated("Old", mu=45, days_ago=91)  # not active: no rated game in the last 90 days
    _rated("Tri", family="three", mu=45)
    _rated("Shy", mu=44, profile_public=False)
    _rated("Gone", mu=43, is_active=False)
    response, html = _board(client)
    assert response.status_code == 200
    assert _rows(html) == [
        (1, "Ann", "about 2360"),
        (2, "Bob", "about 1960"),
        (3, "Cat", "about 1600 (still settling after 3 games)"),
    ]
    assert "Leaderboard: two players" in html and "(five-card cribbage counts here)" in html
    assert _rows(_board(client, "three")[1]) == [(1, "Tri", "about 2560")]
    assert "Nobody has finished a rated game of partnerships" in _board(client, "partnerships")[1]
    # The plain address is the two-player board; the Community menu leads to it.
    assert client.get(reverse("ratings:leaderboards")).content.decode().count("<h1>Leaderboard: two players</h1>") == 1
    assert f'<a href="{reverse("ratings:leaderboards")}">Leaderboards</a>' in html


def test_ties_go_to_more_games_then_the_name(client):
    _rated("Zed", mu=30, games=20)
    _rated("Amy", mu=30, games=20)
    _rated("Max", mu=30, games=40)
    assert [name for _, name, _ in _rows(_board(client)[1])] == ["Max", "Amy", "Zed"]


def test_the_board_is_paged_by_fifty_in_the_same_queries(client, django_assert_max_num_queries):
    for n in range(3):
        _rated(f"Player {n:03}", mu=40 - n / 10)
    with django_assert_max_num_queries(4) as few:
        _board(client)
    for n in range(3, 120):
        _rated(f"Player {n:03}", mu=40 - n / 10)
    with django_assert_max_num_queries(len(few.captured_queries)):
        response, html = _board(client)
    rows = _rows(html)
    assert len(rows) == 50 and rows[0][:2] == (1, "Player 000") and rows[-1][:2] == (50, "Player 049")
    assert 'href="?page=2" rel="next">Places 51 and below</a>' in html
    html = _board(client, page="2")[1]
    assert _rows(html)[0][:2] == (51, "Player 050") and 'rel="prev">Places 1 to 50</a>' in html
    html = _board(client, page="3")[1]
    assert [place for place, _, _ in _rows(html)] == list(range(101, 121)) and 'rel="next"' not in html


@pytest.mark.parametrize("family, query", [("chess", {}), ("two", {"page": "9"}), ("two", {"page": "first"})])
def test_no_such_board_or_page_is_a_404(client, family, query):
    _rated("Ann")
    assert _board(client, family, **query)[0].status_code == 404
