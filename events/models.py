"""What every event (a ladder, a tournament) is: a named, organised set of games under one set of
game settings; and what a game of it counts as once finished."""

from dataclasses import replace

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from games.game_settings import GameSettings
from games.models import EventGameSettings


class Event(EventGameSettings):
    name = models.CharField(max_length=100)
    slug = models.SlugField(unique=True)
    description = models.TextField(blank=True)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="organised_%(class)ss",
        blank=True,
        # Organisers are staff (a ladder's form makes them so as they are added, and offers its own list).
        limit_choices_to={"is_staff": True},
        help_text="Who runs this event. Only they (and superusers) can change it.",
    )
    # The event's vacation policy: what every game of it allows (the clock's vacation days).
    vacation_allowed = models.BooleanField(
        default=True, help_text="Players may take vacation days in the event's games (the clock stops)."
    )
    vacation_days_cap = models.PositiveSmallIntegerField(
        default=21,
        help_text="Vacation days a player may use in each game (on a ladder, also days away a season: "
        "nobody can challenge a player who is away).",
    )

    class Meta:
        abstract = True

    def __str__(self):
        return self.name

    @property
    def game_settings(self) -> GameSettings:
        """Every game's settings: the vacation a game allows follows the event's policy."""
        return replace(super().game_settings, vacation_cap_days=self.vacation_days_cap if self.vacation_allowed else 0)

    @property
    def vacation_words(self):
        if not self.vacation_allowed:
            return "No vacation days: the clock never stops for a player away."
        return f"Vacation: up to {self.vacation_days_cap} day{'s' if self.vacation_days_cap != 1 else ''} a game."

    def is_organiser(self, user):
        if not getattr(user, "is_authenticated", False) or not user.is_active:
            return False
        return user.is_superuser or (user.is_staff and self.organisers.filter(pk=user.pk).exists())


class Repeating(models.Model):
    """An event that opens the next like it every N days (events.repeats says when and what)."""

    repeat_every_days = models.PositiveSmallIntegerField(
        "repeat every (days)",
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(365)],
        help_text="Open the next event like this one (the same settings and organisers, no entrants) this "
        "many days after it starts, when it starts; players see it under Events and enter it. Empty: once.",
    )
    # The event this one repeats; one next event at most, so opening it twice opens it once.
    repeated_from = models.OneToOneField(
        "self", null=True, blank=True, editable=False, on_delete=models.SET_NULL, related_name="repeated_by"
    )

    class Meta:
        abstract = True


class ResultKind(models.TextChoices):
    """What a finished game of an event counts as (its winner's game points follow the event's values)."""

    WIN = "win", "Win"
    SKUNK = "skunk", "Skunk"
    DOUBLE_SKUNK = "double_skunk", "Double skunk"
    FORFEIT = "forfeit", "Win by timeout or forfeit"
