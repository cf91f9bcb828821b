"""Club ladders: rules, entrants on rungs, challenges, matches of several games, history.

Positions are the fold of the ladder's history (see ladders.rungs);
`Entrant.position` caches it. Business operations live in ladders.membership, .challenges,
.matches and .seasons, on what ladders.services gives them all.
"""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone

from events.models import Event, ResultKind
from events.standings import PRESETS, Values


class Ladder(Event):
    class Scoring(models.TextChoices):
        GAMES = "games", "Games: win 1, skunk 2, double skunk 2"
        GAMES_DOUBLE = "games_double", "Games with the double-skunk rule: win 1, skunk 2, double skunk 3"
        ACC = "acc", "ACC points table: win 2, skunk 3 (spread breaks ties)"
        CUSTOM = "custom", "Custom values (below)"

    class IdleRule(models.TextChoices):
        NONE = "none", "Nothing happens"
        DROP = "drop", "Drop down the ladder"
        REMOVE = "remove", "Remove from the ladder"

    is_open = models.BooleanField("open to join", default=True, help_text="Players may join from the ladder's page.")

    # Matches and what a win is worth, in game points.
    match_length = models.PositiveSmallIntegerField(
        default=2, help_text="A match goes to the first player with this many game points."
    )
    scoring = models.CharField(
        max_length=16,
        choices=Scoring.choices,
        default=Scoring.GAMES,
        help_text="A preset sets the values below; choose Custom to set them yourself.",
    )
    value_win = models.PositiveSmallIntegerField("a plain win is worth", default=1)
    value_skunk = models.PositiveSmallIntegerField("a skunk is worth", default=2)
    double_skunk_rule = models.BooleanField(
        default=False, help_text="Off: a double skunk counts as a skunk. On: it is worth the value below."
    )
    value_double_skunk = models.PositiveSmallIntegerField("a double skunk is worth", default=2)
    value_forfeit = models.PositiveSmallIntegerField(
        "a win by timeout or forfeit is worth",
        default=1,
        help_text="A resignation counts as the board stood: a win, or a skunk if the resigner was below the line.",
    )

    # Challenges.
    challenge_range = models.PositiveSmallIntegerField(
        default=3, help_text="A player may challenge anyone up to this many places above."
    )
    accept_days = models.PositiveSmallIntegerField(
        default=7, help_text="Days to accept a challenge before it counts as a forfeit."
    )
    max_open_challenges = models.PositiveSmallIntegerField(
        default=2, help_text="Open challenges and matches a player may be in at once."
    )
    immunity_days = models.PositiveSmallIntegerField(
        default=0, help_text="Days a player cannot be challenged after a successful defence."
    )
    rematch_days = models.PositiveSmallIntegerField(
        default=14, help_text="Days before the same two players may meet again."
    )

    # Idle entrants and vacations.
    idle_days = models.PositiveSmallIntegerField(
        default=30, help_text="An entrant with no challenge or match for this many days is idle."
    )
    idle_rule = models.CharField(max_length=8, choices=IdleRule.choices, default=IdleRule.DROP)
    idle_drop_places = models.PositiveSmallIntegerField(default=3)
    # The vacation policy (vacation_allowed, vacation_days_cap) is every event's (events.models.Event);
    # on a ladder the cap also bounds a player's days away a season (ladders.membership).
    season = models.PositiveSmallIntegerField(default=1, editable=False)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name"]

    def get_absolute_url(self):
        return reverse("ladders:detail", args=[self.slug])

    @property
    def values(self) -> Values:
        """What a win of each kind is worth in this ladder's matches."""
        double = self.value_double_skunk if self.double_skunk_rule else self.value_skunk
        return Values(win=self.value_win, skunk=self.value_skunk, double_skunk=double, forfeit=self.value_forfeit)

    def apply_preset(self):
        values = PRESETS.get(self.scoring)
        if values is not None:
            self.value_win, self.value_skunk, self.value_forfeit = values.win, values.skunk, values.forfeit
            self.value_double_skunk = values.double_skunk
            self.double_skunk_rule = values.double_skunk != values.skunk

    def save(self, *args, **kwargs):
        self.apply_preset()
        super().save(*args, **kwargs)

    def value_of(self, kind):
        """Game points for a win of `kind`: win, skunk, double_skunk or forfeit."""
        return self.values.of(kind)


class Season(models.Model):
    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="seasons")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField(default=timezone.now)
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # Frozen at close: the standings rows as ladders.selectors.standings gave them.
    standings = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["ladder", "number"]
        constraints = [models.UniqueConstraint(fields=["ladder", "number"], name="season_number_unique")]

    def __str__(self):
        return f"{self.ladder} season {self.number}"


class Entrant(models.Model):
    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="entrants")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="ladder_entries")
    # Cached from the fold of the ladder's history; null when off the ladder.
    position = models.PositiveIntegerField(null=True, blank=True)
    active = models.BooleanField(default=True)
    joined_at = models.DateTimeField(default=timezone.now)
    last_active_at = models.DateTimeField(default=timezone.now)
    immune_until = models.DateTimeField(null=True, blank=True)
    away_until = models.DateField(null=True, blank=True)
    away_days_used = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["ladder", "position"]
        constraints = [models.UniqueConstraint(fields=["ladder", "player"], name="one_entry_per_ladder")]

    def __str__(self):
        return str(self.player)


class Challenge(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Waiting for an answer"
        ACCEPTED = "accepted", "Accepted: match under way or played"
        LAPSED = "lapsed", "Not accepted in time: a forfeit"
        WITHDRAWN = "withdrawn", "Withdrawn"
        CANCELLED = "cancelled", "Cancelled"

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="challenges")
    season = models.PositiveSmallIntegerField()
    challenger = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="challenges_made")
    defender = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="challenges_received")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(default=timezone.now)
    respond_by = models.DateTimeField()
    responded_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "respond_by"])]

    def __str__(self):
        return f"{self.challenger} challenges {self.defender}"


class Match(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", "Being played"
        FINISHED = "finished", "Finished"
        VOID = "void", "Void (result undone)"

    class DecidedBy(models.TextChoices):
        PLAY = "play", "Played out"
        FORFEIT = "forfeit", "Challenge not accepted in time"
        ADJUDICATED = "adjudicated", "Adjudicated by an organiser"

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="matches")
    season = models.PositiveSmallIntegerField()
    challenge = models.OneToOneField(Challenge, on_delete=models.PROTECT, related_name="match")
    challenger = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="+")
    defender = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="+")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PLAYING)
    challenger_points = models.PositiveSmallIntegerField(default=0)
    defender_points = models.PositiveSmallIntegerField(default=0)
    winner = models.ForeignKey(Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    decided_by = models.CharField(max_length=16, choices=DecidedBy.choices, blank=True)
    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at"]
        verbose_name_plural = "matches"

    def __str__(self):
        return f"{self.challenger} v {self.defender}"

    def entrant_seat(self, entrant):
        """Seat number of `entrant` in every game of this match: challenger 0, defender 1."""
        return 0 if entrant.pk == self.challenger_id else 1


class LadderGame(models.Model):
    """One game of a match, and (once finished) what it counted for."""

    Kind = ResultKind

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    game = models.OneToOneField("games.Game", on_delete=models.PROTECT, related_name="ladder_game")
    number = models.PositiveSmallIntegerField()
    counted = models.BooleanField(default=False)
    winner = models.ForeignKey(Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=16, choices=Kind.choices, blank=True)
    value = models.PositiveSmallIntegerField(default=0)
    challenger_score = models.PositiveSmallIntegerField(default=0)
    defender_score = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["match", "number"]
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="ladder_game_number_unique")]

    def __str__(self):
        return f"{self.match}, game {self.number}"


class HistoryQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise TypeError("Ladder history is append-only: record a new entry instead.")


class LadderHistory(models.Model):
    """What happened on a ladder, who did it, and any change of positions (`op`)."""

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="history")
    seq = models.PositiveIntegerField()
    season = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=24)
    text = models.CharField(max_length=300)
    # A ladders.rungs operation when this entry changes positions.
    op = models.JSONField(null=True, blank=True)
    # Positions (entrant id -> place) after this entry, for the record.
    positions = models.JSONField(null=True, blank=True)
    undoes = models.OneToOneField("self", null=True, blank=True, on_delete=models.PROTECT, related_name="undone_by")
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.PROTECT, related_name="history")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    objects = HistoryQuerySet.as_manager()

    class Meta:
        ordering = ["ladder", "-seq"]
        verbose_name_plural = "ladder history"
        constraints = [
            models.UniqueConstraint(fields=["ladder", "seq"], name="history_seq_unique_per_ladder"),
        ]

    def __str__(self):
        return f"#{self.seq} {self.text}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise TypeError("Ladder history is append-only: record a new entry instead.")
        super().save(*args, **kwargs)
