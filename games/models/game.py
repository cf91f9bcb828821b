"""A game is an append-only log of events; its state is the engine's fold over it.

`Game.snapshot` holds that fold (written in the same transaction as the events)
so reading a game never replays its log; `verify_games` checks the two agree.
"""

from dataclasses import replace
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from games.game_settings import GameSettings
from games.models.settings_fields import ComputerLevel, GameSettingsFields, TimeoutPolicy


class Game(GameSettingsFields):
    class Assistance(models.TextChoices):
        """The engine's help to the players while the game is on, decided when it starts.

        After the game ends every player gets the full review, whatever was chosen.
        """

        ADVICE = "advice", "Help on: advice before each move and the coach after it (practice)"
        COACH = "coach", "Help on for every player: expected values and the coach"
        OFF = "off", "No help until the game ends: the players' choice"
        OFF_BY_RULE = "off_by_rule", "No help until the game ends: rated games never have it"

    class Status(models.TextChoices):
        ACTIVE = "active", "In play"
        FINISHED = "finished", "Finished"

    class Finish(models.TextChoices):
        TARGET = "target", "Reached the target"
        RESIGN = "resign", "Resigned"
        FORFEIT = "forfeit", "Forfeit"

    practice = models.BooleanField(default=False, help_text="Against the computer, with no turn emails.")
    # A game against the computer by email: the computer answers this long after the move it
    # answers (its follow-up is due then: games.follow_ups), 0 at once.
    computer_delay = models.DurationField(
        default=timedelta(0), help_text="How long the computer waits before its move (a game by email)."
    )
    # Counts for the players' ratings when it ends between people (ratings.counting): set by
    # ladders and tournaments for their games, and for a casual game both players made rated.
    rated = models.BooleanField(default=False, help_text="The result counts for the players' ratings.")
    # Played face to face and entered afterwards (games.table_results.record_table_result).
    played_at_table = models.BooleanField(default=False, help_text="Played at the table; the result was entered.")
    played_on = models.DateField(null=True, blank=True, help_text="The day a game at the table was played.")
    assistance = models.CharField(
        max_length=16,
        choices=Assistance.choices,
        default=Assistance.OFF,
        help_text="The engine's help while the game is on (see help_allowed_for).",
    )
    # The engine's Rules, frozen when the game starts, so a replay uses exactly them.
    rules = models.JSONField()
    # Set when the first dealer was chosen without a cut (e.g. the loser of a ladder game).
    first_dealer = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    # Number of the last event; the next one must be seq + 1.
    seq = models.PositiveIntegerField(default=0)
    # Number of the last event every seat sees (not a private one, see cribbage.PRIVATE_KINDS):
    # what a page or a link shows a reader, so that nobody can tell another seat made a plan.
    public_seq = models.PositiveIntegerField(default=0)
    snapshot = models.JSONField()
    # Result: the winning side (a seat, or a team for partnerships) and how.
    winner_side = models.PositiveSmallIntegerField(null=True, blank=True)
    finish = models.CharField(max_length=16, choices=Finish.choices, blank=True)
    skunk = models.CharField(max_length=16, blank=True, help_text='"", "skunk" or "double_skunk".')
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Duplicate events: every game with this seed is dealt the same decks, hand by hand
    # (games.services). Secret while any of them is on: it tells every deck to come.
    deal_seed = models.CharField(max_length=64, blank=True, editable=False)

    TimeoutPolicy = TimeoutPolicy
    vacation_cap_days = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Vacation days a player may use in this game: empty for no limit, 0 for none."
    )

    class Meta:
        ordering = ["-updated_at"]
        indexes = [models.Index(fields=["status", "-updated_at"])]

    def __str__(self):
        names = " v ".join(str(seat) for seat in self.seats.all())
        return f"Game {self.pk}: {names}"

    def get_absolute_url(self):
        return reverse("games:game", args=[self.pk])

    @property
    def is_finished(self):
        return self.status == self.Status.FINISHED

    @property
    def game_settings(self) -> GameSettings:
        return replace(super().game_settings, vacation_cap_days=self.vacation_cap_days)

    @property
    def kept_as(self):
        """What a shared cache keys this game by: its id and the moment it was made, since a
        database recreated or restored from a backup gives the id to another game while the
        cache still holds the first one's table."""
        return f"{self.pk}.{int(self.created_at.timestamp() * 1_000_000)}"

    def seen_seq(self, seat=None):
        """The number of the last event the reader at `seat` (a Seat, or None: a spectator) sees."""
        return max(self.public_seq, seat.private_seq) if seat is not None else self.public_seq

    @property
    def help_on(self):
        """Did the game start with the engine's help for its players?"""
        return self.assistance in (self.Assistance.ADVICE, self.Assistance.COACH)

    def help_allowed_for(self, seat):
        """May seat number `seat` see the engine's judgments now: expected values, the best
        throw, the coach's verdicts? Always once the game is over (the review); before, only
        when the game started with help. Spectators (None) never get help during play."""
        if self.is_finished:
            return True
        return seat is not None and self.help_on

    def cards_sealed(self):
        """Are this game's cards still being played at another table (a duplicate event's
        round)? Then nobody but its own players may see them, even once it is over."""
        if not self.deal_seed:
            return False
        others = Game.objects.filter(deal_seed=self.deal_seed, status=Game.Status.ACTIVE).exclude(pk=self.pk)
        return others.exists()

    def advice_allowed_for(self, seat):
        """May `seat` be shown the best moves before it moves (practice games only)?"""
        return not self.is_finished and seat is not None and self.assistance == self.Assistance.ADVICE


class Seat(models.Model):
    """A place at the table. Seat 0 sits left of the first dealer; partners are two apart."""

    # The fields a turn's start or end sets (games.services, and the clock's
    # receiver of games.signals.turns_changed); saved together.
    TURN_FIELDS = (
        "to_act",
        "deadline",
        "turn_started_at",
        "reminder_stage",
        "remind_at",
        "extra_seconds",
        "paused_until",
        "vacation_seconds",
        "timed_out_at",
    )

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    computer_level = models.CharField(max_length=16, choices=ComputerLevel.choices, blank=True)
    team = models.PositiveSmallIntegerField(default=0)
    # Number of this seat's own last private event (a plan): the seat sees it, nobody else does.
    private_seq = models.PositiveIntegerField(default=0)
    # Cached from the snapshot for cheap "your turn" queries and deadline sweeps.
    to_act = models.BooleanField(default=False)
    deadline = models.DateTimeField(null=True, blank=True)
    # The clock of the current turn (see clock/deadlines.py).
    turn_started_at = models.DateTimeField(null=True, blank=True)
    reminder_stage = models.PositiveSmallIntegerField(default=0, help_text="Reminders sent this turn.")
    remind_at = models.DateTimeField(null=True, blank=True, help_text="When the next reminder is due.")
    last_seen_at = models.DateTimeField(null=True, blank=True, help_text="The player last looked at the game.")
    extra_seconds = models.PositiveIntegerField(default=0, help_text="More time granted for the next turn.")
    paused_until = models.DateTimeField(null=True, blank=True, help_text="This turn's clock is paused (vacation).")
    vacation_seconds = models.PositiveIntegerField(default=0, help_text="Vacation used in this game.")
    bank_seconds = models.PositiveIntegerField(default=0, help_text="What is left of this seat's time bank.")
    timed_out_at = models.DateTimeField(
        null=True, blank=True, help_text="Ran out of time; the opponent may claim the game."
    )
    stand_in_moves = models.PositiveSmallIntegerField(
        default=0, help_text="Moves the computer made for this absent player since their own last move."
    )

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="seat_number_unique_per_game"),
            models.CheckConstraint(
                condition=Q(player__isnull=False) | ~Q(computer_level=""),
                name="seat_has_a_player_or_the_computer",
            ),
        ]
        indexes = [
            models.Index(fields=["player", "to_act"]),
            models.Index(fields=["deadline"], condition=Q(to_act=True), name="seat_open_deadline_idx"),
            models.Index(fields=["remind_at"], condition=Q(to_act=True), name="seat_open_remind_idx"),
        ]

    def __str__(self):
        if self.player_id:
            return str(self.player)
        return f"Computer ({self.get_computer_level_display().lower()})"

    @property
    def is_computer(self):
        return not self.player_id


# Events in a game's log that the rules engine never sees: they change clocks only
# (see clock/events.py). Everything that replays a log uses `engine_moves()`.
CLOCK_EVENT_KINDS = frozenset({"more_time", "time_out", "vacation_day", "vacation_start", "vacation_end", "time_bank"})


class AppendOnlyQuerySet(models.QuerySet):
    def engine_moves(self):
        """The events the rules engine folds, in order: a game's state is their replay."""
        return self.exclude(kind__in=CLOCK_EVENT_KINDS).order_by("game", "seq")

    def update(self, **kwargs):
        raise TypeError("Game events are append-only: record a new event instead.")

    def delete(self):
        raise TypeError("Game events are append-only: record a new event instead.")


class Event(models.Model):
    """One entry of a game's log. Never updated or deleted: a correction is a new event."""

    class Source(models.TextChoices):
        WEB = "web", "Game page"
        LINK = "link", "Email link"
        EMAIL = "email", "Email reply"
        ADMIN = "admin", "Admin"
        COMPUTER = "computer", "Computer player"
        FORCED = "forced", "Forced move played for the player"
        PLAN = "plan", "Played from the player's pegging plan"
        TIMEOUT = "timeout", "Clock"
        SYSTEM = "system", "Dealer (shuffle and cut)"

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=32)
    data = models.JSONField()
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    source = models.CharField(max_length=16, choices=Source.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # An email's Message-ID or a form's token: the same submission lands once.
    idempotency_key = models.CharField(max_length=255, null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        ordering = ["game", "seq"]
        # "Events" are the leagues, knockouts and duplicates: a row of a game's log is a log entry.
        verbose_name = "game log entry"
        verbose_name_plural = "game log entries"
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="event_seq_unique_per_game"),
            models.UniqueConstraint(
                fields=["game", "idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="event_idempotency_key_unique_per_game",
            ),
            models.CheckConstraint(condition=Q(seq__gte=1), name="event_seq_starts_at_one"),
        ]

    def __str__(self):
        return f"#{self.seq} {self.kind}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise TypeError("Game events are append-only: record a new event instead.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise TypeError("Game events are append-only: record a new event instead.")


# Moves the player made themselves (not the dealer, a forced play or the clock's stand-in).
PLAYER_SOURCES = (Event.Source.WEB, Event.Source.LINK, Event.Source.EMAIL)


class OverdueSeat(Seat):
    """Turns past their deadline, for the admin's "Overdue games" list (see clock/admin.py)."""

    class Meta:
        proxy = True
        verbose_name = "overdue game"
        verbose_name_plural = "overdue games"
