"""The coach: what a player's discards and plays cost them, judged on what they could see.

Pure functions over cards and view-style data (no Django):

* ``judge_discard(dealt_cards, discard, is_dealer, players=2)``: the choice
  against the best by exact expected show points (``analysis.discard_options``);
* ``pegging_lapses(...)``: plays of a hand that gave away points the player
  could have seen (a count left at 5 or 21, a card inviting a pair, run or
  fifteen, points left on the table) with the safer card;
* ``game_review(hands)``: expected points lost in discards and pegging over a
  game, from one ``HandRecord`` per hand (``luck`` builds the luck and skill
  of a game on these).

Every judgment uses only the seat's own cards and what was played in the open:
the same knowledge the computer player has (``players.evaluate_plays``).

Verdicts by the expected points lost (``verdict``): under ``GOOD_BELOW`` (0.25)
"good", under ``MISTAKE_FROM`` (1.0) "inaccuracy", else "mistake". A play is a
lapse when its expected cost is at least ``LAPSE_FROM`` (0.5 points).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from ..cards import Card, card_from_code
from ..strategy.analysis import discard_options
from ..strategy.players import Table, evaluate_plays, peg_points, table_from_plays

__all__ = [
    "GOOD_BELOW",
    "MISTAKE_FROM",
    "LAPSE_FROM",
    "verdict",
    "DiscardJudgment",
    "judge_discard",
    "PlayJudgment",
    "judge_plays",
    "play_reasons",
    "pegging_lapses",
    "HandRecord",
    "HandReview",
    "GameReview",
    "game_review",
    "review_hand",
    "COSTLY_FROM",
]

GOOD_BELOW = 0.25
MISTAKE_FROM = 1.0
LAPSE_FROM = 0.5
COSTLY_FROM = 0.01  # a play that cost at least this (in expected points) is listed in the review

_RANK_NAMES = {1: "ace", 11: "jack", 12: "queen", 13: "king"}


def verdict(loss: float) -> str:
    """ "good", "inaccuracy" or "mistake" for an expected loss in points."""
    if loss < GOOD_BELOW:
        return "good"
    if loss < MISTAKE_FROM:
        return "inaccuracy"
    return "mistake"


# --- Discards -------------------------------------------------------------------


@dataclass(frozen=True)
class DiscardJudgment:
    discard: tuple[Card, ...]
    keep: tuple[Card, ...]
    hand_ev: Fraction
    crib_ev: Fraction  # signed: + your (side's) crib, - the opponent's
    ev: Fraction  # hand_ev + crib_ev
    best_discard: tuple[Card, ...]
    best_keep: tuple[Card, ...]
    best_hand_ev: Fraction
    best_crib_ev: Fraction
    best_ev: Fraction
    loss: Fraction  # best_ev - ev, >= 0
    rank: int  # 1 = the best of the choices
    choices: int
    verdict: str


def judge_discard(
    dealt_cards: Sequence[Card], discard: Iterable[Card], is_dealer: bool, players: int = 2
) -> DiscardJudgment:
    """The player's discard against the best one, by exact expected hand plus (minus) crib."""
    discard = set(discard)
    if not discard or not discard <= set(dealt_cards):
        raise ValueError("The discard must be cards of the dealt hand")
    options = discard_options(tuple(sorted(dealt_cards)), is_dealer, players=players)  # deck order
    for rank, mine in enumerate(options, start=1):  # noqa: B007 (rank is the answer, read after the loop)
        if set(mine.discard) == discard:
            break
    else:
        raise ValueError(f"Not a discard of {len(options[0].discard)} cards from this hand")
    best = options[0]
    loss = best.total_ev - mine.total_ev
    return DiscardJudgment(
        mine.discard,
        mine.keep,
        mine.hand_ev,
        mine.crib_ev,
        mine.total_ev,
        best.discard,
        best.keep,
        best.hand_ev,
        best.crib_ev,
        best.total_ev,
        loss,
        rank,
        len(options),
        verdict(float(loss)),
    )


# --- Pegging --------------------------------------------------------------------


@dataclass(frozen=True)
class PlayJudgment:
    """One play of the seat: its expected net points against the best card's."""

    index: int  # position in the hand's plays
    card: Card
    count_before: int
    value: float  # expected net points of the card played
    best: Card
    best_value: float
    loss: float
    safer: Card | None  # the card to have played instead (None: it was the best)
    reasons: tuple[str, ...]  # what the card gave away, in words


def _rank_name(rank: int) -> str:
    return _RANK_NAMES.get(rank, str(rank))


def _exposure(table: Table, card: Card) -> dict[int, int]:
    """Ranks the next player may hold that score after `card`, with their points."""
    ranks = tuple(c.rank for c in table.count_cards) + (card.rank,)
    count = sum(c.value for c in table.count_cards) + card.value
    if count == 31:
        return {}
    unseen = {c.rank for c in table.unseen}
    return {
        r: peg_points(ranks + (r,)) for r in sorted(unseen) if count + min(r, 10) <= 31 and peg_points(ranks + (r,)) > 0
    }


def play_reasons(table: Table, card: Card, best: Card) -> tuple[str, ...]:
    ranks = tuple(c.rank for c in table.count_cards)
    count = sum(c.value for c in table.count_cards)
    reasons = []
    now, best_now = peg_points(ranks + (card.rank,)), peg_points(ranks + (best.rank,))
    if best_now > now:
        reasons.append(f"{best.label} pegged {best_now} at once" + (f" ({now} for {card.label})" if now else ""))
    after = count + card.value
    if after in (5, 21):
        reasons.append(f"left the count at {after}: any ten-card makes {after + 10} for two")
    exposed = _exposure(table, card)
    pairs = [r for r in exposed if r == card.rank]
    if pairs:
        reasons.append(f"invited a pair ({_rank_name(card.rank)}s: {exposed[card.rank]} for them)")
    others = [r for r in exposed if r != card.rank and not (after in (5, 21) and min(r, 10) == 10)]
    if others and not pairs:
        shown = ", ".join(f"{_rank_name(r)} {exposed[r]}" for r in others[:4])
        reasons.append(f"left replies that score ({shown})")
    safe_exposed = _exposure(table, best)
    if sum(exposed.values()) > sum(safe_exposed.values()):
        reasons.append(f"{best.label} left them less to score")
    return tuple(reasons)


def judge_plays(
    *,
    seat: int,
    players: int,
    kept: Sequence[Card],
    known: Iterable[Card],
    plays: Sequence[dict],
    partnerships: bool = False,
    one_go: bool = False,
) -> list[PlayJudgment]:
    """Every play the seat made in a hand, each against its best card at that moment.

    ``kept``: the seat's kept cards; ``known``: cards it saw out of play (its
    discards and the starter); ``plays``: the hand's public plays as in a view
    (``{"seat", "card", "count", "round"}``).
    """
    known = tuple(known)
    out = []
    for i, p in enumerate(plays):
        if p["seat"] != seat or not p["card"]:
            continue
        table = table_from_plays(
            players=players,
            seat=seat,
            kept=kept,
            known=known,
            plays=plays[:i],
            round=p["round"],
            partnerships=partnerships,
            one_go=one_go,
        )
        card = card_from_code(p["card"])
        values = evaluate_plays(table)
        if card not in values:  # the record does not match the cards given
            raise ValueError(f"{card.code} was not playable for seat {seat} at play {i}")
        best = max(values, key=lambda c: (round(values[c], 9), -c.index))
        loss = max(0.0, values[best] - values[card])
        safer = best if loss > 1e-9 else None
        out.append(
            PlayJudgment(
                i,
                card,
                sum(c.value for c in table.count_cards),
                values[card],
                best,
                values[best],
                loss,
                safer,
                play_reasons(table, card, best) if safer else (),
            )
        )
    return out


def pegging_lapses(
    *,
    seat: int,
    players: int,
    kept: Sequence[Card],
    known: Iterable[Card],
    plays: Sequence[dict],
    partnerships: bool = False,
    one_go: bool = False,
    threshold: float = LAPSE_FROM,
) -> list[PlayJudgment]:
    """The seat's plays that cost at least ``threshold`` expected points (see ``judge_plays``)."""
    return [
        j
        for j in judge_plays(
            seat=seat, players=players, kept=kept, known=known, plays=plays, partnerships=partnerships, one_go=one_go
        )
        if j.loss >= threshold
    ]


# --- A whole game -------------------------------------------------------------------


@dataclass(frozen=True)
class HandRecord:
    """One hand as the seat saw it: everything ``game_review`` needs."""

    number: int
    seat: int
    players: int
    dealt: tuple[Card, ...]
    discard: tuple[Card, ...]
    is_dealer: bool  # the crib is the seat's (or its partner's)
    starter: Card | None  # None: the hand ended before the starter was turned
    plays: tuple[dict, ...] = ()  # public plays, view-style
    partnerships: bool = False
    one_go: bool = False
    shows: tuple[dict, ...] = ()  # the hand's public shows, view-style ({"seat", "what", "cards"})


@dataclass(frozen=True)
class HandReview:
    number: int
    discard: DiscardJudgment | None
    plays: tuple[PlayJudgment, ...]
    pegging_loss: float

    @property
    def lapses(self) -> tuple[PlayJudgment, ...]:
        return tuple(p for p in self.plays if p.loss >= LAPSE_FROM)

    @property
    def costly_plays(self) -> tuple[PlayJudgment, ...]:
        """Every play that cost points against the best card (the full review lists them all)."""
        return tuple(p for p in self.plays if p.loss >= COSTLY_FROM)


@dataclass(frozen=True)
class GameReview:
    hands: tuple[HandReview, ...]
    discard_loss: float
    pegging_loss: float
    discards: int
    plays: int
    verdicts: dict = field(default_factory=dict)  # verdict -> number of discards

    @property
    def total_loss(self) -> float:
        return self.discard_loss + self.pegging_loss


def review_hand(hand: HandRecord) -> HandReview:
    discard = None
    if hand.discard:
        discard = judge_discard(hand.dealt, hand.discard, hand.is_dealer, hand.players)
    plays: list[PlayJudgment] = []
    if hand.discard and hand.starter is not None and hand.plays:
        kept = tuple(c for c in hand.dealt if c not in hand.discard)
        plays = judge_plays(
            seat=hand.seat,
            players=hand.players,
            kept=kept,
            known=(*hand.discard, hand.starter),
            plays=hand.plays,
            partnerships=hand.partnerships,
            one_go=hand.one_go,
        )
    return HandReview(hand.number, discard, tuple(plays), sum(p.loss for p in plays))


def game_review(hands: Iterable[HandRecord]) -> GameReview:
    """Expected points the seat lost in its discards and its plays over a game."""
    reviews = tuple(review_hand(h) for h in hands)
    verdicts: dict[str, int] = {}
    for r in reviews:
        if r.discard:
            verdicts[r.discard.verdict] = verdicts.get(r.discard.verdict, 0) + 1
    return GameReview(
        reviews,
        float(sum(r.discard.loss for r in reviews if r.discard)),
        sum(r.pegging_loss for r in reviews),
        sum(1 for r in reviews if r.discard),
        sum(len(r.plays) for r in reviews),
        verdicts,
    )
