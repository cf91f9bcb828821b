"""After-commit work owed by a transaction (games.follow_ups): its durable rows."""

from django.db import models
from django.db.models import Q
from django.utils import timezone


class FollowUp(models.Model):
    """Work a transaction owes once it has committed, written in that transaction: one row per
    listener of a topic (a finished game for the ladders, the ratings, the tournaments; the
    computer's turn). games.follow_ups drains it after commit and its sweeper takes what a lost
    task left; `key` is unique, so the cause writing it twice owes it once."""

    topic = models.CharField(max_length=64)
    listener = models.CharField(max_length=64, help_text="Who acts on it (one row per listener of the topic).")
    key = models.CharField(max_length=200, unique=True)
    object_id = models.BigIntegerField(help_text="What it is about (a game).")
    seq = models.PositiveIntegerField(null=True, blank=True, help_text="The state it is about, when that matters.")
    attempts = models.PositiveSmallIntegerField(default=0)
    next_try_at = models.DateTimeField(help_text="When the sweeper takes it if it is not done by then.")
    claimed_until = models.DateTimeField(null=True, blank=True, help_text="A task has it until then.")
    done_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [
            models.Index(fields=["next_try_at"], condition=Q(done_at__isnull=True), name="follow_up_owed_idx"),
            models.Index(fields=["done_at"], condition=Q(done_at__isnull=False), name="follow_up_done_idx"),
        ]

    def __str__(self):
        return f"{self.key}: {'done' if self.done_at else 'owed'}"
