"""Who plays whom: the round-robin schedule and the knockout bracket. Pure, over plain values.

Entrants are any hashable ids, in seed order (the first is the top seed).
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Pair:
    """One table of a round: `home` sits in seat 0; `away` None is a bye for `home`."""

    home: object
    away: object | None

    @property
    def is_bye(self):
        return self.away is None


def round_robin(entrants, legs=1):
    """The rounds of a round robin by the circle method: everyone meets everyone once per leg.

    An odd number gets a bye each round (one entrant sits out, in turn). The first entrant
    stays put while the others turn round it; seat 0 goes to whichever of the two has had it
    less, and the second leg repeats the first with the seats swapped.
    """
    players = list(entrants)
    if len(set(players)) != len(players):
        raise ValueError("An entrant is listed twice.")
    if len(players) < 2:
        return []
    if len(players) % 2:
        players.append(None)
    n = len(players)
    first, homes = [], dict.fromkeys(players, 0)
    for r in range(n - 1):
        table = []
        for i in range(n // 2):
            a, b = players[i], players[n - 1 - i]
            if a is None or b is None:
                table.append(Pair(b if a is None else a, None))
                continue
            # Seat 0 to whoever has had it less; level, it alternates by round.
            if homes[b] < homes[a] or (homes[a] == homes[b] and r % 2):
                a, b = b, a
            homes[a] += 1
            table.append(Pair(a, b))
        # Byes last, so table numbers count the games played.
        first.append(sorted(table, key=lambda p: p.is_bye))
        players = [players[0], players[-1], *players[1:-1]]
    rounds = list(first)
    for leg in range(1, legs):
        rounds += [[p if p.is_bye else Pair(p.away, p.home) for p in rnd] if leg % 2 else list(rnd) for rnd in first]
    return rounds


def bracket_size(count):
    """The smallest power of two holding `count` entrants."""
    size = 1
    while size < count:
        size *= 2
    return size


def seed_positions(size):
    """The seeds in bracket order for a bracket of `size` (a power of two): 1 v size, and the
    top two seeds can meet only in the final (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, ...)."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, total - s)]
    return order


def first_round(entrants):
    """The first round of a knockout for `entrants` in seed order: a Pair per table, in
    bracket order; the missing seeds of a bracket that is not full are byes for the top seeds."""
    players = list(entrants)
    if len(set(players)) != len(players):
        raise ValueError("An entrant is listed twice.")
    if len(players) < 2:
        raise ValueError("A knockout needs at least two entrants.")
    size = bracket_size(len(players))
    slots = [players[s - 1] if s <= len(players) else None for s in seed_positions(size)]
    return [Pair(slots[i], slots[i + 1]) for i in range(0, size, 2)]


def next_round(winners):
    """The next round from the winners of the last one, table by table in bracket order."""
    if len(winners) < 2 or len(winners) % 2:
        raise ValueError("A round needs an even number of winners.")
    return [Pair(winners[i], winners[i + 1]) for i in range(0, len(winners), 2)]


def round_count(count):
    """Rounds a knockout of `count` entrants takes."""
    size, rounds = bracket_size(count), 0
    while size > 1:
        size //= 2
        rounds += 1
    return rounds


def round_name(number, total):
    """The round's name in a knockout of `total` rounds."""
    left = total - number
    return {0: "Final", 1: "Semi-finals", 2: "Quarter-finals"}.get(left, f"Round {number}")


def wins_needed(best_of):
    return best_of // 2 + 1
