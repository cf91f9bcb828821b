"""Decisions by win chance near the end of a two-player game.

Where either side can reach the target this deal (``in_reach``), the expert
stops counting points and counts chances (``win_chance``): a discard is
judged by the chance to win over every starter, the play's points drawn from
self-play and the shows after it (``discard_chances``); a card in the play by
the exact play-out of every sampled opponent hand, the game ending the moment
a side reaches the target and the rest judged by ``win_chance.after_play``
(``play_chances``). So it plays defence when ahead, pegs out before the
dealer counts, and keeps the cards that reach the target.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple, TypeGuard

from ..cards import FULL_DECK, Card, card_from_code
from ..scoring import score_hand
from ..table_view import SeatView
from .analysis import DiscardOption
from .crib_model import crib_value
from .knowledge import Table
from .peg_search import search_win
from .stats import fast_score
from .win_chance import after_play, after_show, has_table, pegging_chances, show_chances

__all__ = [
    "REACH",
    "Board",
    "board_from_view",
    "in_reach",
    "discard_chances",
    "play_chances",
    "kept_and_starter",
    "crib_shift",
]

#: A side this close to the target may get there in one deal (a dealer's good deal is ~30).
REACH = 31
PEGGING_OUTCOMES = 30  # most likely (pone, dealer) play totals used for a discard's chance


class Board(NamedTuple):
    """The score as one seat sees it."""

    mine: int
    theirs: int
    i_deal: bool
    variant: str
    target: int


def board_from_view(v: SeatView, seat: int) -> Board | None:
    """The board for a two-player game with a win-chance table, else None."""
    rules = v.game_rules
    if not has_table(rules.variant, rules.target, rules.players):
        return None
    return Board(v.scores[seat], v.scores[1 - seat], v.dealer == seat, rules.variant, rules.target)


def in_reach(board: Board | None) -> TypeGuard[Board]:
    """Whether this deal may decide the game."""
    return board is not None and board.target - max(board.mine, board.theirs) <= REACH


def _mean(dist: dict) -> float:
    return sum(int(k) * w for k, w in dist.items())


def discard_chances(
    options: Sequence[DiscardOption], hand: Sequence[Card], board: Board, pegging_values: Sequence[float] = ()
) -> list[float]:
    """My chance to win after each discard (in the order given). ``pegging_values``: the kept
    cards' expected net pegging for each option (``peg_table``), which moves the play's points
    (to me when it is for me, to them when against); none: the self-play average for all."""
    pegging = pegging_chances(board.variant, board.target)[:PEGGING_OUTCOMES]
    mass = sum(w for *_, w in pegging)
    mean_crib = _mean(show_chances(board.variant, board.target)["crib"])
    unseen = [c.index for c in FULL_DECK if c not in hand]
    # The chance over the play's outcomes for one (crib shift, pegging shift, my hand's show)
    # is the same for every option that shares them: each is summed once.
    over_play: dict[tuple[int, int, int], float] = {}
    outcomes: dict[int, tuple[float, list[tuple[int, int, float]]]] = {}
    out = []
    for i, o in enumerate(options):
        keep = [c.index for c in o.keep]
        hands: dict[int, int] = {}
        for z in unseen:
            s = fast_score(keep, z)
            hands[s] = hands.get(s, 0) + 1
        # The crib's expectation with these cards in it, and the play's, against the averages:
        # whole points for the tables, the fractions by interpolating between two of them.
        crib_moves = _between(abs(float(o.crib_ev)) - mean_crib)
        peg_moves = _between(pegging_values[i] if pegging_values else 0.0)
        chance = 0.0
        for shift, w_crib in crib_moves:
            for peg, w_peg in peg_moves:
                if peg not in outcomes:
                    outcomes[peg] = _scores_after_play(board, pegging, peg)
                sure, scores = outcomes[peg]
                for s, n in hands.items():
                    key = (shift, peg, s)
                    v = over_play.get(key)
                    if v is None:
                        v = sure
                        for mine, theirs, w in scores:
                            v += w * after_show(mine + s, theirs, board.i_deal, board.variant, board.target, shift)
                        over_play[key] = v
                    chance += w_crib * w_peg * n * v
        out.append(min(1.0, chance / (len(unseen) * mass)))  # rounding may pass 1 by a hair
    return out


def _scores_after_play(
    board: Board, pegging: Sequence[tuple[int, int, float]], peg: int
) -> tuple[float, list[tuple[int, int, float]]]:
    """The play's outcomes, its points moved by ``peg`` (to me if positive, to them if not): the
    weight of those where I reach the target, and the scores and weight of those where neither
    side does (where they do, I lose)."""
    sure = 0.0
    scores = []
    for pone, dealer, w in pegging:
        mine, theirs = (dealer, pone) if board.i_deal else (pone, dealer)
        mine, theirs = board.mine + mine + max(peg, 0), board.theirs + theirs - min(peg, 0)
        if mine >= board.target:
            sure += w
        elif theirs < board.target:
            scores.append((mine, theirs, w))
    return sure, scores


def _between(x: float) -> list[tuple[int, float]]:
    """Whole numbers around ``x`` with weights that average to it: the nearest alone when
    within a quarter point (half the work for an error of at most a quarter)."""
    low = math.floor(x)
    frac = x - low
    if frac < 0.25 or frac > 0.75:
        return [(round(x), 1.0)]
    return [(low, 1 - frac), (low + 1, frac)]


def play_chances(
    table: Table, board: Board, kept: Sequence[Card], starter: Card | None, crib_shift: int = 0
) -> dict[Card, float]:
    """My chance to win after each playable card (see ``peg_search.search_win``)."""
    my_hand = score_hand(tuple(kept), starter).total if starter is not None else 0
    i_deal, variant, target = board.i_deal, board.variant, board.target

    def worth(mine: int, theirs: int) -> float:
        return after_play(mine, theirs, i_deal, my_hand, variant, target, crib_shift)

    # Named by what it depends on: the plays of a deal share the positions searched.
    return search_win(table, (board.mine, board.theirs), target, worth, (i_deal, my_hand, variant, crib_shift))


def kept_and_starter(v: SeatView) -> tuple[list[Card], Card | None]:
    """The seat's kept cards and the starter, from its view."""
    return [card_from_code(c) for c in v.kept], card_from_code(v.starter) if v.starter else None


def crib_shift(v: SeatView, seat: int) -> int:
    """Points the seat's own thrown cards move this deal's crib from the average crib."""
    rules = v.game_rules
    thrown = [card_from_code(c).rank for c in v.my_discards]
    if len(thrown) != 2 or rules.players != 2:
        return 0
    mean = _mean(show_chances(rules.variant, rules.target)["crib"])
    return round(crib_value(thrown, v.dealer == seat, rules.hand_size) - mean)
