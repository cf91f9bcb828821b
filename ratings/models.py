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


class PlayerGame(models.Model):
    """A finished game as one player's profile counts it (ratings.tallies writes it when the game ends).

    Show figures come from the shows that happened at the table: nothing hidden.
    """

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="player_games")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_games")
    seat = models.PositiveSmallIntegerField()
    won = models.BooleanField()
    skunks_given = models.PositiveSmallIntegerField(default=0, help_text="Losing sides skunked (double included).")
    skunk_taken = models.CharField(max_length=16, blank=True, help_text='"", "skunk" or "double_skunk".')
    hands = models.PositiveSmallIntegerField(default=0)
    hand_points = models.PositiveIntegerField(default=0)
    cribs = models.PositiveSmallIntegerField(default=0)
    crib_points = models.PositiveIntegerField(default=0)
    best_hand = models.SmallIntegerField(default=-1, help_text="-1: no hand shown.")
    best_hand_cards = models.CharField(max_length=40, blank=True, help_text="The hand, then the starter.")
    twenty_nines = models.PositiveSmallIntegerField(default=0)
    finished_at = models.DateTimeField()

    class Meta:
        ordering = ["-finished_at", "-game_id"]
        constraints = [models.UniqueConstraint(fields=["game", "player"], name="one_tally_per_player_and_game")]
        indexes = [models.Index(fields=["player", "-finished_at"])]

    def __str__(self):
        return f"Game {self.game_id} for {self.player}"
