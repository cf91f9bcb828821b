"""Rating arithmetic, pure: prior skills and a finished game's sides and ranks in, new skills out.

One model for every table, openskill's Plackett-Luce (Weng and Lin's Bayesian
approximation): it rates two players, three players (a full finishing order)
and partnerships (teams of two, each partner moved by the team's result) with
the same formulas, so one library and one scale cover every variant. Glicko-2,
the two-player standard, has no three-player or team form; keeping it for two
players and something else for the rest would give two scales to explain.

A skill is a normal belief about a player's strength: `mu` (the best guess) and
`sigma` (how unsure it is; it shrinks with every game). Cribbage has a lot of
luck, so one game moves a settled rating little.

Shown to players (`shown`): the conservative estimate mu - 3 sigma (a player is
very probably at least this good), as DISPLAY_BASE + DISPLAY_SCALE x (mu - 3 sigma),
never below 0, with "±" DISPLAY_SCALE x sigma. A new player (mu 25, sigma 25/3)
shows 1000 ± 333; an average player who has played enough tends to 2000
(1000 + 40 x 25) with a small ±; a strong one goes higher.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

DISPLAY_BASE = 1000
DISPLAY_SCALE = 40

OVERALL = "overall"
FAMILIES = ("two", "three", "partnerships")
# The variant families: five-card cribbage is a two-player game.
FAMILY_OF_VARIANT = {"two": "two", "five_card": "two", "three": "three", "four": "partnerships"}

_MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float
    sigma: float


NEW = Skill(_MODEL.mu, _MODEL.sigma)


# A shown uncertainty above this (sigma above 3.75) says the rating is still settling.
SETTLED_UNCERTAINTY = 150


@dataclass(frozen=True, slots=True)
class Shown:
    """A rating as players read it: `value` ± `uncertainty`, after `games` rated games."""

    value: int
    uncertainty: int
    games: int = 0

    def __str__(self):
        return f"{self.value} ± {self.uncertainty}"

    @property
    def settling(self) -> bool:
        """Still wide: few games stand behind it (the pages say "still settling")."""
        return self.uncertainty > SETTLED_UNCERTAINTY

    @property
    def words(self) -> str:
        """The rating in plain words: "about 1500", "about 1040 (still settling after 3 games)"."""
        if not self.games:
            return f"about {self.value} (no rated game yet)"
        if self.settling:
            return f"about {self.value} (still settling after {self.games} game{'s' if self.games != 1 else ''})"
        return f"about {self.value}"


def family_of(variant: str) -> str:
    return FAMILY_OF_VARIANT[variant]


def shown(skill: Skill, games: int = 0) -> Shown:
    value = DISPLAY_BASE + DISPLAY_SCALE * (skill.mu - 3 * skill.sigma)
    return Shown(max(0, round(value)), round(DISPLAY_SCALE * skill.sigma), games)


def ranks_of(scores: Sequence[int], winner: int, last: int | None = None) -> list[int]:
    """Finishing places (1 first) of the sides of a finished game: the winner first, the others
    by their final scores (equal scores share a place); a side that resigned or forfeited (`last`)
    is behind every other loser."""

    def key(side):
        return (side != winner, side == last, -scores[side])

    order = sorted(range(len(scores)), key=key)
    ranks = [0] * len(scores)
    for place, side in enumerate(order):
        earlier = order[place - 1] if place else None
        same = earlier is not None and key(earlier) == key(side)
        ranks[side] = ranks[earlier] if same and earlier is not None else place + 1
    return ranks


def rate(sides: Sequence[Sequence[Skill]], ranks: Sequence[int]) -> list[list[Skill]]:
    """The skills after a game: `sides` lists each side's players' skills (one each, or two
    partners), `ranks` each side's finishing place (1 first)."""
    teams = [[_MODEL.rating(mu=s.mu, sigma=s.sigma) for s in side] for side in sides]
    rated = _MODEL.rate(teams, ranks=list(ranks))
    return [[Skill(r.mu, r.sigma) for r in team] for team in rated]


@dataclass(frozen=True, slots=True)
class Result:
    """A finished rated game as the ratings see it: its family, each side's players (ids, in seat
    order) and each side's finishing place."""

    family: str
    sides: tuple[tuple[int, ...], ...]
    ranks: tuple[int, ...]


def after(result: Result, priors: dict[tuple[int, str], Skill]) -> dict[tuple[int, str], Skill]:
    """The new skills, keyed (player, family), that `result` gives in its family and overall;
    `priors` holds the skills before it (a player missing from it is new)."""
    changed = {}
    for family in (OVERALL, result.family):
        sides = [[priors.get((player, family), NEW) for player in side] for side in result.sides]
        for players, skills in zip(result.sides, rate(sides, result.ranks), strict=True):
            for player, skill in zip(players, skills, strict=True):
                changed[(player, family)] = skill
    return changed
