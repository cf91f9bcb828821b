"""The game page's poll costs nothing when nothing changed (an ETag, 304, no write), a move makes
the next poll a 200, and looking at the page writes "seen" at most once a minute per seat. Who
polls is checked as every request's player is, but never built, and a session that is no longer
its player's answers as a spectator."""

import random

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import cribbage, lifecycle, selectors, services
from games.models import Seat
from tests.factories import make_user, play_random_move, start_two_player_game

pytestmark = pytest.mark.django_db


WRITES = ("INSERT", "UPDATE", "DELETE")


def writes(queries):
    return [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith(WRITES)]


def game_queries(queries):
    return [q["sql"] for q in queries if "games_" in q["sql"]]


@pytest.fixture(params=[False, True], ids=["numbers-read", "numbers-cached"])
def from_cache(request, settings):
    settings.POLL_FROM_CACHE = request.param
    cache.clear()
    yield request.param
    cache.clear()


@pytest.fixture
def seated(client):
    alice, bob = make_user(display_name="Alice"), make_user(display_name="Bob")
    game = start_two_player_game(players=[alice, bob], rng=random.Random(3))
    client.force_login(alice)
    return game


def poll(client, game, etag=None):
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("games:state", args=[game.pk]), **headers)
    return response, queries.captured_queries


def test_an_unchanged_poll_answers_304_and_writes_nothing(client, seated, from_cache):
    first, queries = poll(client, seated)
    assert first.status_code == 200 and first["ETag"] and "no-cache" in first["Cache-Control"]
    assert writes(queries) == []
    again, queries = poll(client, seated, first["ETag"])
    assert again.status_code == 304 and again["ETag"] == first["ETag"]
    assert writes(queries) == []
    # From the cache the game is not read at all; else one SELECT of the seats' numbers.
    assert len(game_queries(queries)) == (0 if from_cache else 1)


def test_a_move_makes_the_next_poll_a_200(client, seated, from_cache, django_capture_on_commit_callbacks):
    first, _ = poll(client, seated)
    state = services.engine_state(seated)
    with django_capture_on_commit_callbacks(execute=True):
        play_random_move(seated, cribbage.to_act(state)[0], rng=random.Random(1))
    after, queries = poll(client, seated, first["ETag"])
    assert after.status_code == 200 and after["ETag"] != first["ETag"]
    assert after.json()["seq"] > first.json()["seq"]
    assert writes(queries) == []
    assert poll(client, seated, after["ETag"])[0].status_code == 304


def test_a_spectator_polls_the_public_numbers(client, seated, from_cache):
    client.logout()
    first, _ = poll(client, seated)
    assert first.status_code == 200 and "your_turn" in first.json()
    assert poll(client, seated, first["ETag"])[0].status_code == 304


def test_the_game_page_writes_seen_at_most_once_a_minute(client, seated):
    url = reverse("games:game", args=[seated.pk])
    with CaptureQueriesContext(connection) as first:
        client.get(url)
    assert [q for q in writes(first.captured_queries) if "games_seat" in q]
    assert Seat.objects.get(game=seated, number=0).last_seen_at is not None
    with CaptureQueriesContext(connection) as second:
        client.get(url)
    assert [q for q in writes(second.captured_queries) if "games_seat" in q] == []


def test_a_polling_player_is_marked_looking_at_most_once_a_minute_for_the_whole_window(
    client, seated, settings, monkeypatch
):
    from games import visits

    settings.POLL_FROM_CACHE = True
    seat = Seat.objects.get(game=seated, number=0)
    Seat.objects.filter(pk=seat.pk).update(last_seen_at=None)  # only the poll's mark tells
    seat.refresh_from_db()
    clock = [1000.0]
    monkeypatch.setattr(visits.time, "monotonic", lambda: clock[0])
    marks = []
    real_set = cache.set
    monkeypatch.setattr(
        cache, "set", lambda key, value, kept: (marks.append((key, kept)), real_set(key, value, kept))[1]
    )

    def looking_marks():
        return [key for key, _ in marks if key.startswith("games:looking:")]

    poll(client, seated)
    assert looking_marks() == [f"games:looking:{seat.pk}"] and visits.is_looking(seat)
    for _ in range(3):  # every 15 s, as the page polls
        clock[0] += 15
        poll(client, seated)
    assert len(looking_marks()) == 1
    clock[0] += 16  # a minute since the mark
    poll(client, seated)
    assert len(looking_marks()) == 2
    # The mark outlives the window by the minute it may go unwritten.
    assert {kept for key, kept in marks if key.startswith("games:looking:")} == {16 * 60}


# --- who polls: the player checked, never built (cribsite.auth.player_id) ---------------------


@pytest.fixture
def cached_sessions(settings):
    """Sessions and the poll's numbers in one shared cache, as with CACHE_URL."""
    settings.SESSION_ENGINE = "cribsite.sessions"
    settings.POLL_FROM_CACHE = True
    cache.clear()
    yield
    cache.clear()


def test_an_unchanged_poll_reads_its_session_and_numbers_in_one_trip_and_checks_the_player(
    client, cached_sessions, seated, monkeypatch
):
    etag = poll(client, seated)[0]["ETag"]
    trips, inside = [], []

    def counted(name, real):
        def call(*args, **kwargs):
            if not inside:  # a trip, not the local cache's get_many calling its own get
                trips.append(name)
            inside.append(name)
            try:
                return real(*args, **kwargs)
            finally:
                inside.pop()

        return call

    for name in ("get", "get_many", "set", "add", "delete"):
        monkeypatch.setattr(cache, name, counted(name, getattr(cache, name)))
    again, queries = poll(client, seated, etag)
    assert again.status_code == 304
    assert trips == ["get_many"]
    read = [q["sql"] for q in queries if "accounts_user" in q["sql"]]
    # One statement, of what the check needs: the password (its hash) and is_active.
    assert len(read) == 1 and '"password"' in read[0] and '"display_name"' not in read[0]
    assert not hasattr(again.wsgi_request, "_cached_user")  # the player never built (nor a time zone)


def sealed_pair():
    """Two games dealt from one seed, both on: each sealed from spectators."""
    players = [make_user(display_name="Alice"), make_user(display_name="Bob")]
    others = [make_user(), make_user()]
    game = lifecycle.start_game(players=players, first_dealer=0, deal_seed="a-seed", rng=random.Random(9))
    lifecycle.start_game(players=others, first_dealer=0, deal_seed="a-seed", rng=random.Random(9))
    return game, players[0]


@pytest.mark.parametrize("change", ["password", "closed", "closed-by-update"])
@pytest.mark.parametrize("sealed", [False, True], ids=["open", "sealed"])
def test_a_session_no_longer_its_players_gets_no_304_from_the_seats_numbers(
    client, cached_sessions, change, sealed, django_capture_on_commit_callbacks
):
    if sealed:
        game, alice = sealed_pair()
    else:
        alice = make_user(display_name="Alice")
        game = start_two_player_game(players=[alice, make_user()], rng=random.Random(3))
    with django_capture_on_commit_callbacks(execute=True):  # a plan: numbers only Alice's seat sees
        services.submit_move(game, 0, cribbage.read_plan(" ".join(selectors.view_for(game, 0).hand)))
    client.force_login(alice)
    first, _ = poll(client, game)
    assert first.status_code == 200 and first["ETag"]
    if not sealed:
        assert first["ETag"] != poll(Client(), game)[0]["ETag"]  # not the spectators' tag
    assert poll(client, game, first["ETag"])[0].status_code == 304
    if change == "password":
        alice.set_password("a-new-Secret-456")
        alice.save()
    elif change == "closed":
        alice.is_active = False
        alice.save()
    else:
        type(alice).objects.filter(pk=alice.pk).update(is_active=False)
    after, _ = poll(client, game, first["ETag"])
    assert after.status_code == (403 if sealed else 200)  # a spectator's answer, never the seat's 304
    if not sealed:
        assert after.json()["your_turn"] is False and after["ETag"] != first["ETag"]
    assert not after.wsgi_request.user.is_authenticated


def test_a_session_under_a_former_secret_still_polls_as_its_player(client, cached_sessions, seated, settings):
    settings.SECRET_KEY = "the-former-secret-" + "x" * 40
    client.force_login(seated.seats.get(number=0).player)
    etag = poll(client, seated)[0]["ETag"]
    old_key = client.session.session_key
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "the-current-secret-" + "y" * 40
    assert poll(client, seated, etag)[0].status_code == 304
    assert client.session.session_key != old_key  # moved to the current secret, as Django's get_user does


def test_an_unchanged_poll_writes_no_policy_the_answer_it_revalidates_has_one(client, seated):
    """A 304 keeps the browser's response and its headers (cribsite.middleware.ContentSecurityPolicy):
    the policy is written on the 200 it revalidates, and on the pages, as ever."""
    first, _ = poll(client, seated)
    assert first.status_code == 200 and "default-src 'self'" in first["Content-Security-Policy"]
    again, _ = poll(client, seated, first["ETag"])
    assert again.status_code == 304 and "Content-Security-Policy" not in again
    assert again["ETag"] == first["ETag"] and again["Cache-Control"] == "private, no-cache"
    page = client.get(reverse("games:game", args=[seated.pk]))
    assert "script-src 'self'" in page["Content-Security-Policy"]
