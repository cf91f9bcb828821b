"""The settings a game is played under, as one frozen value.

A Game, the Challenge that makes one and every event whose games share them (a ladder, a
tournament) hold these settings in the fields of `games.models.GameSettingsFields`; their
`game_settings` is this value, and `games.lifecycle.start_game` takes it.
"""

from dataclasses import asdict, dataclass, fields


@dataclass(frozen=True)
class GameSettings:
    variant: str = "two"
    target: int | None = None  # None: the variant's own (121, or 61 for five-card)
    muggins: bool = False
    days_per_move: int = 3
    timeout_policy: str = "forfeit"
    pause_weekends: bool = False
    pause_nights: bool = False
    time_bank_days: int = 0
    # Vacation days a player may use in the game: None for no limit, 0 for none. An event
    # sets it from its own vacation rule; a challenge never limits it.
    vacation_cap_days: int | None = None

    def as_fields(self) -> dict:
        """The settings as the Game fields of the same names."""
        return asdict(self)

    def chosen(self) -> dict:
        """What a challenger chooses of them (a challenge never limits vacation), by name."""
        return {name: value for name, value in asdict(self).items() if name in CHOSEN}


NAMES = tuple(f.name for f in fields(GameSettings))
# What a challenger or an organiser chooses (the fields of GameSettingsFields), in their order.
CHOSEN = tuple(name for name in NAMES if name != "vacation_cap_days")
# The clock among them.
CLOCK = ("timeout_policy", "pause_weekends", "pause_nights", "time_bank_days")
