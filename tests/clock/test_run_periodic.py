"""`manage.py run_periodic`: every periodic task once, for cron; two runs at once act once."""

import io
import random
from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings
from django.core.management import call_command

from games.models import Event, Game
from tests.factories import at, at_once, failures, make_user, play_random_move, start_two_player_game

START = datetime(2024, 3, 4, 9, tzinfo=UTC)


def overdue_games(count):
    games = []
    for _ in range(count):
        alice, bob = (make_user(password=None, allow_forced_moves=False, vacation_days=0) for _ in range(2))
        with at(START):
            game = start_two_player_game(players=[alice, bob], days_per_move=1)
            play_random_move(game, 0, rng=random.Random(3))
        games.append(game)
    return games


def run_periodic(*args):
    out, err = io.StringIO(), io.StringIO()
    call_command("run_periodic", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


@pytest.mark.django_db
def test_every_beat_entry_runs_once_and_the_overdue_game_is_settled():
    (game,) = overdue_games(1)
    with at(START + timedelta(days=1, minutes=1)):
        out, err = run_periodic()
    assert [line.split(":")[0] for line in out.splitlines()] == list(settings.CELERY_BEAT_SCHEDULE)
    assert "clock-sweep-timeouts: {'forfeit': 1}" in out.splitlines() and err == ""
    game.refresh_from_db()
    assert game.is_finished and game.finish == "forfeit"
    with at(START + timedelta(days=1, minutes=2)):
        assert "clock-sweep-timeouts: {}" in run_periodic("--only", "clock-sweep-timeouts")[0]


@pytest.mark.django_db
def test_an_unknown_entry_is_refused_and_nothing_runs():
    (game,) = overdue_games(1)
    with at(START + timedelta(days=1, minutes=1)), pytest.raises(SystemExit) as exit_:
        run_periodic("--only", "clock-sweep-everything")
    assert exit_.value.code == 2
    game.refresh_from_db()
    assert not game.is_finished


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_runs_at_once_settle_each_game_once():
    games = overdue_games(4)

    def run():
        with at(START + timedelta(days=1, minutes=1)):
            return run_periodic()[0]

    outs = at_once(run, run)
    assert not failures(outs)
    # Either the second found the lock taken, or it ran after the first and found nothing due.
    assert any("clock-sweep-timeouts: {'forfeit': 4}" in out for out in outs)
    assert all("forfeit" not in out for out in outs if "clock-sweep-timeouts: {'forfeit': 4}" not in out)
    for game in games:
        assert Event.objects.filter(game=game, kind="forfeit").count() == 1
    assert Game.objects.filter(status=Game.Status.FINISHED).count() == 4
