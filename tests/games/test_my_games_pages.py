"""My games a page at a time: its cost does not grow with a player's history."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.views.lobby import GAMES_PER_PAGE
from tests.factories import history, make_user

pytestmark = pytest.mark.django_db


def rows(html):
    return len(re.findall(r'<a href="/games/\d+/">Game ', html))


def my_games(client, page=None):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("games:my_games"), {"page": page} if page else {})
    assert response.status_code == 200
    return response.content.decode(), len(queries)


def test_my_games_costs_the_same_with_1_10_and_100_games(client):
    counted = {}
    for games in (1, 10, 100):
        me = make_user(allow_forced_moves=False)
        history(me, games)
        client.force_login(me)
        html, counted[games] = my_games(client)
        assert rows(html) == min(games, GAMES_PER_PAGE)
    assert counted[1] == counted[10] == counted[100], counted
    # The lists' lengths are the player's whole history, the rows a page of it: your turn first.
    assert "Your turn (34)" in html and "Waiting for the others (33)" in html and "Finished (33)" in html
    assert html.count("On the next pages.") == 2
    assert 'rel="next"' in html and "Page 1 of 4" in html


def test_the_last_page_holds_the_oldest_finished_games_and_a_page_past_it_is_404(client):
    me = make_user(allow_forced_moves=False)
    history(me, 30)
    client.force_login(me)
    first, _ = my_games(client)
    last, _ = my_games(client, 2)
    assert "Your turn (10)" in first and "Finished (10)" in first and rows(first) == GAMES_PER_PAGE
    # Page 2: the rest of the finished games, under their heading; no list it holds nothing of.
    assert "Finished (10)" in last and "Your turn" not in last and "Waiting" not in last and 'rel="prev"' in last
    assert rows(last) == 30 - GAMES_PER_PAGE and last.count('class="won"') + last.count('class="lost"') == rows(last)
    assert client.get(reverse("games:my_games"), {"page": 3}).status_code == 404
