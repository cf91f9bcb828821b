"""A finished game's review is worked out once by the worker after the game ends (games.reviews,
a listener of game_finished), stored per seat and read by the page: until it is stored the page
says it is being prepared, and no request ever works it out. Each seat reads its own, once the
game is over."""

import datetime
import random
import time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import coaching, cribbage, follow_ups, reviews, services, table_results
from games.models import Event, FollowUp, GameReview
from tests.factories import make_user, play_random_move, reviewed, start_two_player_game

pytestmark = pytest.mark.django_db

PREPARING = "The review is being prepared"


def played(seed=5, hands=2, players=None):
    """A game between two people: `hands` hands played at random, then seat 1 resigns."""
    rng = random.Random(seed)
    game = start_two_player_game(players=players, rng=rng)
    while not game.is_finished and services.engine_state(game).hand_number <= hands:
        play_random_move(game, cribbage.to_act(services.engine_state(game))[0], rng=rng)
        game.refresh_from_db()
    if not game.is_finished:
        services.submit_move(game, 1, {"kind": "resign"})
        game.refresh_from_db()
    return game


def page(client, game):
    response = client.get(reverse("games:game", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def ready(client, game):
    response = client.get(reverse("games:review_state", args=[game.pk]))
    assert response.status_code == 200
    return response.json()["ready"]


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_page_says_the_review_is_being_prepared_until_the_worker_has_stored_it(celery_on_redis, request, client):
    alice, bob = make_user(display_name="Alice"), make_user(display_name="Bob")
    game = played(players=[alice, bob])  # committed: its end's tasks wait in Redis, no worker yet
    assert game.is_finished and not GameReview.objects.exists()
    assert FollowUp.objects.filter(object_id=game.pk, listener=reviews.LISTENER, done_at=None).count() == 1
    client.force_login(alice)
    html = page(client, game)
    assert PREPARING in html and 'id="review"' in html and "data-review-url" in html
    assert "Luck and skill" not in html and "review-hands" not in html
    assert ready(client, game) is False

    request.getfixturevalue("celery_worker_on_redis")  # the worker starts and drains what the end owed
    deadline = time.monotonic() + 60
    while GameReview.objects.filter(game=game).count() < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert ready(client, game) is True
    html = page(client, game)
    assert PREPARING not in html and "data-review-url" not in html
    assert "Luck and skill" in html and "Hand 1" in html
    assert FollowUp.objects.get(object_id=game.pk, listener=reviews.LISTENER).done_at is not None
    client.force_login(bob)
    assert "Luck and skill" in page(client, game)


def test_no_request_works_the_review_out_before_or_after_the_worker(client, no_review_worked_out):
    alice, bob = make_user(), make_user()
    game = played(players=[alice, bob])
    client.force_login(alice)
    assert PREPARING in page(client, game) and ready(client, game) is False
    assert not GameReview.objects.exists()  # the request stored nothing either
    client.force_login(make_user())
    assert PREPARING not in page(client, game)  # a spectator is told nothing of it


def test_the_review_read_is_the_one_the_worker_stored_and_reading_it_replays_nothing(client):
    alice, bob = make_user(), make_user()
    game = reviewed(played(players=[alice, bob]))
    stored = GameReview.objects.get(game=game, seat=0).data
    assert coaching.coach_notes(game, 0)["review"] == stored["review"]
    with CaptureQueriesContext(connection) as read:
        review = coaching.full_review(game, 0)
    assert not [q for q in read.captured_queries if "games_event" in q["sql"]]
    assert review["total_loss"] == stored["review"]["total_loss"] and "The cards: " in review["luck"]["summary"]
    client.force_login(alice)
    html = page(client, game)
    assert "Luck and skill" in html and PREPARING not in html
    assert f"about <strong>{stored['review']['total_loss']:.1f}</strong> lost" in html


def test_each_seat_reads_its_own_review_and_only_once_the_game_is_over(client):
    alice, bob = make_user(), make_user()
    rng = random.Random(5)
    game = start_two_player_game(players=[alice, bob], rng=rng)
    for _ in range(8):
        play_random_move(game, cribbage.to_act(services.engine_state(game))[0], rng=rng)
        game.refresh_from_db()
    reviews.prepare(game.pk)  # a game still on: nothing to store, nothing to show
    assert not GameReview.objects.exists() and coaching.full_review(game, 0) is None
    client.force_login(alice)
    assert 'id="review"' not in page(client, game) and ready(client, game) is False

    services.submit_move(game, 1, {"kind": "resign"})
    game.refresh_from_db()
    reviewed(game)
    throws = {
        seat: [sorted(e.data["cards"]) for e in Event.objects.filter(game=game, kind="discard", seat=seat)]
        for seat in (0, 1)
    }
    assert throws[0] and throws[1]
    for player, mine, theirs in ((alice, 0, 1), (bob, 1, 0)):
        review = coaching.full_review(game, mine)
        thrown = [sorted(h["discard"]["discard"]) for h in review["hands"]]  # the seat's own throws only
        assert thrown == throws[mine] and not set(map(tuple, thrown)) & set(map(tuple, throws[theirs]))
        client.force_login(player)
        stored = GameReview.objects.get(game=game, seat=mine).data["review"]
        assert f"about <strong>{stored['total_loss']:.1f}</strong> lost" in page(client, game)
    client.force_login(make_user())  # a spectator: no review, no word of one
    html = page(client, game)
    assert 'id="review"' not in html and PREPARING not in html and ready(client, game) is False


def test_prepared_twice_the_stored_review_is_the_same():
    game = played()
    reviews.prepare(game.pk)
    first = {r.seat: (r.pk, r.data, r.prepared_at) for r in GameReview.objects.filter(game=game)}
    assert sorted(first) == [0, 1]
    reviews.prepare(game.pk)  # a second task for it: nothing worked out again, nothing changed
    assert {r.seat: (r.pk, r.data, r.prepared_at) for r in GameReview.objects.filter(game=game)} == first
    GameReview.objects.filter(game=game, seat=1).delete()  # worked out again from the log: the same
    reviews.prepare(game.pk)
    assert GameReview.objects.get(game=game, seat=1).data == first[1][1]


def test_a_game_that_ended_before_reviews_were_stored_owes_its_review_on_its_first_look(client):
    alice = make_user()
    game = played(players=[alice, make_user()])
    FollowUp.objects.all().delete()  # as if it ended before the review was a follow-up of the end
    client.force_login(alice)
    assert PREPARING in page(client, game)  # owed by this look (and, tasks being eager here, done after it)
    [owed] = FollowUp.objects.all()
    assert (owed.topic, owed.listener, owed.object_id) == ("game_finished", reviews.LISTENER, game.pk)
    assert "Luck and skill" in page(client, game) and FollowUp.objects.count() == 1
    assert follow_ups.run(owed.pk) is None  # done once


def test_a_game_played_at_the_table_has_no_review_and_is_not_waiting_for_one(client):
    a, b = make_user(), make_user()
    game = table_results.record_table_result([a, b], [121, 90], entered_by=None, played_on=datetime.date(2026, 11, 30))
    reviewed(game)
    assert not GameReview.objects.exists()
    client.force_login(a)
    html = page(client, game)
    assert PREPARING not in html and 'id="review"' not in html
    assert "there are no hands to review" in html
