"""Offers to play: a challenge to named players, an open seek, and the places they offer."""

from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import models
from django.urls import reverse
from django.utils import timezone

from games.models.game import Game
from games.models.settings_fields import GameSettingsFields
from games.presentation import clock_text


class Challenge(GameSettingsFields):
    """An offer to play: to named players (a challenge) or to anyone (an open seek).

    Each other place at the table is a `ChallengePlace`. A challenge names a
    player for every place; a seek names none and fills its places as players
    accept it. The game starts when every place has accepted.
    """

    class Status(models.TextChoices):
        OPEN = "open", "Waiting for an answer"
        ACCEPTED = "accepted", "Accepted: the game is on"
        DECLINED = "declined", "Declined"
        CANCELLED = "cancelled", "Cancelled"

    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_made")
    is_seek = models.BooleanField(default=False, help_text="Open to anyone who accepts.")
    help_on = models.BooleanField(
        default=False, help_text="Help on for every player (expected values and the coach); off by default."
    )
    rated = models.BooleanField(
        default=False, help_text="The game counts for the ratings: accepting the challenge agrees to it."
    )
    # A seek may ask who takes it for a reliability (games.reliability: percent not lost on time).
    min_reliability = models.PositiveSmallIntegerField(
        "lowest reliability", null=True, blank=True, validators=[MaxValueValidator(100)]
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    game = models.OneToOneField(Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="challenge")
    rematch_of = models.OneToOneField(
        Game,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="rematch",
        help_text="The finished game this challenge offers a rematch of (one offer per game).",
    )
    created_at = models.DateTimeField(default=timezone.now)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["is_seek", "status", "-created_at"]),
            models.Index(fields=["challenger", "created_at"], name="challenges_made_by_day_idx"),
        ]

    def __str__(self):
        kind = "Seek" if self.is_seek else "Challenge"
        return f"{kind} {self.pk} by {self.challenger}"

    def get_absolute_url(self):
        return reverse("games:challenge", args=[self.pk])

    @property
    def clock_text(self):
        """The clock of the game it makes, in words (a challenge allows vacation without a limit)."""
        return clock_text(self)

    @property
    def is_open(self):
        return self.status == self.Status.OPEN


class ChallengePlace(models.Model):
    """One seat offered by a challenge: the seat number it will take and who takes it.

    `player` is set from the start for a challenge (an invited address gets an
    account at once, see accounts.services.invite) and on acceptance for a seek.
    """

    challenge = models.ForeignKey(Challenge, on_delete=models.CASCADE, related_name="places")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="challenge_places"
    )
    invited_email = models.EmailField(blank=True, help_text="The address the challenger typed.")
    accepted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["challenge", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["challenge", "seat"], name="challenge_place_seat_unique"),
            models.UniqueConstraint(fields=["challenge", "player"], name="challenge_place_player_unique"),
        ]

    def __str__(self):
        return f"Seat {self.seat} of {self.challenge}: {self.player or 'anyone'}"
