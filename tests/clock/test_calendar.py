"""The calendar feed: the player's own deadlines at a secret URL from the profile, each with an
alarm at the reminder time, moving with the games; a wrong or replaced address finds nothing."""

import random
import re
from datetime import UTC, datetime, timedelta

import icalendar
import pytest
from django.conf import settings
from django.urls import reverse

from games.models import Seat
from tests.factories import at, make_user, play_random_move, start_two_player_game

pytestmark = pytest.mark.django_db
START = datetime(2024, 3, 4, 9, tzinfo=UTC)


def feed_url(client, user):
    client.force_login(user)
    page = client.get(reverse("accounts:profile")).content.decode()
    return re.search(r'value="(https?://[^"]+\.ics)"', page).group(1)


def path_of(url):
    return "/" + url.split("://", 1)[1].split("/", 1)[1]


def events(client, url):
    client.logout()  # calendar apps have no session: the address is the key
    response = client.get(path_of(url))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/calendar")
    return [c for c in icalendar.Calendar.from_ical(response.content).walk("VEVENT")]


def test_the_feed_has_each_move_owed_with_its_alarm_and_follows_the_games(client):
    alice, bob = make_user(display_name="Alice"), make_user(display_name="Bob")
    with at(START):
        first = start_two_player_game(players=[alice, bob], days_per_move=3)
        second = start_two_player_game(players=[alice, bob], days_per_move=1)
        play_random_move(first, 0, rng=random.Random(3))  # Alice has thrown in the first game
    url = feed_url(client, alice)
    with at(START + timedelta(hours=1)):
        owed = events(client, url)
    # Alice owes a move in the second game only: due 24 hours on, reminded at 80% of the time.
    assert [str(e["uid"]) for e in owed] == [f"game-{second.pk}-seat-0@{settings.REPLY_DOMAIN}"]
    [event] = owed
    assert event.decoded("dtend") == START + timedelta(days=1)
    assert f"game {second.pk}" in str(event["summary"]) and "Alice v Bob" in str(event["summary"])
    [alarm] = event.walk("VALARM")
    assert event.decoded("dtstart") + alarm.decoded("trigger") == START + timedelta(hours=19.2)
    # Bob's feed has both games; once he throws in the first, it follows that game's new turn.
    bob_url = feed_url(client, bob)
    with at(START + timedelta(hours=1)):
        assert len(events(client, bob_url)) == 2
        play_random_move(first, 1, rng=random.Random(4))
        shown = {str(e["uid"]): e.decoded("dtend") for e in events(client, bob_url)}
    owed = {
        f"game-{s.game_id}-seat-1@{settings.REPLY_DOMAIN}": s.deadline
        for s in Seat.objects.filter(player=bob, to_act=True)
    }
    assert shown == owed and shown[f"game-{second.pk}-seat-1@{settings.REPLY_DOMAIN}"] == START + timedelta(days=1)


def test_a_wrong_or_replaced_address_finds_nothing(client):
    alice = make_user()
    url = feed_url(client, alice)
    path = path_of(url)
    assert client.get(path.replace(".ics", "x.ics")).status_code == 404
    assert client.get(reverse("clock:calendar_feed", args=["short"])).status_code == 404
    client.force_login(alice)
    response = client.post(reverse("clock:calendar_new_key"), follow=True)
    assert "Your calendar has a new address" in response.content.decode()
    client.logout()
    assert client.get(path).status_code == 404
    assert feed_url(client, alice) != url
