"""Discard analysis: every choice of crib cards with its exact expected hand and crib.

``discard_options(hand, is_dealer)`` lists every way to lay away cards (15 for
six cards, 10 for five-card cribbage, 5 for the one-card throw of three and
four players), best first, each a ``DiscardOption`` with exact ``Fraction``
expectations:

* ``hand_ev``: the kept cards' show score averaged over every starter among
  the unseen cards (each equally likely);
* ``crib_ev``: the crib's show score averaged over every starter and every set
  of other crib cards drawn from the unseen cards, added when the crib is yours
  (or your partner's) and subtracted when it is not;
* ``total_ev = hand_ev + crib_ev``.

The crib model: the crib is your thrown cards plus ``4 - thrown`` other cards,
every set of distinct unseen cards equally likely, and the starter one of the
remaining unseen cards. For two players that is exactly "every pair of cards
the opponent could throw". For three players (one card from the deck plus
one from each opponent) and four players (one from each of three others) it
treats the others' throws as random unseen cards, ignoring that they choose
them; the deck card of the three-hand game really is random. Pegging is not
counted.

Speed: nothing is scored card by card. The suitless part (fifteens, pairs,
runs) comes from ``stats.SUITLESS`` by rank multiset, weighted by how many
ways the unseen cards give each rank pattern; flush and nobs are counted in
closed form from the unseen suit counts. The same numbers as enumerating every
starter and throw with ``score_hand`` (the tests check that), about two
thousand times faster (1-3 ms for a whole deal; see bench/bench_analysis.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, combinations_with_replacement
from math import comb

from games.cribbage.cards import Card
from games.cribbage.strategy.stats import INDEX_WEIGHT, RANK_WEIGHT, SUITLESS

__all__ = ["DiscardOption", "discard_options", "best_discard", "hand_ev", "crib_ev", "throw_count"]

CRIB_SIZE = 4  # cards in the crib before the starter, in every variant


@dataclass(frozen=True)
class DiscardOption:
    """One choice of cards for the crib, with its exact expected show points."""

    discard: tuple[Card, ...]
    keep: tuple[Card, ...]
    hand_ev: Fraction
    crib_ev: Fraction  # signed: + for your own (or partner's) crib, - for an opponent's
    total_ev: Fraction


def throw_count(hand_size: int, players: int = 2) -> int:
    """Cards each player lays away: 2 of 6 (or of 5 in five-card) for two players, else 1 of 5."""
    if players == 2 and hand_size in (5, 6):
        return 2
    if players in (3, 4) and hand_size == 5:
        return 1
    raise ValueError(f"No deal gives {hand_size} cards to each of {players} players")


class _Unseen:
    """Counts of the unseen cards by rank and suit, and the rank patterns they can form."""

    def __init__(self, indexes: Sequence[int]):
        self.size = len(indexes)
        self.ranks = [0] * 14
        self.suits = [0] * 4
        for i in indexes:
            self.ranks[i // 4 + 1] += 1
            self.suits[i & 3] += 1
        self.jack_suits = [i & 3 for i in indexes if 40 <= i < 44]
        self._patterns: dict[int, dict[int, int]] = {}

    def patterns(self, others: int) -> dict[int, int]:
        """``{rank_code: ways}`` for ``others`` unseen crib cards (a set) plus a starter.

        Ways to draw a rank multiset M then a starter of rank z are
        ``prod C(u[r], M[r]) * (u[z] - M[z])``; patterns with the same combined
        ranks are merged, since only the combined rank multiset is scored.
        """
        table = self._patterns.get(others)
        if table is None:
            u = self.ranks
            avail = [r for r in range(1, 14) if u[r]]
            table = {}
            for ms in combinations_with_replacement(avail, others):
                ways = 1
                code = 0
                for r in set(ms):
                    ways *= comb(u[r], ms.count(r))
                    code += RANK_WEIGHT[r] * ms.count(r)
                if not ways:
                    continue
                for z in avail:
                    left = u[z] - ms.count(z)
                    if left > 0:
                        key = code + RANK_WEIGHT[z]
                        table[key] = table.get(key, 0) + ways * left
            self._patterns[others] = table
        return table


def _crib_points(discard: Sequence[int], unseen: _Unseen, others: int, memo: dict) -> int:
    """Total crib score over every set of ``others`` unseen cards and every starter left."""
    n = unseen.size
    code = 0
    for i in discard:
        code += INDEX_WEIGHT[i]
    points = memo.get(code)
    if points is None:
        table = SUITLESS
        points = sum(ways * table[code + key] for key, ways in unseen.patterns(others).items())
        memo[code] = points
    suit = discard[0] & 3
    if all(i & 3 == suit for i in discard):  # all five of one suit
        s = unseen.suits[suit]
        points += (CRIB_SIZE + 1) * comb(s, others) * max(s - others, 0)
    for i in discard:  # our jack: any starter of its suit, any others
        if 40 <= i < 44:
            points += unseen.suits[i & 3] * comb(n - 1, others)
    if others:
        for suit in unseen.jack_suits:  # their jack: it is thrown, a starter of its suit
            points += (unseen.suits[suit] - 1) * comb(n - 2, others - 1)
    return points


def _hand_points(keep: Sequence[int], unseen: _Unseen, memo: dict) -> int:
    """Total show score of the kept cards over every unseen starter."""
    code = 0
    for i in keep:
        code += INDEX_WEIGHT[i]
    points = memo.get(code)
    if points is None:
        u = unseen.ranks
        points = sum(u[z] * SUITLESS[code + RANK_WEIGHT[z]] for z in range(1, 14) if u[z])
        memo[code] = points
    suit = keep[0] & 3
    if all(i & 3 == suit for i in keep):  # one a card, plus one with a starter of the suit
        points += len(keep) * unseen.size + unseen.suits[suit]
    for i in keep:
        if 40 <= i < 44:  # nobs: a starter of the jack's suit
            points += unseen.suits[i & 3]
    return points


def _unseen_indexes(known: Iterable[Card], unseen: Iterable[Card] | None) -> list[int]:
    known_idx = {c.index for c in known}
    if unseen is None:
        return [i for i in range(52) if i not in known_idx]
    idx = sorted({c.index for c in unseen})
    if known_idx.intersection(idx):
        raise ValueError("The unseen cards overlap the known cards")
    return idx


def hand_ev(keep: Sequence[Card], unseen: Iterable[Card] | None = None) -> Fraction:
    """Expected show score of the kept cards over every unseen starter (default: rest of the deck)."""
    idx = _unseen_indexes(keep, unseen)
    if not idx:
        raise ValueError("No unseen card for the starter")
    return Fraction(_hand_points([c.index for c in keep], _Unseen(idx), {}), len(idx))


def crib_ev(discard: Sequence[Card], unseen: Iterable[Card] | None = None) -> Fraction:
    """Expected crib score (unsigned) for these thrown cards.

    The crib's other ``4 - len(discard)`` cards are any distinct unseen cards
    and the starter any other unseen card, all equally likely. ``unseen``
    defaults to the deck minus ``discard``; pass it to exclude the cards you
    kept or any others you know about.
    """
    others = CRIB_SIZE - len(discard)
    idx = _unseen_indexes(discard, unseen)
    if not 1 <= len(discard) <= CRIB_SIZE or len(idx) <= others:
        raise ValueError("Need 1 to 4 thrown cards and more unseen cards than crib places")
    combos = comb(len(idx), others) * (len(idx) - others)
    return Fraction(_crib_points([c.index for c in discard], _Unseen(idx), others, {}), combos)


def discard_options(
    hand: Sequence[Card],
    is_dealer: bool,
    *,
    players: int = 2,
    unseen: Iterable[Card] | None = None,
) -> list[DiscardOption]:
    """Every choice of crib cards from a dealt hand, best ``total_ev`` first.

    ``hand``: 6 cards (two players), 5 with ``players=2`` (five-card cribbage:
    throw 2, keep 3), or 5 with ``players=3`` or ``4`` (throw 1, keep 4).
    ``is_dealer``: the crib is yours, or your partner's in the four-hand game
    (its value is added), else it is subtracted. ``unseen``: the cards you
    cannot see (default: the deck minus ``hand``). Ties keep a stable order:
    higher hand_ev first, then deck order of the discard.
    """
    hand = tuple(hand)
    if len(set(hand)) != len(hand):
        raise ValueError("The hand has a card twice")
    throw = throw_count(len(hand), players)
    others = CRIB_SIZE - throw
    idx = _unseen_indexes(hand, unseen)
    if len(idx) <= others:
        raise ValueError("Not enough unseen cards for the crib and the starter")
    seen = _Unseen(idx)
    n = len(idx)
    combos = comb(n, others) * (n - others)
    sign = 1 if is_dealer else -1
    hand_memo: dict = {}
    crib_memo: dict = {}
    options = []
    for positions in combinations(range(len(hand)), throw):
        discard = tuple(hand[p] for p in positions)
        keep = tuple(c for p, c in enumerate(hand) if p not in positions)
        h = Fraction(_hand_points([c.index for c in keep], seen, hand_memo), n)
        k = sign * Fraction(_crib_points([c.index for c in discard], seen, others, crib_memo), combos)
        options.append(DiscardOption(discard, keep, h, k, h + k))
    options.sort(key=lambda o: (-o.total_ev, -o.hand_ev, [c.index for c in o.discard]))
    return options


def best_discard(hand: Sequence[Card], is_dealer: bool, **kwargs) -> DiscardOption:
    """The first of ``discard_options``: the highest expected hand plus (or minus) crib."""
    return discard_options(hand, is_dealer, **kwargs)[0]
