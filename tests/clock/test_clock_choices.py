"""Clock choices where games are made: the challenge form, the seek, the challenge email, ladders;
the game page and the first turn email say them; the time bank over weeks with a weekend pause."""

import random
from datetime import UTC, datetime

import pytest
from django.core import mail
from django.urls import reverse
from django.utils.html import escape

from clock import timeouts
from games import challenges
from games.models import Challenge, Event
from tests.factories import at, committed, make_user, play_random_move, start_two_player_game

pytestmark = pytest.mark.django_db
THURSDAY = datetime(2024, 3, 7, 12, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _no_rate_limits():
    from django.core.cache import cache

    cache.clear()


def challenge_form(**fields):
    return {"variant": "two", "target": "121", "days_per_move": "2", **fields}


def test_a_challenge_with_pauses_a_rule_and_a_time_bank_makes_a_game_with_them(client):
    alice, bob = make_user(display_name="Alice"), make_user(display_name="Bob")
    client.force_login(alice)
    form = client.get(reverse("games:new_challenge")).content.decode()
    for name in ("pause_weekends", "pause_nights", "timeout_policy", "time_bank_days"):
        assert f'name="{name}"' in form
    response = client.post(
        reverse("games:new_challenge"),
        challenge_form(
            player1=bob.email,
            pause_weekends="on",
            pause_nights="on",
            timeout_policy="opponent_chooses",
            time_bank_days="3",
        ),
    )
    assert response.status_code == 302
    ch = Challenge.objects.get()
    words = (
        "2 days per move; the clock stops at weekends and at night (each player's own time); a time bank "
        "of 3 days each, spent a day at a time before a timeout; vacation days stop the clock; "
        "out of time: the opponent may claim the game or wait."
    )
    assert ch.clock_text == words
    [notice] = mail.outbox
    assert f"The clock: {words}" in notice.body
    assert escape(words) in client.get(ch.get_absolute_url()).content.decode()

    client.force_login(bob)
    mail.outbox.clear()
    with committed():
        client.post(reverse("games:challenge_accept", args=[ch.pk]))
    game = Challenge.objects.get().game
    assert (game.days_per_move, game.pause_weekends, game.pause_nights, game.timeout_policy, game.time_bank_days) == (
        2,
        True,
        True,
        "opponent_chooses",
        3,
    )
    assert [s.bank_seconds for s in game.seats.order_by("number")] == [3 * 86400, 3 * 86400]
    page = client.get(game.get_absolute_url()).content.decode()
    assert "a time bank of 3 days each" in page and page.count("(time bank: 3 days left)") == 2
    # The first turn email of each player says the clock; the next one does not again.
    turns = [m for m in mail.outbox if m.tags == ["turn"]]
    assert sorted(m.to[0] for m in turns) == sorted([alice.email, bob.email])
    assert all("The clock of this game: 2 days per move; the clock stops" in m.body for m in turns)
    mail.outbox.clear()
    with at(datetime.now(UTC)):
        play_random_move(game, 0, rng=random.Random(3))
        play_random_move(game, 1, rng=random.Random(4))
    later = [m for m in mail.outbox if m.tags == ["turn"]]
    assert later and not any("The clock of this game" in m.body for m in later)


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"time_bank_days": "11"}, "A time bank is 0 to 10 days."),
        ({"time_bank_days": "-1"}, "A time bank is 0 to 10 days."),
        (
            {"timeout_policy": "nobody_minds"},
            "Select a valid choice. nobody_minds is not one of the available choices.",
        ),
    ],
)
def test_bad_clock_choices_are_refused_in_words_and_send_nothing(client, fields, message):
    alice, bob = make_user(), make_user()
    client.force_login(alice)
    response = client.post(reverse("games:new_challenge"), challenge_form(player1=bob.email, **fields))
    assert response.status_code == 400 and message in response.content.decode()
    assert not Challenge.objects.exists() and not mail.outbox


def test_a_night_pause_for_a_player_without_a_night_is_refused(client):
    alice, bob = make_user(night_start_hour=0, night_end_hour=0), make_user()
    client.force_login(alice)
    response = client.post(reverse("games:new_challenge"), challenge_form(player1=bob.email, pause_nights="on"))
    assert response.status_code == 400
    assert "Your profile has no night hours, so a night pause would never stop your clock" in response.content.decode()
    assert not Challenge.objects.exists() and not mail.outbox
    with pytest.raises(challenges.ChallengeError, match="^A time bank is 0 to 10 days.$"):
        challenges.create_seek(bob, time_bank_days=99)
    assert not Challenge.objects.exists()


def test_a_seek_carries_its_clock_to_the_game(client):
    alice, bob = make_user(), make_user()
    seek = challenges.create_seek(
        alice, days_per_move=1, pause_weekends=True, time_bank_days=1, timeout_policy="computer_stands_in"
    )
    game = challenges.accept_seek(seek, bob).game
    assert (game.pause_weekends, game.pause_nights, game.time_bank_days, game.timeout_policy) == (
        True,
        False,
        1,
        "computer_stands_in",
    )


@pytest.mark.postgres
def test_the_time_bank_is_spent_a_day_at_a_time_then_the_game_times_out_with_weekends_paused():
    alice = make_user(password=None, allow_forced_moves=False, vacation_days=0)
    bob = make_user(password=None, allow_forced_moves=False, vacation_days=0)
    with at(THURSDAY):
        game = start_two_player_game(players=[alice, bob], days_per_move=1, pause_weekends=True, time_bank_days=2)
        play_random_move(game, 0, rng=random.Random(3))

    def bob_seat():
        return game.seats.get(number=1)

    # Thursday noon + 1 running day: Friday noon.
    assert bob_seat().deadline == datetime(2024, 3, 8, 12, tzinfo=UTC)
    with at(datetime(2024, 3, 8, 12, 1, tzinfo=UTC)):
        assert timeouts.sweep() == {"time_bank": 1}
        assert timeouts.sweep() == {}
    # A bank day from Friday noon: 12 hours of Friday, the weekend paused, 12 hours of Monday.
    seat = bob_seat()
    assert (seat.deadline, seat.bank_seconds) == (datetime(2024, 3, 11, 12, tzinfo=UTC), 86400)
    with at(datetime(2024, 3, 9, 12, tzinfo=UTC)):
        assert timeouts.sweep() == {}  # Saturday: nothing runs out
    with at(datetime(2024, 3, 11, 12, 1, tzinfo=UTC)):
        assert timeouts.sweep() == {"time_bank": 1}
    seat = bob_seat()
    assert (seat.deadline, seat.bank_seconds) == (datetime(2024, 3, 12, 12, tzinfo=UTC), 0)
    with at(datetime(2024, 3, 12, 12, 1, tzinfo=UTC)):
        assert timeouts.sweep() == {"forfeit": 1}
    game.refresh_from_db()
    assert game.is_finished and game.winner_side == 0
    spent = [
        (e.data["seconds"], e.data["left_seconds"], e.data["deadline"])
        for e in game.events.filter(kind="time_bank").order_by("seq")
    ]
    assert spent == [(86400, 86400, "2024-03-11T12:00:00+00:00"), (86400, 0, "2024-03-12T12:00:00+00:00")]
    from django.core.management import call_command

    call_command("verify_games", game.pk)  # clock events stay out of the replay


@pytest.mark.postgres
def test_night_pauses_and_weekends_over_two_weeks_of_moves():
    """Hand-worked: London players, nights 22:00-08:00, weekends paused, 2 days per move."""
    import zoneinfo

    london = zoneinfo.ZoneInfo("Europe/London")
    alice = make_user(
        password=None,
        allow_forced_moves=False,
        vacation_days=0,
        time_zone="Europe/London",
        night_start_hour=22,
        night_end_hour=8,
    )
    bob = make_user(
        password=None,
        allow_forced_moves=False,
        vacation_days=0,
        time_zone="Europe/London",
        night_start_hour=22,
        night_end_hour=8,
    )
    start = datetime(2024, 3, 14, 20, tzinfo=london)  # a Thursday evening
    with at(start):
        game = start_two_player_game(players=[alice, bob], days_per_move=2, pause_weekends=True, pause_nights=True)
    # 2 running days = 48 hours of 14-hour days: Thu 2h, Fri 14h, (weekend), Mon 14h, Tue 14h, Wed 4h.
    assert [s.deadline for s in game.seats.order_by("number")] == [datetime(2024, 3, 20, 12, tzinfo=london)] * 2
    with at(datetime(2024, 3, 19, 9, tzinfo=london)):
        play_random_move(game, 0, rng=random.Random(3))
    with at(datetime(2024, 3, 20, 11, 59, tzinfo=london)):
        assert timeouts.sweep() == {}
    with at(datetime(2024, 3, 20, 12, 1, tzinfo=london)):
        assert timeouts.sweep() == {"forfeit": 1}
    game.refresh_from_db()
    assert game.is_finished and game.winner_side == 0
    assert Event.objects.filter(game=game, kind="forfeit", seat=1).exists()
