"""The settings of a game, declared once as fields: on a Game, on the Challenge that makes
one, and on an event whose games share them (a ladder, a tournament); their choices."""

from django.core.validators import MaxValueValidator
from django.db import models

from games.cribbage import FULL_GAME, TARGETS, rules_for
from games.game_settings import CHOSEN, GameSettings

MAX_TIME_BANK_DAYS = 10  # a game's time bank per player, at most


class Variant(models.TextChoices):
    TWO = "two", "Two players"
    THREE = "three", "Three players"
    FOUR = "four", "Four players in partnerships"
    FIVE_CARD = "five_card", "Five-card cribbage"


SEATS_BY_VARIANT = {variant: rules_for(variant).players for variant in Variant}
TARGET_CHOICES = [(target, str(target)) for target in TARGETS]


class TimeoutPolicy(models.TextChoices):
    FORFEIT = "forfeit", "The player who ran out of time forfeits the game"
    OPPONENT_CHOOSES = "opponent_chooses", "The opponent chooses: claim the game or wait"
    COMPUTER_STANDS_IN = "computer_stands_in", "The computer plays for the absent player"


class GameSettingsFields(models.Model):
    """The settings of a game (games.game_settings.GameSettings), declared once: on a Game, on the
    Challenge that makes one, and on every event whose games share them (a ladder, a tournament)."""

    variant = models.CharField(max_length=16, choices=Variant.choices, default=Variant.TWO)
    target = models.PositiveSmallIntegerField(default=FULL_GAME, choices=TARGET_CHOICES)
    muggins = models.BooleanField(default=False)
    days_per_move = models.PositiveSmallIntegerField(default=3)
    # The clock (see clock/deadlines.py and clock/timeouts.py).
    timeout_policy = models.CharField(
        max_length=24,
        choices=TimeoutPolicy.choices,
        default=TimeoutPolicy.FORFEIT,
        help_text="What a timeout does in a game.",
    )
    pause_weekends = models.BooleanField(
        default=False, help_text="Clocks stop on Saturdays and Sundays, in each player's time zone."
    )
    pause_nights = models.BooleanField(default=False, help_text="Clocks stop during each player's night hours.")
    time_bank_days = models.PositiveSmallIntegerField(
        default=0,
        validators=[MaxValueValidator(MAX_TIME_BANK_DAYS)],
        help_text=f"A reserve of days per player and game, spent a day at a time before a timeout "
        f"(0 to {MAX_TIME_BANK_DAYS}).",
    )

    class Meta:
        abstract = True

    @property
    def game_settings(self) -> GameSettings:
        return GameSettings(**{name: getattr(self, name) for name in CHOSEN})


class EventVariant(models.TextChoices):
    # An event's games are one against one: the two-seat variants only.
    TWO = "two", "Two players, six cards"
    FIVE_CARD = "five_card", "Five-card cribbage"


class EventGameSettings(GameSettingsFields):
    """The game settings of an event (ladders, tournaments): every game of the event uses them."""

    variant = models.CharField(max_length=16, choices=EventVariant.choices, default=EventVariant.TWO)

    Variant = EventVariant
    Timeout = TimeoutPolicy

    class Meta:
        abstract = True


class ComputerLevel(models.TextChoices):
    EASY = "easy", "Easy"
    STANDARD = "standard", "Standard"
    EXPERT = "expert", "Expert"
