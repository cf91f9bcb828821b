"""The daily digest: at each reader's hour in their own zone, once a day, every game waiting with its deadline."""

import random
from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail

from accounts.models import DigestSent
from clock import digest
from tests.factories import at, at_once, failures, make_user, play_random_move, start_two_player_game

pytestmark = pytest.mark.django_db
START = datetime(2024, 3, 4, 0, tzinfo=UTC)


def reader(zone, hour=8):
    return make_user(
        password=None, display_name=zone, notify="digest", time_zone=zone, digest_hour=hour, allow_forced_moves=False
    )


def waiting_for(user, days=3):
    opponent = make_user(password=None, display_name="Opponent", allow_forced_moves=False)
    with at(START):
        game = start_two_player_game(players=[opponent, user], days_per_move=days)
        play_random_move(game, 0, rng=random.Random(3))
    return game


def digests(user):
    return [m for m in mail.outbox if m.to == [user.email] and m.subject.startswith("Your move in")]


def test_each_reader_gets_one_digest_at_their_hour():
    tokyo, london, new_york = reader("Asia/Tokyo"), reader("Europe/London"), reader("America/New_York")
    games = {u.pk: [waiting_for(u), waiting_for(u, days=1)] for u in (tokyo, london, new_york)}
    mail.outbox.clear()
    with at(START + timedelta(hours=7, minutes=30)):  # 16:30 Tokyo, 07:30 London, 02:30 New York
        assert digest.send_digests() == 1
        assert digest.send_digests() == 0
    assert len(digests(tokyo)) == 1 and not digests(london) and not digests(new_york)
    with at(START + timedelta(hours=8, minutes=5)):
        assert digest.send_digests() == 1
    with at(START + timedelta(hours=13, minutes=5)):  # 08:05 in New York (EST)
        assert digest.send_digests() == 1
    with at(START + timedelta(hours=23)):  # 08:00 Tuesday in Tokyo: a new day there
        assert digest.send_digests() == 1
    assert len(digests(tokyo)) == 2 and len(digests(london)) == 1 and len(digests(new_york)) == 1
    body = digests(new_york)[0].body
    first, second = games[new_york.pk][1], games[new_york.pk][0]  # the 1-day game runs out first
    assert body.index(f"Game {first.pk} ") < body.index(f"Game {second.pk} ")
    assert "Mon 4 Mar, 19:00 (in 10 hours)" in body  # 1 day after midnight UTC, in New York time
    assert first.get_absolute_url() in body


def test_no_games_waiting_no_email_but_the_day_is_done():
    lonely = reader("Europe/Paris")
    with at(START + timedelta(hours=9)):
        assert digest.send_digests() == 0
        assert DigestSent.objects.filter(user=lonely).count() == 1
        assert digest.due_users(START + timedelta(hours=9)) == []


def test_players_who_want_every_turn_get_no_digest():
    player = make_user(password=None, notify="every_turn", time_zone="UTC", digest_hour=0)
    waiting_for(player)
    with at(START + timedelta(hours=9)):
        assert digest.send_digests() == 0
    assert not DigestSent.objects.exists()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_digest_runs_at_once_send_once():
    users = [reader("Europe/London", hour=0) for _ in range(3)]
    for user in users:
        waiting_for(user)
    mail.outbox.clear()

    def run():
        with at(START + timedelta(hours=10)):
            digest.send_digests()

    assert not failures(at_once(run, run))
    assert [len(digests(u)) for u in users] == [1, 1, 1]
