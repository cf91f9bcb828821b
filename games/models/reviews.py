"""A finished game's review, one row per seat (games.reviews): worked out by the worker, read by the pages and emails."""

from django.db import models
from django.utils import timezone

from games.models.game import Game


class GameReview(models.Model):
    """A finished game's review for one seat, as that seat could see the game: worked out once
    by the worker after the game ended (games.reviews, a listener of game_finished) and read by
    the game page and the emails, which never work it out. Only numbers of the other seats."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="reviews")
    seat = models.PositiveSmallIntegerField()
    data = models.JSONField(help_text="games.reviews.review_parts: the seat's review, its last hand, luck, chances.")
    prepared_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="one_review_per_seat")]

    def __str__(self):
        return f"Review of game {self.game_id}, seat {self.seat}"
