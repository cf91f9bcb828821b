"""Variant configuration: one `Rules` value describes a whole game variant.

Variants (see `rules_for`):
    "two"        two players, six cards each, two each to the crib, 121 (or 61)
    "three"      three players, five each, one each plus one from the deck to the crib
    "four"       four players in partnerships (seats 0 & 2 against 1 & 3), five each, one each
    "five_card"  the old two-player game: five each, two each, hands of three,
                 the non-dealer starts 3 up ("three for last"), one go only, 61

Skunk lines: in a 121 game the loser is skunked below 91 and double-skunked
below 61; in a 61 game the loser is skunked (lurched) below 31 and there is no
double skunk. Other targets: skunk below target - 30, double below target - 60
when that is still positive and the target is at least 121.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["Rules", "rules_for", "skunk_lines", "VARIANTS", "TARGETS", "FULL_GAME", "SHORT_GAME"]

VARIANTS = ("two", "three", "four", "five_card")
FULL_GAME = 121  # the standard game
SHORT_GAME = 61  # the short game, and five-card cribbage
TARGETS = (FULL_GAME, SHORT_GAME)  # the games played here (a board is drawn for each)


@dataclass(frozen=True, slots=True)
class Rules:
    variant: str = "two"
    players: int = 2
    partnerships: bool = False
    target: int = 121
    muggins: bool = False
    hand_size: int = 6
    discard_count: int = 2
    deck_to_crib: int = 0
    pone_start_bonus: int = 0
    one_go: bool = False
    skunk_line: int = 91
    double_skunk_line: int | None = 61
    resign_concedes_skunk: bool = True  # a resignation concedes the board as it stands (False: practice)

    def __post_init__(self):
        if self.players not in (2, 3, 4):
            raise ValueError(f"players must be 2, 3 or 4, not {self.players}")
        if self.partnerships and self.players != 4:
            raise ValueError("partnerships need four players")
        kept = self.hand_size - self.discard_count
        crib = self.crib_size
        if kept not in (3, 4) or crib != 4:
            raise ValueError(f"hands of {kept} and a crib of {crib} are not cribbage")
        if self.players * self.hand_size + self.deck_to_crib + 1 > 52:
            raise ValueError("not enough cards")

    @property
    def sides(self) -> int:
        """Number of score tracks: teams in partnerships, else players."""
        return 2 if self.partnerships else self.players

    @property
    def kept_size(self) -> int:
        return self.hand_size - self.discard_count

    @property
    def crib_size(self) -> int:
        return self.players * self.discard_count + self.deck_to_crib

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.partnerships else seat

    def seats_of(self, side: int) -> tuple[int, ...]:
        return tuple(s for s in range(self.players) if self.side_of(s) == side)

    def skunk(self, loser_score: int) -> str | None:
        """ "double_skunk", "skunk" or None for a losing score."""
        if self.double_skunk_line is not None and loser_score < self.double_skunk_line:
            return "double_skunk"
        if loser_score < self.skunk_line:
            return "skunk"
        return None

    def to_json(self) -> dict:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}

    @classmethod
    def from_json(cls, d: dict) -> Rules:
        return cls(**d)


def skunk_lines(target: int) -> tuple[int, int | None]:
    """(skunk line, double skunk line or None) of a game to `target`: a loser below it is skunked."""
    double = target - 60 if target >= 121 else None
    return target - 30, double


def rules_for(
    variant: str, target: int | None = None, muggins: bool = False, resign_concedes_skunk: bool = True
) -> Rules:
    """The `Rules` of a named variant; `target` defaults to 121 (61 for five_card)."""
    shapes: dict[str, dict[str, Any]] = {
        "two": dict(players=2, hand_size=6, discard_count=2),
        "three": dict(players=3, hand_size=5, discard_count=1, deck_to_crib=1),
        "four": dict(players=4, partnerships=True, hand_size=5, discard_count=1),
        "five_card": dict(players=2, hand_size=5, discard_count=2, pone_start_bonus=3, one_go=True),
    }
    if variant not in shapes:
        raise ValueError(f"Unknown variant {variant!r}; choose one of {', '.join(VARIANTS)}")
    if target is None:
        target = SHORT_GAME if variant == "five_card" else FULL_GAME
    if target < 31:
        raise ValueError(f"target {target} is too small")
    skunk, double = skunk_lines(target)
    return Rules(
        variant=variant,
        target=target,
        muggins=muggins,
        resign_concedes_skunk=resign_concedes_skunk,
        skunk_line=skunk,
        double_skunk_line=double,
        **shapes[variant],
    )
