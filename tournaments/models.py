"""Events beyond ladders: leagues (round robin), knockouts, duplicate events and ACC club nights.

An event has entrants, rounds, pairings (two entrants at a table, or a bye) and each
pairing's games. A club night season has nights instead (ClubNight), each with the games
played at the club that night (NightGame) and the awards won (Award): tournaments.club_nights. Business operations live in tournaments.services; the arithmetic of
schedules and tables in tournaments.schedule and tournaments.standings.
"""

from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import models
from django.urls import reverse
from django.utils import timezone

from events.models import Event, Repeating, ResultKind
from events.standings import PRESETS


class Tournament(Event, Repeating):
    class Kind(models.TextChoices):
        LEAGUE = "league", "League: a round robin"
        KNOCKOUT = "knockout", "Knockout: single elimination"
        DUPLICATE = "duplicate", "Duplicate: every table of a round plays the same cards"
        CLUB_NIGHT = "club_night", "Club night: nine games a night at the club, ACC Grass Roots Points"

    class Scoring(models.TextChoices):
        GAMES = "games", "Game points: win 1, skunk 2, double skunk 2"
        GAMES_DOUBLE = "games_double", "Game points with the double-skunk rule: win 1, skunk 2, double skunk 3"
        ACC = "acc", "ACC match points: win 2, skunk 3, double skunk 3, loss 0"

    class Status(models.TextChoices):
        DRAFT = "draft", "Taking entries"
        RUNNING = "running", "Under way"
        FINISHED = "finished", "Finished"

    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.LEAGUE)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT, editable=False)
    starts_on = models.DateField("season starts", default=timezone.localdate)
    ends_on = models.DateField("season ends", null=True, blank=True)

    # League and duplicate: how many times everyone meets; all rounds at once or one by one.
    legs = models.PositiveSmallIntegerField(
        "round robin",
        default=1,
        choices=[(1, "Once: everyone plays everyone once"), (2, "Twice: and again with the seats swapped")],
    )
    all_rounds_at_start = models.BooleanField(
        default=True,
        help_text="League: every game starts when the event starts. Off: a round opens when the last is done.",
    )
    scoring = models.CharField(max_length=16, choices=Scoring.choices, default=Scoring.GAMES)
    # Knockout: games per pairing.
    best_of = models.PositiveSmallIntegerField(
        default=1, choices=[(n, f"Best of {n}") for n in (1, 3, 5, 7)], help_text="Knockout: games a pairing plays."
    )

    # Players entering on their own (entries.register): the rules every channel applies.
    entries_close_on = models.DateField(
        "entries close", null=True, blank=True, help_text="The last day a player may enter (empty: until it starts)."
    )
    max_entrants = models.PositiveSmallIntegerField("most entrants", null=True, blank=True)
    min_rating = models.PositiveSmallIntegerField(
        "lowest rating", null=True, blank=True, help_text="The rating a player needs in the event's variant."
    )
    min_reliability = models.PositiveSmallIntegerField(
        "lowest reliability",
        null=True,
        blank=True,
        validators=[MaxValueValidator(100)],
        help_text="Percent of games in the last 90 days not lost on time (e.g. 90).",
    )
    approval_required = models.BooleanField(
        default=False, help_text="A player's entry waits for an organiser's approval (in the entrants' page)."
    )

    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-starts_on", "name"]
        # One name everywhere: an event (a league, a knockout or a duplicate), as the site says.
        verbose_name = "event"

    def get_absolute_url(self):
        return reverse("tournaments:detail", args=[self.slug])

    @property
    def noun(self):
        """What the event is called, one name for each kind everywhere: "league", "knockout", "duplicate",
        "club night"."""
        return self.kind.replace("_", " ")

    @property
    def values(self):
        return PRESETS[self.scoring]

    def ended_by(self, now=None):
        """Whether the season is over at `now` (default: now): its last day, `ends_on`, is past.
        Then no new round opens; the games under way are played out and count."""
        return self.ends_on is not None and timezone.localdate(now) > self.ends_on

    @property
    def season_ended(self):
        return self.ended_by()


class Entrant(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_entries")
    # Fixed when the event starts: by rating, else by entry order.
    seed = models.PositiveSmallIntegerField(null=True, blank=True)
    entered_at = models.DateTimeField(default=timezone.now)
    # False while an entry waits for the organiser (Tournament.approval_required).
    approved = models.BooleanField(default=True)

    class Meta:
        ordering = ["tournament", "seed", "entered_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["tournament", "player"], name="one_entry_per_tournament")]

    def __str__(self):
        return str(self.player)


class Round(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        OPEN = "open", "Being played"
        COMPLETE = "complete", "Complete"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.SCHEDULED)
    opened_at = models.DateTimeField(null=True, blank=True)
    completed_at = models.DateTimeField(null=True, blank=True)
    # Duplicate: every game of the round deals from this seed. Secret: it tells every deck.
    deal_seed = models.CharField(max_length=64, blank=True, editable=False)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique")]

    def __str__(self):
        return f"{self.tournament}, round {self.number}"


class Pairing(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        PLAYING = "playing", "Being played"
        FINISHED = "finished", "Finished"
        BYE = "bye", "A bye"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pairings")
    table = models.PositiveSmallIntegerField(help_text="Its place in the round (in a bracket, from the top).")
    home = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="+")
    away = models.ForeignKey(Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.SCHEDULED)
    home_wins = models.PositiveSmallIntegerField(default=0)
    away_wins = models.PositiveSmallIntegerField(default=0)
    winner = models.ForeignKey(Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["round", "table"]
        constraints = [models.UniqueConstraint(fields=["round", "table"], name="pairing_table_unique")]

    def __str__(self):
        return f"{self.home} v {self.away}" if self.away_id else f"{self.home} (bye)"


class PairingGame(models.Model):
    """One game of a pairing, and (once finished) its result."""

    Kind = ResultKind

    pairing = models.ForeignKey(Pairing, on_delete=models.CASCADE, related_name="games")
    game = models.OneToOneField("games.Game", on_delete=models.PROTECT, related_name="tournament_game")
    number = models.PositiveSmallIntegerField()
    # Which seat the pairing's home entrant holds in this game.
    home_seat = models.PositiveSmallIntegerField(default=0)
    counted = models.BooleanField(default=False)
    winner = models.ForeignKey(Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=16, choices=Kind.choices, blank=True)
    home_score = models.PositiveSmallIntegerField(default=0)
    away_score = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["pairing", "number"]
        constraints = [models.UniqueConstraint(fields=["pairing", "number"], name="pairing_game_number_unique")]

    def __str__(self):
        return f"{self.pairing}, game {self.number}"


class ClubNight(models.Model):
    """One night of an ACC club night season: each player present plays nine games at the club."""

    class Status(models.TextChoices):
        OPEN = "open", "Being played: games are entered"
        CLOSED = "closed", "Closed: its points counted"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="nights")
    number = models.PositiveSmallIntegerField()
    played_on = models.DateField("played on", default=timezone.localdate)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    opened_at = models.DateTimeField(default=timezone.now)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="club_night_number_unique")]

    def __str__(self):
        return f"{self.tournament}, night {self.number} ({self.played_on:%-d %b %Y})"


class NightGame(models.Model):
    """A game of a club night: entered by the organiser (counted at once), or reported by a player
    and counted when the opponent confirms. Once counted it is a finished Game played at the table."""

    Kind = ResultKind

    class Status(models.TextChoices):
        REPORTED = "reported", "Waiting for the opponent to confirm"
        DISPUTED = "disputed", "Disputed: the organiser decides"
        COUNTED = "counted", "Counted"

    night = models.ForeignKey(ClubNight, on_delete=models.CASCADE, related_name="games")
    first = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="+")
    second = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="+")
    first_score = models.PositiveSmallIntegerField()
    second_score = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.REPORTED)
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    game = models.OneToOneField(
        "games.Game", null=True, blank=True, on_delete=models.PROTECT, related_name="club_night_game"
    )
    winner = models.ForeignKey(Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=16, choices=Kind.choices, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["night", "created_at", "pk"]

    def __str__(self):
        return f"{self.first} {self.first_score}, {self.second} {self.second_score}"


class Award(models.Model):
    """What the ACC's clubs award a player for a night: a 28 or 29 hand (the organiser records it),
    a Grand Slam (all nine games won: recorded when the night closes). Shown on the player's page."""

    class Kind(models.TextChoices):
        HAND_28 = "hand_28", "A 28 hand"
        HAND_29 = "hand_29", "A 29 hand"
        GRAND_SLAM = "grand_slam", "A Grand Slam: all nine games of a night won"

    night = models.ForeignKey(ClubNight, on_delete=models.CASCADE, related_name="awards")
    entrant = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="awards")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["night", "recorded_at", "pk"]

    def __str__(self):
        return f"{self.get_kind_display()}: {self.entrant}, {self.night}"
