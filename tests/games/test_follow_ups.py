"""A follow-up whose task was lost (the broker down after the move committed) is done later by a sweeper."""

from datetime import timedelta

import time_machine
from django.utils import timezone

from games import computer, tasks
from games.models import Event
from tests.factories import make_user, start_two_player_game


def test_the_computers_turn_lost_with_its_task_is_swept(db, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):  # the task is never queued
        game = start_two_player_game(players=[make_user(password=None), None])
    assert not Event.objects.filter(game=game, seat=1, kind="discard").exists()
    assert computer.stalled_turns(timezone.now()) == []  # its task may still be on its way
    later = timezone.now() + computer.STALLED_AFTER + timedelta(seconds=1)
    assert computer.stalled_turns(later) == [(game.pk, game.seq)]
    with time_machine.travel(later), django_capture_on_commit_callbacks(execute=True):
        assert tasks.sweep_stalled_turns.apply().get() == 1
    assert Event.objects.filter(game=game, seat=1, kind="discard", source="computer").count() == 1
    assert computer.stalled_turns(later) == []  # the human is to act now
