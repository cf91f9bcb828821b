"""The game page's fragments kept in the cache (games.fragments): an unchanged table renders
nothing twice, what a seat should see renders anew, and a seat never gets another's."""

import copy
import random
import re
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import event_games, fragments
from tests.factories import make_user, start_two_player_game

from .test_views_play import form_fields, page, post

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    return start_two_player_game(rng=random.Random(7))


@pytest.fixture
def players(game):
    return [s.player for s in game.seats.order_by("number")]


@pytest.fixture
def rendered(monkeypatch):
    """The names of the fragments rendered (not read from the cache) since the last look."""
    names = []
    put_many = fragments.put_many

    def counted(page_key, htmls):
        names.extend(htmls)
        put_many(page_key, htmls)

    monkeypatch.setattr(fragments, "put_many", counted)
    return names


def hand_on(html):
    """The cards of the discard form: the reader's own hand."""
    return re.findall(r'name="cards" value="(\w+)"', html)


def without_tokens(html):
    """The page less what each request makes anew (the CSRF token, the forms' one-time token)."""
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)
    return re.sub(r'name="token" value="[0-9a-f]+"', "", html)


def test_an_unchanged_table_renders_nothing_twice_and_looks_the_same(client, game, players, rendered):
    client.force_login(players[0])
    first = page(client, game)
    assert {"title", "table"} <= set(rendered)
    rendered.clear()
    again = page(client, game)
    assert rendered == []
    assert without_tokens(again) == without_tokens(first)


def test_a_page_asks_the_cache_for_its_fragments_once_and_keeps_them_at_once(client, game, players, monkeypatch):
    client.force_login(players[0])
    trips = []  # (the call, the fragments' keys it asked for)
    inside = []  # a cache's get_many may call its own get: one trip all the same
    for name in ("get", "get_many", "set", "set_many"):
        real = getattr(cache, name)

        def traced(keys, *args, _name=name, _real=real, **kwargs):
            asked = [keys] if isinstance(keys, str) else list(keys)
            if any(":fragment:" in k for k in asked) and not inside:
                trips.append((_name, len(asked)))
            inside.append(_name)
            try:
                return _real(keys, *args, **kwargs)
            finally:
                inside.pop()

        monkeypatch.setattr(cache, name, traced)
    first = page(client, game)
    assert [call for call, _ in trips] == ["get_many", "set_many"]
    assert trips[1][1] == 2  # both fragments the page rendered (its title, its table), kept together
    trips.clear()
    assert without_tokens(page(client, game)) == without_tokens(first)
    assert [call for call, _ in trips] == ["get_many"]


def test_a_seat_never_gets_another_seats_fragment(client, game, players, rendered):
    client.force_login(players[0])
    mine = hand_on(page(client, game))
    client.force_login(players[1])
    html = page(client, game)
    theirs = hand_on(html)
    assert len(mine) == len(theirs) == 6 and not set(mine) & set(theirs)
    assert "table" in rendered  # rendered for seat 1, not read as seat 0's
    for code in mine:
        assert f'data-card="{code}"' not in html and f'name="place_{code}"' not in html
    client.logout()
    watched = page(client, game)
    assert hand_on(watched) == [] and not any(f'data-card="{c}"' in watched for c in mine + theirs)


def test_a_move_renders_the_table_anew_for_every_seat(client, game, players, rendered):
    client.force_login(players[1])
    assert "has laid away" not in page(client, game)
    client.force_login(players[0])
    html = page(client, game)
    cards = hand_on(html)
    post(client, game, {**form_fields(html, "discard"), "cards": cards[:2]})
    html = page(client, game)
    assert hand_on(html) == [] and not any(f'data-card="{c}"' in html for c in cards[:2])
    client.force_login(players[1])
    rendered.clear()
    assert "has laid away" in page(client, game)
    assert "table" in rendered


def test_a_private_change_renders_anew_for_its_seat_alone(client, game, players, rendered):
    """A plan is seen by its own seat only: that seat's fragments are new, the other's are kept."""
    client.force_login(players[1])
    page(client, game)
    client.force_login(players[0])
    html = page(client, game)
    assert "Clear the plan" not in html
    hand = hand_on(html)
    token = re.search(r'action="[^"]*/plan/".*?name="token" value="([0-9a-f]+)"', html, re.S).group(1)
    client.post(reverse("games:plan", args=[game.pk]), {"token": token, f"place_{hand[0]}": "1"})
    rendered.clear()
    assert "Clear the plan" in page(client, game)
    assert "table" in rendered
    client.force_login(players[1])
    rendered.clear()
    assert "Clear the plan" not in page(client, game)
    assert rendered == []


def test_a_new_name_renders_anew(client, game, players):
    client.force_login(players[0])
    page(client, game)
    players[1].display_name = "Renamed Rosalind"
    players[1].save(update_fields=["display_name"])
    assert "Renamed Rosalind" in page(client, game)


def test_a_cache_that_is_down_renders_the_page_all_the_same(client, game, players, monkeypatch):
    def down(*args, **kwargs):
        raise ConnectionError("the cache is down")

    for name in ("get", "set", "get_many", "set_many"):
        monkeypatch.setattr(cache, name, down)
    client.force_login(players[0])
    assert len(hand_on(page(client, game))) == 6


def test_the_pages_event_is_asked_once_and_kept(monkeypatch):
    """The game page names its event (games.event_games) from the cache after the first look; a game
    in no event is remembered as in none, and a cache that is down asks every time."""
    asked = []

    def namer(game_id):
        asked.append(game_id)
        return (
            event_games.EventGame("Winter League", "/events/w/", "Round 2, table 3", "Winter League, round 2")
            if game_id == 1
            else None
        )

    monkeypatch.setattr(event_games, "_NAMERS", [namer])
    assert event_games.of_kept(1).title == "Round 2, table 3"
    assert event_games.of_kept(1).title == "Round 2, table 3"
    assert event_games.of_kept(2) is None and event_games.of_kept(2) is None
    assert asked == [1, 2]

    def down(*args, **kwargs):
        raise ConnectionError("the cache is down")

    monkeypatch.setattr(cache, "get", down)
    monkeypatch.setattr(cache, "set", down)
    assert event_games.of_kept(1).title == "Round 2, table 3"
    assert asked == [1, 2, 1]


def test_a_game_that_reuses_an_id_never_reads_the_first_ones_table(game):
    """A database recreated or restored from a backup gives an id to another game while the
    shared cache still holds the first one's fragments: the key tells the two apart."""
    seats = list(game.seats.select_related("player").order_by("number"))
    again = copy.copy(game)  # the same id, seats, names, status and events; made another time
    again.created_at = game.created_at + timedelta(seconds=1)
    assert fragments.key(again, seats[0], seats) != fragments.key(game, seats[0], seats)
    assert fragments.key(copy.copy(game), seats[0], seats) == fragments.key(game, seats[0], seats)


def test_a_page_from_the_cache_works_out_nothing_only_its_fragments_draw(client, game, players, monkeypatch):
    """What only the kept fragments draw (the pegging, the shows, the previous hand, the board's
    tracks, the plan's selects) is worked out when a fragment is rendered, not on every look."""
    from games import play_forms, selectors
    from games.presenter.table import Table

    worked = []
    for name in ("plays", "records", "shows", "previous", "tracks", "others", "pile"):
        real = getattr(Table, name)
        monkeypatch.setattr(Table, name, lambda *a, _n=name, _r=real, **k: worked.append(_n) or _r(*a, **k))
    select = play_forms._select
    monkeypatch.setattr(play_forms, "_select", lambda *a, **k: worked.append("select") or select(*a, **k))
    view_for = selectors.view_for
    monkeypatch.setattr(selectors, "view_for", lambda *a, **k: worked.append("view") or view_for(*a, **k))
    client.force_login(players[0])
    first = page(client, game)
    assert {"view", "plays", "records", "shows", "previous", "tracks", "others", "select"} <= set(worked)
    worked.clear()
    assert without_tokens(page(client, game)) == without_tokens(first)
    assert worked == []


def test_a_kept_table_carries_each_looks_own_tokens(game, players):
    """The forms are kept with the table, but each look's page has its own one-time token and a
    CSRF token that a form posted from it is accepted with."""
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(players[0])
    first = page(client, game)
    again = page(client, game)
    tokens = [form_fields(html, "discard")["token"] for html in (first, again)]
    assert tokens[0] != tokens[1]
    assert re.findall(r'name="token" value="([0-9a-f]+)"', again) == [tokens[1]] * 3  # discard, plan, resign
    assert "\x00" not in again
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', again).group(1)
    fields = {**form_fields(again, "discard"), "cards": hand_on(again)[:2], "csrfmiddlewaretoken": csrf}
    assert client.post(reverse("games:move", args=[game.pk]), fields).status_code == 302
    assert hand_on(page(client, game)) == []


def test_what_no_event_changes_shows_at_once_on_a_kept_table(client, game, players, rendered):
    """The live parts of the kept table (talk, the deadline, the reader's own settings) are the
    look's own: a change shows on the next look though the table renders nothing anew."""
    from games import talk
    from games.models import Seat

    client.force_login(players[0])
    page(client, game)
    rendered.clear()
    talk.say(game, players[1], "Good <luck>")
    later = Seat.objects.get(game=game, number=0).deadline + timedelta(days=3)
    Seat.objects.filter(game=game).update(deadline=later)
    players[0].standing_plan = [{"rule": "score_first"}]
    players[0].confirm_moves = "always"
    players[0].save(update_fields=["standing_plan", "confirm_moves"])
    html = page(client, game)
    assert rendered == []
    assert "Good &lt;luck&gt;" in html
    assert f'datetime="{later.isoformat()}"' in html
    assert "(yours is set)" in html and 'data-confirm="always"' in html


def test_a_live_part_not_read_yet_in_this_process_renders_the_table_anew(client, game, players, rendered, monkeypatch):
    """A process that has not parsed an include yet does not know its live parts: it renders the
    kept table anew rather than serve it with a hole."""
    client.force_login(players[0])
    first = page(client, game)
    monkeypatch.delitem(fragments.LIVE, "standing-plan")
    rendered.clear()
    again = page(client, game)
    assert "table" in rendered
    assert without_tokens(again) == without_tokens(first)


def test_a_page_looked_at_again_reads_its_event_with_its_fragments(client, game, players, monkeypatch):
    """The event's name (event_games.of_kept) is read in the fragments' trip, not in one of its own."""
    client.force_login(players[0])
    first = page(client, game)
    reads = []  # (the call, the keys it asked for), the session's aside
    inside = []  # a backend's get_many may ask its own get (the local-memory cache does)
    for name in ("get", "get_many"):
        real = getattr(cache, name)

        def traced(keys, *args, _name=name, _real=real, **kwargs):
            asked = [keys] if isinstance(keys, str) else list(keys)
            if not inside and not any("session" in k for k in asked):
                reads.append((_name, asked))
            inside.append(_name)
            try:
                return _real(keys, *args, **kwargs)
            finally:
                inside.pop()

        monkeypatch.setattr(cache, name, traced)
    assert without_tokens(page(client, game)) == without_tokens(first)
    assert [call for call, _ in reads] == ["get_many"]
    assert event_games.kept_key(game.pk) in reads[0][1]


def test_a_page_in_an_event_names_it_from_the_fragments_trip(client, game, players, monkeypatch):
    named = event_games.EventGame("Winter <League>", "/events/w/", "Round 2, table 3", "Winter League, round 2")
    asked = []
    monkeypatch.setattr(event_games, "_NAMERS", [lambda game_id: asked.append(game_id) or named])
    client.force_login(players[0])
    for _ in range(3):
        html = page(client, game)
        assert "<title>Your turn – Round 2, table 3, Winter &lt;League&gt; – Cribbage by mail</title>" in html
        assert '<a href="/events/w/">Winter &lt;League&gt;</a>' in html
    assert asked == [game.pk]


def beside_the_session(captured):
    """The statements run, the session's read aside: sessions live in the cache where one is
    shared (CACHE_URL), in the database otherwise (the tests' default)."""
    return [q["sql"] for q in captured.captured_queries if "django_session" not in q["sql"]]


def trips(on_postgresql):
    """Statements a page runs: on PostgreSQL the game, its seats and the talk go in one trip;
    on SQLite each is a statement of its own (two more)."""
    return on_postgresql if connection.vendor == "postgresql" else on_postgresql + 2


def test_a_players_look_at_a_kept_table_asks_the_database_twice(client, game, players):
    """The player (cribsite.auth), then the game, its seats and the player's note and table talk in
    one trip (selectors.game_with_seats_then): nothing else when the table comes from the cache."""
    from games import talk

    talk.say(game, players[1], "Hello <there>")
    talk.save_note(game, players[0], "a <note>")
    client.force_login(players[0])
    first = page(client, game)
    with CaptureQueriesContext(connection) as looked:
        again = page(client, game)
    asked = beside_the_session(looked)
    assert len(asked) == trips(2), asked
    assert without_tokens(again) == without_tokens(first)
    assert "Hello &lt;there&gt;" in again and "a &lt;note&gt;</textarea>" in again
    assert "games_tablemessage" in asked[-1]
    client.force_login(make_user())  # a watcher reads the panel's rows in the same trip, and is shown none
    with CaptureQueriesContext(connection) as looked:
        watched = page(client, game)
    assert len(beside_the_session(looked)) == trips(2)
    assert "Hello" not in watched and "a &lt;note&gt;" not in watched


def test_a_fragment_is_kept_as_plain_text(client, game, players, monkeypatch):
    """Kept as str, not as the SafeString a template renders: pickled and read back faster."""
    kept = {}
    monkeypatch.setattr(fragments, "put_many", lambda page_key, htmls: kept.update(htmls))
    client.force_login(players[0])
    page(client, game)
    assert {"title", "table"} <= set(kept) and all(type(html) is str for html in kept.values())
