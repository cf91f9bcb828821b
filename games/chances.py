"""The coach in win chances on pages and in emails: what each decision cost in chance to win.

* ``game_chances(game, seat)``: for the review of a finished game, the seat's
  chance before every deal drawn as an SVG chart, the decisions that cost the
  most chance in words, and every throw and play's cost in points and in
  chance, by hand (``cribbage.coach.chance_review``).
* ``hand_chances(game, seat, hands)``: the same costs for some hands only and
  the chance now, for the coach during a game where help is allowed.

Callers gate them: ``coaching`` asks only where ``game.help_allowed_for(seat)``.
Everything is judged on the seat's own view replayed from the log, never on
another seat's cards. Two-player games with a win-chance table only (None
elsewhere). Costs and chances are floats in 0..1 (the pages show per cent).
"""

from django.core.cache import cache

from games import cribbage
from games.cribbage.coach import COSTLY_FROM, ChanceReview, Decision, chance_chart_svg, chance_review
from games.cribbage.strategy import has_table
from games.presentation import cards_text

__all__ = ["game_chances", "hand_chances", "add_to_notes", "reviewed_hand", "decision_json", "swing_words", "SWINGS"]

SWINGS = 3  # decisions listed as the biggest swings
CHANCE_LISTED = 0.5  # per cent of the chance to win: a play that cost this much is reviewed


def _review(game, seat, hands=None) -> ChanceReview | None:
    rules = cribbage.Rules.from_json(game.rules)
    if seat is None or not has_table(rules.variant, rules.target, rules.players):
        return None
    moves = list(game.events.engine_moves().values_list("data", flat=True))
    return chance_review(rules, game.first_dealer, moves, seat, hands)


def _pct(x: float) -> float:
    return round(100 * x, 1)


def decision_json(d: Decision) -> dict:
    return {
        "hand": d.hand,
        "kind": d.kind,
        "cards": [c.code for c in d.cards],
        "count_before": d.count_before,
        "points_lost": round(d.cost.points_lost, 2),
        "chance_lost": _pct(d.cost.chance_lost),  # per cent
        "best_chance": _pct(d.cost.best_chance),
        "best_by_chance": [c.code for c in d.cost.best_by_chance],
        "words": swing_words(d),
    }


def swing_words(d: Decision) -> str:
    """ "hand 7: your throw of 5♥ 5♦ cost 4.1% win chance (best: J♥ K♥)"."""
    what = f"your throw of {cards_text(d.cards)}" if d.kind == "discard" else f"your {cards_text(d.cards)}"
    if d.kind == "play":
        what += f" on {d.count_before}"
    better = cards_text(d.cost.best_by_chance)
    return f"hand {d.hand}: {what} cost {_pct(d.cost.chance_lost):g}% win chance (best: {better})"


def _by_hand(review: ChanceReview) -> dict:
    """{hand number: {"discard": decision or None, "plays": {card code: decision}}}"""
    out: dict = {}
    for d in review.decisions:
        entry = out.setdefault(d.hand, {"discard": None, "plays": {}})
        if d.kind == "discard":
            entry["discard"] = decision_json(d)
        else:
            entry["plays"][d.cards[0].code] = decision_json(d)
    return out


def game_chances(game, seat):
    """The finished game in win chances for `seat`; None while it is on, or with no table.

    {"chart": SVG text, "series": [per cent before each deal, then 100 or 0],
     "swings": [decision...], "by_hand": {number: {"discard", "plays"}}}
    The costliest part of a finished game's review: the worker works it out once and stores it
    (games.reviews.review_parts); a request never calls this."""
    if not game.is_finished or seat is None:
        return None
    review = _review(game, seat)
    if review is None:
        return None
    return {
        "chart": chance_chart_svg(review.series, title="Your chance to win before each hand"),
        "series": [_pct(x) for x in review.series],
        "swings": [decision_json(d) for d in review.swings(SWINGS)],
        "by_hand": _by_hand(review),
    }


def hand_chances(game, seat, hands):
    """During a game: {"now": the seat's chance before this deal (per cent), "by_hand": the
    costs of its decisions in `hands`}; None with no table. Kept per game move."""

    def work_out():
        review = _review(game, seat, tuple(hands))
        if review is None:
            return {"none": True}
        return {"now": _pct(review.series[-1]) if review.series else None, "by_hand": _by_hand(review)}

    key = f"hand-chances:{game.kept_as}:{game.seq}:{seat}:{'-'.join(map(str, hands))}"
    found = cache.get_or_set(key, work_out, timeout=24 * 3600)
    return None if found.get("none") else found


# --- Into the coach's notes and the review (games.coaching) ---------------------------------


def add_to_notes(notes, game, seat, view):
    """The win chance now, and what this hand's throw and the last hand's slips cost in chance
    (two-player games with a win-chance table; only where help is allowed, as the caller checks)."""
    hands = [n for n in (view.hand_number, view.hand_number - 1) if n > 0]
    found = hand_chances(game, seat, hands)
    if found is None:
        return
    notes["chance_now"] = found["now"]
    this = found["by_hand"].get(view.hand_number, {})
    if notes["discard"] and this.get("discard"):
        notes["discard"] = {**notes["discard"], "chance": this["discard"]}
    prev = notes["previous_hand"]
    if prev:
        last = found["by_hand"].get(prev["number"], {"discard": None, "plays": {}})
        notes["previous_hand"] = _with_costs(prev, last, "lapses")


def _with_costs(hand, found, plays_key):
    """A hand's JSON (``_hand_json`` or a review hand) with each decision's chance cost
    (``chances.decision_json``) beside its points, under "chance"."""
    out = dict(hand)
    if out.get("discard") and found["discard"]:
        out["discard"] = {**out["discard"], "chance": found["discard"]}
    out[plays_key] = [{**p, "chance": found["plays"].get(p["card"])} for p in out[plays_key]]
    return out


def reviewed_hand(hand, found):
    """A review hand with the chance each decision cost; the plays listed are those that cost
    points or at least ``CHANCE_LISTED`` per cent of the chance to win."""
    if not found:
        return hand
    out = _with_costs(hand, found, "plays")
    out["costly_plays"] = [
        p
        for p in out["plays"]
        if p["loss"] >= COSTLY_FROM or (p["chance"] and p["chance"]["chance_lost"] >= CHANCE_LISTED)
    ]
    return out
