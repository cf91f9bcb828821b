"""Deadline arithmetic: running time, weekend and night pauses across time zones and DST."""

import zoneinfo
from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from accounts.models import User
from clock import deadlines, seatclock
from games import times
from games.models import Event
from tests.factories import make_user, start_two_player_game

LONDON = zoneinfo.ZoneInfo("Europe/London")
NEW_YORK = zoneinfo.ZoneInfo("America/New_York")
TOKYO = zoneinfo.ZoneInfo("Asia/Tokyo")


def two_players():
    return [make_user(password=None, allow_forced_moves=False) for _ in range(2)]


def utc(*args):
    return datetime(*args, tzinfo=UTC)


def test_without_pauses_a_day_is_24_hours():
    assert deadlines.deadline_after(utc(2024, 3, 1, 10), 3) == utc(2024, 3, 4, 10)


def test_weekend_pause_skips_saturday_and_sunday_in_the_players_zone():
    # Friday 12:00 in Tokyo (03:00 UTC), 1 day: 12 hours left on Friday, the rest from Monday 00:00 Tokyo.
    start = datetime(2024, 3, 1, 12, tzinfo=TOKYO)
    deadline = deadlines.deadline_after(start, 1, pause_weekends=True, tz=TOKYO)
    assert deadline == datetime(2024, 3, 4, 12, tzinfo=TOKYO)
    # The same instant for a New Yorker is Thursday 22:00: two hours of Thursday, 22 of Friday.
    assert deadlines.deadline_after(start, 1, pause_weekends=True, tz=NEW_YORK) == datetime(
        2024, 2, 29, 22, tzinfo=NEW_YORK
    ) + timedelta(days=1)


def test_a_move_made_at_the_weekend_starts_the_clock_on_monday():
    saturday = datetime(2024, 3, 2, 15, tzinfo=LONDON)
    assert deadlines.deadline_after(saturday, 2, pause_weekends=True, tz=LONDON) == datetime(
        2024, 3, 6, 0, tzinfo=LONDON
    )


def test_night_hours_stop_the_clock_across_midnight():
    # 1 day from 10:00 with nights 23:00-07:00: 13 hours today, 8 tonight paused, 11 more from 07:00 -> 18:00.
    start = datetime(2024, 5, 6, 10, tzinfo=LONDON)
    deadline = deadlines.deadline_after(start, 1, night_hours=(23, 7), tz=LONDON)
    assert deadline == datetime(2024, 5, 7, 18, tzinfo=LONDON)


def test_a_move_made_at_night_starts_the_clock_in_the_morning():
    start = datetime(2024, 5, 7, 2, 30, tzinfo=LONDON)
    deadline = deadlines.deadline_after(start, timedelta(hours=3), night_hours=(23, 7), tz=LONDON)
    assert deadline == datetime(2024, 5, 7, 10, tzinfo=LONDON)


def test_night_not_across_midnight():
    start = datetime(2024, 5, 6, 0, tzinfo=UTC)
    assert deadlines.deadline_after(start, timedelta(hours=4), night_hours=(1, 6)) == utc(2024, 5, 6, 9)


def test_dst_spring_forward_night_is_seven_real_hours():
    # London springs forward on Sunday 31 March 2024 at 01:00: the night 23:00-07:00 lasts 7 hours.
    start = datetime(2024, 3, 30, 23, tzinfo=LONDON)
    deadline = deadlines.deadline_after(start, timedelta(hours=1), night_hours=(23, 7), tz=LONDON)
    assert deadline == datetime(2024, 3, 31, 8, tzinfo=LONDON)
    assert deadline - start == timedelta(hours=8)


def test_dst_fall_back_night_is_nine_real_hours_and_weekends_follow_local_days():
    start = datetime(2024, 11, 1, 22, tzinfo=NEW_YORK)  # Friday 22:00; DST ends Sunday 3 November
    deadline = deadlines.deadline_after(
        start, timedelta(hours=2), pause_weekends=True, night_hours=(23, 7), tz=NEW_YORK
    )
    # One hour on Friday, then nothing until Monday 07:00 local (EST now), one more hour.
    assert deadline == datetime(2024, 11, 4, 8, tzinfo=NEW_YORK)
    assert deadline.astimezone(UTC) == utc(2024, 11, 4, 13)


def test_running_time_is_the_inverse_of_deadline_after():
    start = datetime(2024, 3, 28, 17, 45, tzinfo=LONDON)
    for days in (1, 2, 3, 7):
        kwargs = {"pause_weekends": True, "night_hours": (22, 8), "tz": LONDON}
        deadline = deadlines.deadline_after(start, days, **kwargs)
        assert deadlines.running_time_between(start, deadline, **kwargs) == timedelta(days=days)


def test_a_clock_that_never_runs_is_refused():
    with pytest.raises(ValueError):
        deadlines.deadline_after(utc(2024, 1, 1), 1, night_hours=(0, 24))


def test_reminder_moments_80_percent_and_the_last_day_for_long_clocks():
    start = utc(2024, 1, 1)
    assert deadlines.reminder_moments(start, start + timedelta(days=1), 1) == [start + timedelta(hours=19.2)]
    seven = deadlines.reminder_moments(start, start + timedelta(days=7), 7)
    assert seven == [start + timedelta(days=5.6), start + timedelta(days=6)]
    three = deadlines.reminder_moments(start, start + timedelta(days=3), 3)
    assert three == [start + timedelta(days=2), start + timedelta(days=2.4)]


def test_deadline_text_in_the_readers_zone():
    reader = User(time_zone="America/New_York")
    with time_machine.travel(utc(2024, 12, 1, 12), tick=False):
        deadline = utc(2024, 12, 3, 23)
        assert times.deadline_text(deadline, reader) == "Tue 3 Dec, 18:00 (in 2 days)"
        assert times.deadline_text(deadline, None) == "Tue 3 Dec, 23:00 UTC (in 2 days)"
        assert times.deadline_text(utc(2024, 12, 1, 17), reader) == "Sun 1 Dec, 12:00 (in 5 hours)"
        assert times.deadline_text(utc(2024, 12, 1, 11), reader).endswith("(overdue)")


def test_deadline_for_filter_renders_in_the_template():
    from django.template import Context, Template

    reader = User(time_zone="Asia/Tokyo")
    with time_machine.travel(utc(2024, 12, 1, 12), tick=False):
        out = Template("{% load clock %}{{ d|deadline_for:user }}").render(
            Context({"d": utc(2024, 12, 2, 12), "user": reader})
        )
    assert out == "Mon 2 Dec, 21:00 (in 24 hours)"


@pytest.mark.django_db
def test_turn_deadline_uses_the_games_pauses_and_the_players_zone():
    alice = make_user(password=None, time_zone="Europe/London", allow_forced_moves=False)
    bob = make_user(password=None, time_zone="Asia/Tokyo", allow_forced_moves=False)
    friday_noon = datetime(2024, 3, 1, 12, tzinfo=LONDON)
    with time_machine.travel(friday_noon, tick=False):
        game = start_two_player_game(players=[alice, bob], days_per_move=1)
    game.pause_weekends = True
    game.save()
    seats = {s.number: s for s in game.seats.select_related("player")}

    def turn_deadline(seat, now):
        return seatclock.turn_started(deadlines.clock_of(seat), deadlines.rules_for(game, seat), now).deadline

    assert turn_deadline(seats[0], friday_noon) == datetime(2024, 3, 4, 12, tzinfo=LONDON)
    # Bob's Friday ends at 15:00 London time (midnight in Tokyo): 3 hours, then Monday in Tokyo.
    assert turn_deadline(seats[1], friday_noon) == datetime(2024, 3, 4, 21, tzinfo=TOKYO)


@pytest.mark.django_db
def test_moves_set_deadlines_and_the_first_reminder():
    with time_machine.travel(utc(2024, 3, 4, 9), tick=False):
        game = start_two_player_game(players=two_players(), days_per_move=2)
    for seat in game.seats.all():
        assert seat.to_act and seat.turn_started_at == utc(2024, 3, 4, 9)
        assert seat.deadline == utc(2024, 3, 6, 9)
        assert seat.remind_at == utc(2024, 3, 4, 9) + timedelta(days=1.6)


@pytest.mark.django_db
def test_clock_events_are_in_the_log_but_not_in_replays():
    from django.core.management import call_command

    from clock import timeouts
    from games import selectors

    game = start_two_player_game(players=two_players())
    timeouts.grant_more_time(game, 0, 1, 2)
    assert game.events.filter(kind="more_time").count() == 1
    call_command("verify_games", game.pk)  # raises if the replay disagrees
    assert selectors.record_for(game, 0)["hands"]  # the record replays without the clock event
    assert Event.objects.filter(game=game).order_by("-seq").first().seq == game.__class__.objects.get(pk=game.pk).seq


def test_no_clock_event_on_a_finished_game(db):
    from clock import timeouts
    from clock.events import ClockError
    from games import services

    game = start_two_player_game(players=two_players())
    services.record_forfeit(game, 1, reason="adjudicated")
    game.refresh_from_db()
    with pytest.raises(ClockError, match="^This game is over.$"):
        timeouts.grant_more_time(game, 0, 1, 2)
    assert not Event.objects.filter(game=game, kind="more_time").exists()
    assert Event.objects.filter(game=game).count() == game.seq
