"""Scoring with reasons: the show (hands and crib) and the play (pegging).

Every score is a `Score(total, items)`; each `ScoreItem(kind, cards, points)`
names one combination. Item kinds:

    show:  "fifteen", "pair", "pair_royal", "double_pair_royal", "run",
           "flush", "nobs"
    play:  "fifteen", "thirty_one", "pair", "pair_royal",
           "double_pair_royal", "run", "go", "last_card"
    deal:  "heels" (starter jack, 2 to the dealer; never part of a hand)
    game:  "pone_start" (five-card cribbage: 3 to the non-dealer at the start)

Pairs are reported as one item per set of equal ranks (a pair royal is one
item of 6), runs as one item per distinct run (a double run of three is two
run items plus a pair item), fifteens as one item per combination.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import itemgetter
from typing import NamedTuple

from .cards import Card

__all__ = [
    "ScoreItem",
    "Score",
    "KINDS",
    "score_hand",
    "hand_points",
    "score_pegging",
    "score_last_card",
    "describe",
    "number_words",
]

KINDS = (
    "fifteen",
    "pair",
    "pair_royal",
    "double_pair_royal",
    "run",
    "flush",
    "nobs",
    "heels",
    "go",
    "thirty_one",
    "last_card",
    "pone_start",
)


class ScoreItem(NamedTuple):
    kind: str
    cards: tuple[Card, ...]
    points: int


class Score(NamedTuple):
    total: int
    items: tuple[ScoreItem, ...]

    def describe(self) -> str:
        return describe(self)


NO_SCORE = Score(0, ())

_SAME_RANK_KIND = {2: "pair", 3: "pair_royal", 4: "double_pair_royal"}
_SAME_RANK_POINTS = {1: 0, 2: 2, 3: 6, 4: 12}

_new_item = tuple.__new__  # C-level construction of ScoreItem on the hot path
_by_rank_then_suit = tuple  # sort key: plain (rank, suit) tuples compare in C


class _Template(NamedTuple):
    """Rank-only part of a show score (fifteens, pairs, runs) for sorted ranks."""

    total: int
    parts: tuple  # (kind, itemgetter of card positions, points)


# Fifteens, pairs and runs depend only on the ranks, so they are worked out
# once per sorted rank multiset (about 6,200 of them) and reused.
_TEMPLATES: dict[tuple[int, ...], _Template] = {}


def _template_parts(ranks: tuple[int, ...]) -> list[tuple[str, tuple[int, ...], int]]:
    n = len(ranks)
    parts = []
    for mask in range(1, 1 << n):
        idx = tuple(i for i in range(n) if mask >> i & 1)
        if len(idx) > 1 and sum(min(ranks[i], 10) for i in idx) == 15:
            parts.append(("fifteen", idx, 2))
    groups: dict[int, list[int]] = {}
    for i, r in enumerate(ranks):
        groups.setdefault(r, []).append(i)
    for same in groups.values():
        if len(same) > 1:
            parts.append((_SAME_RANK_KIND[len(same)], tuple(same), _SAME_RANK_POINTS[len(same)]))
    # Longest stretch of consecutive distinct ranks (at most one of 3+ in 5 cards).
    distinct = sorted(groups)
    best_start, best_len, start = 0, 1, 0
    for i in range(1, len(distinct)):
        if distinct[i] != distinct[i - 1] + 1:
            start = i
        elif i - start + 1 > best_len:
            best_start, best_len = start, i - start + 1
    if best_len >= 3:
        runs: list[tuple[int, ...]] = [()]
        for r in distinct[best_start : best_start + best_len]:
            runs = [run + (i,) for run in runs for i in groups[r]]
        parts += [("run", run, best_len) for run in runs]
    return parts


def _template(ranks: tuple[int, ...]) -> _Template:
    parts = _template_parts(ranks)
    template = _Template(
        sum(p for _, _, p in parts),
        tuple((kind, itemgetter(*idx), points) for kind, idx, points in parts),
    )
    _TEMPLATES[ranks] = template
    return template


def score_hand(hand: Sequence[Card], starter: Card, crib: bool = False) -> Score:
    """The show score of a hand (4 cards, or 3 in five-card cribbage) or crib with the starter.

    Flush: every hand card of one suit scores one a card, plus one if the
    starter matches; a crib scores a flush only when all cards and the starter
    match. Nobs: a jack in hand of the starter's suit. Heels is not included.
    Items list their cards sorted by rank then suit letter, whatever the input order.
    """
    cards = sorted((*hand, starter), key=_by_rank_then_suit)
    ranks = tuple([c[0] for c in cards])
    template = _TEMPLATES.get(ranks) or _template(ranks)
    items = [_new_item(ScoreItem, (kind, get(cards), points)) for kind, get, points in template.parts]
    total = template.total
    suit = starter[1]
    first_suit = hand[0][1]
    for c in hand:
        if c[1] != first_suit:
            break
    else:
        if first_suit == suit:
            items.append(_new_item(ScoreItem, ("flush", tuple(cards), len(cards))))
            total += len(cards)
        elif not crib:
            items.append(_new_item(ScoreItem, ("flush", tuple(sorted(hand, key=_by_rank_then_suit)), len(hand))))
            total += len(hand)
    for c in hand:
        if c[0] == 11 and c[1] == suit:
            items.append(_new_item(ScoreItem, ("nobs", (c,), 1)))
            total += 1
    return _new_item(Score, (total, tuple(items)))


def hand_points(hand: Sequence[Card], starter: Card, crib: bool = False) -> int:
    """Just the total of `score_hand`."""
    return score_hand(hand, starter, crib).total


def score_pegging(cards_in_count: Sequence[Card]) -> Score:
    """Points pegged by the last card of the current count (cards since the last reset).

    Fifteen 2, thirty-one 2, pairs 2/6/12 among the trailing same-rank cards,
    and the longest run of 3+ formed by the trailing cards in any order. The
    go / last-card point is not included (see `score_last_card`).
    """
    cards = tuple(cards_in_count)
    if not cards:
        return NO_SCORE
    items = []
    count = sum(10 if c[0] > 10 else c[0] for c in cards)
    if count == 15:
        items.append(ScoreItem("fifteen", cards, 2))
    elif count == 31:
        items.append(ScoreItem("thirty_one", cards, 2))
    last_rank = cards[-1][0]
    same = 1
    while same < len(cards) and cards[-1 - same][0] == last_rank:
        same += 1
    if same > 1:
        items.append(ScoreItem(_SAME_RANK_KIND[same], cards[-same:], _SAME_RANK_POINTS[same]))
    else:
        # A run needs distinct ranks, so only look when the last card is not paired.
        for length in range(len(cards), 2, -1):
            tail = cards[-length:]
            ranks = {c[0] for c in tail}
            if len(ranks) == length and max(ranks) - min(ranks) == length - 1:
                items.append(ScoreItem("run", tail, length))
                break
    return Score(sum(i.points for i in items), tuple(items))


def score_last_card(count: int, cards: Iterable[Card] = (), kind: str = "last_card") -> Score:
    """The point for the last card of a count (a go, or the last card of the play).

    One point, or nothing when the count is exactly 31 (the 31 already pegged 2).
    `kind` is "last_card" or "go"; `cards` names the card that earned it.
    """
    if count == 31:
        return NO_SCORE
    return Score(1, (ScoreItem(kind, tuple(cards), 1),))


# --- Counting aloud -------------------------------------------------------

_ONES = (
    "zero one two three four five six seven eight nine ten eleven twelve "
    "thirteen fourteen fifteen sixteen seventeen eighteen nineteen"
).split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def number_words(n: int) -> str:
    """English words for 0 <= n < 1000, e.g. 24 -> "twenty-four"."""
    if n < 20:
        return _ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + ("-" + _ONES[ones] if ones else "")
    hundreds, rest = divmod(n, 100)
    return _ONES[hundreds] + " hundred" + (" and " + number_words(rest) if rest else "")


def _phrase(item: ScoreItem, running: str) -> str:
    kind = item.kind
    if kind == "fifteen":
        return f"fifteen {running}"
    if kind == "thirty_one":
        return "thirty-one for two" if running == "two" else f"thirty-one for two is {running}"
    if kind == "run":
        return f"a run of {number_words(len(item.cards))} is {running}"
    names = {
        "pair": "a pair",
        "pair_royal": "a pair royal",
        "double_pair_royal": "a double pair royal",
        "flush": f"a {number_words(item.points)}-card flush",
        "nobs": "one for his nob",
        "heels": "two for his heels",
        "go": "one for the go",
        "last_card": "one for last card",
        "pone_start": "three for last",
    }
    return f"{names.get(kind, kind)} is {running}"


def describe(score: Score) -> str:
    """The score as a player counts it aloud, e.g. "fifteen two, fifteen four, and a pair is six".

    A score of nothing is "nineteen" (the traditional name for a zero hand).
    """
    if not score.items:
        return "nineteen"
    running = 0
    phrases = []
    for item in score.items:
        running += item.points
        phrases.append(_phrase(item, number_words(running)))
    if len(phrases) == 1:
        return phrases[0]
    return ", ".join(phrases[:-1]) + ", and " + phrases[-1]
