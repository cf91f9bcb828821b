"""Test helpers for the clock: travel in time with after-commit work (emails, follow-ups) run."""
from contextlib import contextmanager

import time_machine
from django.test import TestCase


@contextmanager
def committed():
    """Run what the code under test queues with transaction.on_commit (the test's transaction never commits)."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        yield


@contextmanager
def at(moment):
    """Be at `moment` (the clock stands still), with on-commit work run at the end of the block."""
    with time_machine.travel(moment, tick=False), committed():
        yield
