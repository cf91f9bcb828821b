"""The review of a finished game by email: offered in the game-over email, sent on "review".

Built from games.coaching.full_review (each player's own review, and only numbers of
the other sides), in the same words as the review on the game page: the review the worker
stored after the game's end (games.reviews). The game-over email's composer and the answer to
"review", both the worker's (never a request's), store it first if it is not there yet.
"""

from games import coaching, reviews
from games.cribbage.coach import COSTLY_FROM
from games.presentation import cards_text, plural
from games.presenter.coach_text import chance_cost_words
from games.presenter.turn import turn_story

from . import links, messages

_COLUMNS = ("Dealt", "Starters", "Cards", "Lost", "Scored")


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


def review_url(game):
    return links.absolute(game.get_absolute_url()) + "#review"


def review_message(game, seat, user):
    """The whole review of a finished game for `seat`, as an answer to the reply "review" (in the
    worker: asked for before the review's own task has stored it, it is worked out here)."""
    review = coaching.full_review(game, seat)
    if review is None:
        reviews.prepare(game.pk)
        review = coaching.full_review(game, seat)
    context = {
        **turn_story(game, seat, user, links=links).as_context(),
        "summary": summary_lines(review),
        "luck_table": luck_table(review) if review.get("luck") else [],
        "hands": [hand_lines(h) for h in review["hands"]],
        "review_url": review_url(game),
    }
    return messages.build("mail/email/review", context, to=user.email, user=user, game_id=game.pk, seat=seat)
