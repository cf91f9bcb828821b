"""Ratings on the pages: the player page (public or private), the game page, standings, challenges."""

import re

import pytest
from django.urls import reverse

from games import challenges, lifecycle, table_results
from ratings.models import PlayerGame
from tests.factories import committed, finish_game, make_user

pytestmark = pytest.mark.django_db

CARD = re.compile(r"\b(?:[A2-9TJQK]|10)[SHDC]\b")


def _page(client, user):
    response = client.get(reverse("ratings:player", args=[user.pk]))
    assert response.status_code == 200
    return response.content.decode()


def _season(people, games=2):
    a, b, c = people[:3]
    with committed():
        for n in range(games):
            game = lifecycle.start_game(players=[a, b], rated=True)
            finish_game(game, winner=0, skunk="skunk" if n == 0 else "")
        table_results.record_table_result([c, a], [121, 70], entered_by=None)
        table_results.record_table_result([a, b, c], [121, 100, 95], entered_by=None, variant="three")
    return a, b, c


def test_the_player_page_shows_the_record_the_shows_and_the_ratings(client, people):
    a, b, c = _season(people)
    html = _page(client, a)
    figures = dict(re.findall(r"<dt>([^<]+)</dt><dd>(.*?)</dd>", html))
    assert figures["Games finished (practice apart)"] == "4" and figures["Wins"] == "3"
    assert figures["Skunks given"] == "1" and figures["Skunks taken"].startswith("1")
    assert figures["Best hand"].startswith("29 ")  # the stacked deck deals the winner 29s
    assert int(figures["Hands of 29"]) >= 2
    tally = PlayerGame.objects.filter(player=a, hands__gt=0)
    hands = sum(t.hands for t in tally)
    assert figures["Average hand"].startswith(f"{round(sum(t.hand_points for t in tally) / hands, 1)} ")
    assert "<svg" in html and "Rating after each of 4 rated games" in html
    for family in ("Overall", "Two players", "Three players"):
        assert f'<th scope="row">{family}</th>' in html
    assert "Partnerships" not in html.split("Record")[0].split("<svg")[0]


def test_the_page_never_shows_a_card_of_a_game_in_play(client, people):
    a, b = people[:2]
    game = lifecycle.start_game(players=[a, b], rated=True)
    html = _page(client, a)
    assert f"Game {game.pk}</a>" in html
    assert not CARD.findall(html.split("<main")[1])


def test_a_private_page_shows_only_the_name_but_its_owner_sees_it(client, people):
    a, b, c = _season(people, games=1)
    a.profile_public = False
    a.save()
    html = _page(client, a)
    assert "keeps their player page private" in html and "Ratings" not in html and "Best hand" not in html
    client.force_login(b)
    assert "Best hand" not in _page(client, a)
    client.force_login(a)
    own = _page(client, a)
    assert "Best hand" in own and "only you see this" in own


def test_the_privacy_choice_is_on_the_account_settings(client):
    user = make_user()
    client.force_login(user)
    form = client.get(reverse("accounts:profile")).content.decode()
    assert 'name="profile_public"' in form


def test_the_player_page_costs_the_same_queries_for_many_games(client, people, django_assert_max_num_queries):
    a, b, c = _season(people, games=1)
    with django_assert_max_num_queries(14):
        _page(client, a)
    with committed():
        for _ in range(6):
            table_results.record_table_result([a, b], [121, 100], entered_by=None)
            table_results.record_table_result([a, b, c, people[3]], [121, 100], entered_by=None, variant="four")
        lifecycle.start_game(players=[a, c], rated=True)
    with django_assert_max_num_queries(14):
        _page(client, a)


def test_the_game_page_shows_each_seats_rating(client, people):
    a, b = people[:2]
    with committed():
        game = table_results.record_table_result([a, b], [121, 100], entered_by=None)
    client.force_login(a)
    html = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert html.count('class="rating"') == 2 and "Played at the table on" in html
    assert reverse("ratings:player", args=[b.pk]) in html
    # In plain words: a first rated game leaves it settling.
    assert (
        ">about 1" in html and "(still settling after 1 game)</span>" in html and " ± " not in html.split("<title>")[0]
    )


def test_an_unrated_game_shows_no_ratings(client, people):
    a, b = people[:2]
    with committed():
        game = lifecycle.start_game(players=[a, b])
    client.force_login(a)
    html = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert 'class="rating"' not in html and "seat-ratings" not in html


def test_the_seeks_and_the_challenge_page_show_the_challengers_rating(client, people):
    a, b = people[:2]
    with committed():
        table_results.record_table_result([a, b], [121, 100], entered_by=None)
    seek = challenges.create_seek(a)
    client.force_login(b)
    board = client.get(reverse("games:seeks")).content.decode()
    assert 'class="rating"' in board
    assert 'class="rating"' in client.get(seek.get_absolute_url()).content.decode()


def test_the_player_page_says_the_reliability_in_plain_words(client):
    from tests.factories import lose_on_time

    late, steady, newcomer = make_user(), make_user(), make_user()
    lose_on_time(late, times=1, wins=19)
    lose_on_time(steady, times=0, wins=3)
    figures = {}
    for player in (late, steady, newcomer):
        [figures[player]] = re.findall(r"<strong>Reliability</strong>: <span>(.*?)</span>\.</p>", _page(client, player))
    assert figures[late] == "lost 1 of 20 games on time in the last 90 days <small>(95% reliable)</small>"
    assert figures[steady] == "lost none of 3 games on time in the last 90 days <small>(100% reliable)</small>"
    assert figures[newcomer] == "finished no game in the last 90 days"


def test_the_player_page_costs_the_same_with_1_10_and_100_games_and_pages_its_results(client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from ratings.profiles import RECENT
    from tests.factories import history

    counted, html = {}, {}
    for games in (1, 10, 100):
        me = make_user(allow_forced_moves=False)
        with committed():
            history(me, games)  # a third of them finished
        with CaptureQueriesContext(connection) as queries:
            html[games] = _page(client, me)
        counted[games] = len(queries)
    assert counted[1] <= counted[10] == counted[100] <= 14, counted
    results = [len(re.findall(r"<tr><td>\d+ \w+ \d{4}</td>", html[n])) for n in (1, 10, 100)]
    assert results == [0, 3, RECENT]
    assert "Page 1 of 4" in html[100] and 'rel="next"' in html[100] and "Page" not in html[10]
    # The last page holds the oldest finished games; a page past it is not found.
    last = client.get(reverse("ratings:player", args=[me.pk]), {"page": 4}).content.decode()
    assert len(re.findall(r"<tr><td>\d+ \w+ \d{4}</td>", last)) == 33 - 3 * RECENT and 'rel="prev"' in last
    assert client.get(reverse("ratings:player", args=[me.pk]), {"page": 5}).status_code == 404


def test_playing_now_says_how_many_games_when_it_shows_only_the_latest(client, people):
    a, b = people[:2]
    with committed():
        games = [lifecycle.start_game(players=[a, b]) for _ in range(22)]
    html = _page(client, a)
    listed = re.findall(r"<li><a href=\"/games/(\d+)/\">Game", html.split('id="current-heading"')[1])
    assert len(listed) == 20 and str(games[0].pk) not in listed and str(games[-1].pk) in listed
    assert "The 20 most recently moved of 22 games in play." in html  # a visitor gets no link
    client.force_login(a)
    own = _page(client, a)
    assert f'of 22 games in play: <a href="{reverse("games:my_games")}">My games</a> lists them all.' in own


def test_playing_now_says_nothing_more_when_every_game_is_listed(client, people):
    a, b = people[:2]
    with committed():
        for _ in range(3):
            lifecycle.start_game(players=[a, b])
    html = _page(client, a)
    assert html.split('id="current-heading"')[1].count('<li><a href="/games/') == 3
    assert "most recently moved" not in html


def _every_point(player):
    """The chart's lines from every rating change of `player`, as the chart had them before thinning."""
    from ratings.arithmetic import Skill, shown
    from ratings.models import RatingChange
    from ratings.profiles import FAMILY_NAMES

    series, number, days = {}, {}, []
    changes = RatingChange.objects.filter(player=player).order_by("finished_at", "game_id")
    for game_id, family, mu, sigma, when in changes.values_list(
        "game_id", "family", "mu_after", "sigma_after", "finished_at"
    ):
        if game_id not in number:
            number[game_id] = len(number)
            days.append(when)
        value = shown(Skill(mu, sigma))
        series.setdefault(FAMILY_NAMES[family], []).append((number[game_id], value.value, value.uncertainty))
    return series, len(number), f"{days[0]:%d %b %Y}", f"{days[-1]:%d %b %Y}"


def test_a_long_history_is_charted_with_its_high_its_low_and_the_current_rating_in_few_points(client):
    import xml.etree.ElementTree as ET

    from ratings.arithmetic import OVERALL
    from ratings.chart import POINTS, history_svg, thin
    from ratings.profiles import rating_chart
    from ratings.selectors import ratings_for
    from tests.factories import rated_history

    me = make_user()
    rated_history(me, 450)
    series, games, first_day, last_day = _every_point(me)
    assert games == 450 and len(series["Overall"]) > POINTS and len(series["Three players"]) < POINTS
    svg = rating_chart(me)
    # The database picks the very points the chart would keep from every row: the same drawing.
    assert svg == history_svg(series, games, first_day, last_day)
    assert svg in _page(client, me)
    lines = ET.fromstring(svg).findall("{http://www.w3.org/2000/svg}polyline")
    drawn = [len(line.get("points").split()) for line in lines]
    assert drawn == [len(thin(series[label], games)) for label in series] and max(drawn) <= POINTS
    assert drawn[2] == len(series["Three players"])  # a short line is drawn whole
    overall = [v for _, v, _ in series["Overall"]]
    kept = [v for _, v, _ in thin(series["Overall"], games)]
    assert max(kept) == max(overall) > overall[-1] and min(kept) == min(overall)
    assert f"Overall {ratings_for(me)[OVERALL].value}</text>" in svg and overall[-1] == ratings_for(me)[OVERALL].value
    assert f"{last_day} (game 450)" in svg and f">{first_day}</text>" in svg


def test_the_player_page_costs_the_same_queries_with_1_10_and_100_rated_games(client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.factories import rated_history

    counted = {}
    for games in (1, 10, 100):
        me = make_user()
        rated_history(me, games)
        with CaptureQueriesContext(connection) as queries:
            html = _page(client, me)
        counted[games] = len(queries)
        assert f"Rating after each of {games} rated game" in html
    assert counted[1] == counted[10] == counted[100] <= 14, counted
