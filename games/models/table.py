"""At the table, beside the game: private notes and table talk (games.talk), and mutes."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from games.models.game import Game


class Note(models.Model):
    """A player's private note on a game: shown to nobody else, ever."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_notes")
    text = models.TextField()
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "player"], name="one_note_per_player_and_game")]

    def __str__(self):
        return f"Note of {self.player} on game {self.game_id}"


class TableMessage(models.Model):
    """A word said to the other players of a game ("say ..."): never a move, never in the log."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="talk")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="table_messages")
    text = models.CharField(max_length=500)
    source = models.CharField(max_length=16, default="web")
    created_at = models.DateTimeField(default=timezone.now)
    reported_at = models.DateTimeField(null=True, blank=True, help_text="A player reported it to the staff.")
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [
            models.Index(fields=["game", "created_at"]),
            models.Index(
                fields=["reported_at"], condition=Q(reported_at__isnull=False), name="table_message_reported_idx"
            ),
        ]

    def __str__(self):
        return f"{self.author} in game {self.game_id}: {self.text[:40]}"


class Mute(models.Model):
    """`player` no longer sees what `muted` says at any table."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mutes")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "muted"], name="one_mute_per_pair")]
