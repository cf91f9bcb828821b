"""The review of a finished game told to a seat: its summary (the totals, the luck and skill,
the chance to win before each hand and the swings), the luck table of every side, and each hand
(the throw beside the best, every pegging choice that cost points), as a typed, frozen story
(`ReviewStory`, `review_story`) beside the turn's; and the review's offer in the game-over email
(`review_offer`).

It only reads the review the worker stored after the game's end (games.reviews; each player's
own review and only numbers of the other sides, games.coaching.full_review), in the same words
as the review on the game page. The reply "review" renders the story (mail.review).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from games import coaching, reviews
from games.cribbage.coach import COSTLY_FROM
from games.presentation import cards_text, plural

from .coach_text import chance_cost_words
from .turn import Links, TurnStory, turn_story

log = logging.getLogger(__name__)

_COLUMNS = ("Dealt", "Starters", "Cards", "Lost", "Scored")


@dataclass(frozen=True, kw_only=True)
class ReviewStory(TurnStory):
    """The whole review told to a seat (`review_story`): the turn's story with the review's
    summary, the luck table (a text row per side), each hand's lines and the review's link."""

    summary: list[str]
    luck_table: list[str]
    hands: list[list[str]]
    review_url: str


def review_story(game, seat, user=None, *, links: Links, review=None) -> ReviewStory:
    """The stored review of `game` told to `seat` (`review`, when the caller has just read it)."""
    if review is None:
        review = coaching.full_review(game, seat)
    return ReviewStory(
        **turn_story(game, seat, user, links=links).as_context(),
        summary=summary_lines(review),
        luck_table=luck_table(review) if review and review.get("luck") else [],
        hands=[hand_lines(h) for h in review["hands"]] if review else [],
        review_url=review_url(game, links=links),
    )


def summary_lines(review):
    """The totals and the luck and skill, in a few lines (the game-over email carries them)."""
    if not review:
        return []
    v = review["verdicts"]
    lines = [
        f"About {review['total_loss']:.1f} expected points lost against the best "
        f"({review['discard_loss']:.1f} in {review['discards']} throw{'s' if review['discards'] != 1 else ''}, "
        f"{review['pegging_loss']:.1f} in {review['plays']} play{'s' if review['plays'] != 1 else ''}); "
        f"your throws: {v['good']} good, {v['inaccuracy']} inaccurate, {plural(v['mistake'], 'mistake')}."
    ]
    if review.get("luck"):
        lines.append(review["luck"]["summary"])
    chances = review.get("chances")
    if chances:
        lines.append("Your chance to win before each hand: " + ", ".join(f"{x:g}%" for x in chances["series"]) + ".")
        lines += [f"Swing: {s['words']}." for s in chances["swings"]]
    return lines


def luck_table(review):
    """The luck and skill of every side as a text table, one row per side."""
    sides = review["luck"]["sides"]
    width = max(len(s["name"]) for s in sides)
    rows = ["".ljust(width) + "".join(f"{c:>9}" for c in _COLUMNS)]
    for s in sides:
        rows.append(
            s["name"].ljust(width)
            + "".join(f"{s[k]:>9.1f}" for k in ("dealt_ev", "starter", "cards"))
            + f"{abs(s['choices']):>9.1f}"  # what the choices lost (never above 0)
            + f"{s['points']:>9}"
        )
    return rows


def hand_lines(hand):
    """One hand of the review: the throw beside the best, every play that cost points."""
    head = f"Hand {hand['number']}"
    if hand.get("luck"):
        head += (
            " ("
            + "; ".join(
                f"{s['name']}: the cards worth {s['cards']:+.1f}, {abs(s['choices']):.1f} lost by choices, {s['points']} scored"
                for s in hand["luck"]
            )
            + ")"
        )
    lines = [head]
    d = hand["discard"]
    if d:
        line = f"You threw {cards_text(d['discard'])}, keeping {cards_text(d['keep'])}: {d['ev']:.2f} expected. "
        line += (
            "The best throw."
            if d["is_best"]
            else f"Best was {cards_text(d['best_discard'])}, keeping {cards_text(d['best_keep'])}: "
            f"{d['best_ev']:.2f} ({d['loss']:.2f} more, {d['verdict']})."
        )
        lines.append(line + chance_cost_words(d.get("chance")))
    for p in hand["costly_plays"]:
        reasons = "; ".join(p["reasons"])
        lines.append(
            f"In the pegging, {cards_text([p['card']])} on {p['count_before']}"
            + (f": {reasons}" if reasons else "")
            + (
                f"; {cards_text([p['best']])} was better ({p['loss']:.2f} points, {p['verdict']})."
                if p["loss"] >= COSTLY_FROM
                else "; no points lost."
            )
            + chance_cost_words(p.get("chance"))
        )
    if not hand["costly_plays"]:
        lines.append("No pegging choice cost points.")
    return lines


def review_url(game, *, links: Links):
    return links.absolute(game.get_absolute_url()) + "#review"


def review_offer(game, seat, *, links: Links):
    """What the game-over email says of the review: the luck and skill in a line, and how to get
    the whole of it (the reply "review", or the game page).

    This only reads the stored review (games.reviews: the worker's, after the game's end; the
    result email's composer, in the send task, stores it first when it is missing): stored, it
    carries its line; not (it could not be stored), it says the review is being prepared and
    where to read it."""
    try:
        review = coaching.full_review(game, seat)
        pending = review is None and reviews.pending(game, seat)
    except Exception:
        log.exception("The review failed for game %s seat %s; the email goes without it.", game.pk, seat)
        return []
    whole = (
        'Reply "review" for the whole review, every throw beside the best and every pegging choice '
        f"that cost points, hand by hand; or read it on the game page: {review_url(game, links=links)}"
    )
    if pending:
        return ["The review of the game is being prepared: it is ready a moment after the game ends.", whole]
    if not review:
        return []
    swings = (review.get("chances") or {}).get("swings")
    biggest = [f"The biggest swing: {swings[0]['words']}."] if swings else []
    return [review["luck"]["summary"], *biggest, whole]
