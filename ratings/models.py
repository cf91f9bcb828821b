"""Ratings: each player's current skill per family, and the change every rated game made.

`Rating` is a cache of the last `RatingChange` of its player and family (the
history); `manage.py recompute_ratings` rebuilds both from the finished games.
"""

from django.conf import settings
from django.db import models

from ratings.arithmetic import FAMILIES, NEW, OVERALL, Skill, shown

FAMILY_CHOICES = [
    (OVERALL, "Overall"),
    ("two", "Two players"),
    ("three", "Three players"),
    ("partnerships", "Partnerships"),
]
assert {name for name, _ in FAMILY_CHOICES} == {OVERALL, *FAMILIES}


class Rating(models.Model):
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    family = models.CharField(max_length=16, choices=FAMILY_CHOICES)
    mu = models.FloatField(default=NEW.mu)
    sigma = models.FloatField(default=NEW.sigma)
    games = models.PositiveIntegerField(default=0, help_text="Rated games counted.")
    updated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "family"], name="one_rating_per_player_and_family")]

    def __str__(self):
        return f"{self.player} ({self.get_family_display().lower()}): {self.shown}"

    @property
    def skill(self):
        return Skill(self.mu, self.sigma)

    @property
    def shown(self):
        return shown(self.skill, self.games)


class RatingChange(models.Model):
    """What one rated game did to one player's rating in one family (and the overall one)."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_changes")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    family = models.CharField(max_length=16, choices=FAMILY_CHOICES)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    # The order games are rated in: their finish (finished_at, then id), as recompute_ratings replays it.
    finished_at = models.DateTimeField()

    class Meta:
        ordering = ["finished_at", "game_id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "player", "family"], name="a_game_changes_a_rating_once")
        ]
        indexes = [models.Index(fields=["player", "family", "finished_at"])]

    def __str__(self):
        return f"Game {self.game_id}, {self.player} ({self.family}): {self.shown_before} -> {self.shown_after}"

    @property
    def shown_before(self):
        return shown(Skill(self.mu_before, self.sigma_before))

    @property
    def shown_after(self):
        return shown(Skill(self.mu_after, self.sigma_after))
