"""The games app's models, a module a concept; Django reads them from here.

- `settings_fields`: a game's settings as fields (Game, Challenge, a ladder, a tournament), their choices;
- `game`: the log (Game, Seat, Event, append-only) and the overdue seats of the admin;
- `challenges`: offers to play (Challenge, ChallengePlace);
- `table`: beside the game (Note, TableMessage, Mute);
- `follow_ups`: after-commit work owed (FollowUp);
- `reviews`: a finished game's review, per seat (GameReview).
"""

from games.models.challenges import Challenge, ChallengePlace
from games.models.follow_ups import FollowUp
from games.models.game import CLOCK_EVENT_KINDS, PLAYER_SOURCES, AppendOnlyQuerySet, Event, Game, OverdueSeat, Seat
from games.models.reviews import GameReview
from games.models.settings_fields import (
    MAX_TIME_BANK_DAYS,
    SEATS_BY_VARIANT,
    TARGET_CHOICES,
    ComputerLevel,
    EventGameSettings,
    EventVariant,
    GameSettingsFields,
    TimeoutPolicy,
    Variant,
)
from games.models.table import Mute, Note, TableMessage

__all__ = [
    "MAX_TIME_BANK_DAYS",
    "Variant",
    "SEATS_BY_VARIANT",
    "TARGET_CHOICES",
    "TimeoutPolicy",
    "GameSettingsFields",
    "EventVariant",
    "EventGameSettings",
    "ComputerLevel",
    "Game",
    "Seat",
    "CLOCK_EVENT_KINDS",
    "AppendOnlyQuerySet",
    "Event",
    "PLAYER_SOURCES",
    "OverdueSeat",
    "Challenge",
    "ChallengePlace",
    "Note",
    "TableMessage",
    "Mute",
    "FollowUp",
    "GameReview",
]
