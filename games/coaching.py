"""The coach on pages and in emails: plain data built from what one seat could see.

* ``coach_notes(game, seat_number)``: after the seat's discard, the judgment
  of this hand's discard; once a hand is over, the pegging lapses of that
  hand (both only where ``game.help_allowed_for(seat)``); when the game is
  finished, the review of the whole game, for every player (once stored).
* ``full_review(game, seat)``: a finished game's whole review for one player,
  read from its ``GameReview`` row: worked out once by the worker after the
  game ended (``games.reviews.review_parts``), never in a request.
* ``advice_before(game, seat_number)``: only where ``game.advice_allowed_for``
  (practice), and only for the seat to act: the best discards or plays, with
  their reasons, before the move.

Everything is computed from ``selectors.view_for`` and from the event log
replayed through the engine's ``view(state, seat)``, so no other seat's
hidden card is ever read. Return values are plain dicts and lists: cards as
codes (with labels), expectations as floats rounded to 2 decimals.
"""

from games import chances, cribbage
from games.cribbage import coach
from games.cribbage.cards import card_from_code
from games.cribbage.strategy import discard_options, evaluate_plays, table_from_plays
from games.models import Event, Game, GameReview
from games.presentation import plural
from games.selectors import seats_with_players, view_for

__all__ = [
    "coach_notes",
    "advice_before",
    "hand_records",
    "full_review",
    "hand_json",
    "discard_json",
    "play_json",
    "rounded",
]


# A verdict in a sentence: "your throw was a mistake", "was good".
VERDICT_SAID = {"good": "good", "inaccuracy": "an inaccuracy", "mistake": "a mistake"}


def rounded(x):
    return round(float(x), 2)


def _codes(cards):
    return [c.code for c in cards]


def _cards(codes):
    return tuple(card_from_code(c) for c in codes)


def _is_dealer(view, seat, dealer=None):
    """Is the crib this seat's side's (their own, or their partner's)? (`dealer`: of another hand
    than the view's own, the previous one.)"""
    dealer = view.dealer if dealer is None else dealer
    if dealer is None:
        return False
    return view.side_of_seat[dealer] == view.side_of_seat[seat]


def discard_json(j):
    return {
        "discard": _codes(j.discard),
        "keep": _codes(j.keep),
        "hand_ev": rounded(j.hand_ev),
        "crib_ev": rounded(j.crib_ev),
        "ev": rounded(j.ev),
        "best_discard": _codes(j.best_discard),
        "best_keep": _codes(j.best_keep),
        "best_hand_ev": rounded(j.best_hand_ev),
        "best_crib_ev": rounded(j.best_crib_ev),
        "best_ev": rounded(j.best_ev),
        "loss": rounded(j.loss),
        "rank": j.rank,
        "choices": j.choices,
        "verdict": j.verdict,
        "verdict_said": VERDICT_SAID.get(j.verdict, j.verdict),
        "is_best": j.loss == 0,
    }


def play_json(p):
    return {
        "card": p.card.code,
        "count_before": p.count_before,
        "value": rounded(p.value),
        "best": p.best.code,
        "best_value": rounded(p.best_value),
        "loss": rounded(p.loss),
        "safer": p.safer.code if p.safer else None,
        "reasons": list(p.reasons),
        "verdict": coach.verdict(p.loss),
    }


# --- Replaying the game as one seat saw it ------------------------------------------


def hand_records(game, seat):
    """One ``coach.HandRecord`` per hand the seat played, from the event log.

    Each hand is read through ``view(state, seat)`` at the moment of the
    seat's discard (its dealt cards) and at the end of the hand (the public
    plays and the starter), never from another seat's cards.
    """
    rules = cribbage.Rules.from_json(game.rules)
    state = cribbage.new_game(rules, first_dealer=game.first_dealer)
    records, current = [], None

    def close(state, current):
        if current is None:
            return None
        v = cribbage.seat_view(state, seat)
        starter = card_from_code(v.starter) if v.starter else None
        return coach.HandRecord(
            **{
                **current,
                "starter": starter,
                "plays": tuple(v.plays),
                "shows": tuple({k: s[k] for k in ("seat", "what", "cards")} for s in v.shows),
            }
        )

    for data in game.events.engine_moves().values_list("data", flat=True):
        kind = data.get("kind")
        if kind == "deal" and state.hand_number:
            rec = close(state, current)
            if rec:
                records.append(rec)
            current = None
        if kind == "discard" and data.get("seat") == seat:
            v = cribbage.seat_view(state, seat)
            current = {
                "number": v.hand_number,
                "seat": seat,
                "players": rules.players,
                "dealt": _cards(v.hand),
                "discard": _cards(data["cards"]),
                "is_dealer": _is_dealer(v, seat),
                "partnerships": rules.partnerships,
                "one_go": rules.one_go,
            }
        state = cribbage.apply(state, data)
    rec = close(state, current)
    if rec:
        records.append(rec)
    return records


# --- Notes after the moves ----------------------------------------------------------------


def coach_notes(game, seat_number, view=None):
    """Display-ready coaching for `seat_number` in `game` (see the module docstring); `view`:
    the seat's `view_for`, when the caller has it already.

    {"discard": judgment of this hand's discard or None,
     "previous_hand": {"number", "lapses", "pegging_loss", "discard"} or None,
     "review": the whole game's review (finished games only) or None}
    """
    notes = {"discard": None, "previous_hand": None, "review": None, "chance_now": None}
    if not game.help_allowed_for(seat_number):
        return notes
    view = view or view_for(game, seat_number)
    rules = view.rules
    if view.kept and view.my_discards:
        dealt = _cards(view.kept) + _cards(view.my_discards)
        notes["discard"] = discard_json(
            coach.judge_discard(dealt, _cards(view.my_discards), _is_dealer(view, seat_number), rules["players"])
        )
    if game.is_finished:
        # Stored by the worker once the game ended (None until then): never worked out here.
        parts = stored_parts(game, seat_number) or {}
        notes["review"], notes["previous_hand"] = parts.get("review"), parts.get("last_hand")
    elif view.previous_hand:
        record = _previous_hand_record(game, view, seat_number)
        if record is not None:
            notes["previous_hand"] = hand_json(coach.review_hand(record))
    if not game.is_finished:
        chances.add_to_notes(notes, game, seat_number, view)
    return notes


def _previous_hand_record(game, view, seat):
    """The last finished hand as the seat saw it: the public summary plus its own throw."""
    prev = view.previous_hand
    own = Event.objects.filter(game=game, kind="discard", seat=seat).order_by("-seq").values_list("data", flat=True)[:2]
    own = list(own)[1 if view.my_discards else 0 :]
    if not own:
        return None
    rules = view.rules
    kept = _cards(prev["kept"][seat])
    discard = _cards(own[0]["cards"])
    return coach.HandRecord(
        number=prev["number"],
        seat=seat,
        players=rules["players"],
        dealt=kept + discard,
        discard=discard,
        is_dealer=_is_dealer(view, seat, dealer=prev["dealer"]),
        starter=card_from_code(prev["starter"]),
        plays=tuple(prev["plays"]),
        partnerships=rules["partnerships"],
        one_go=rules["one_go"],
    )


def hand_json(h):
    return {
        "number": h.number,
        "discard": discard_json(h.discard) if h.discard else None,
        "lapses": [play_json(p) for p in h.lapses],
        "pegging_loss": rounded(h.pegging_loss),
    }


# --- The stored review (worked out by the worker, read by the pages and the emails) ---------


def stored_parts(game, seat):
    """The seat's stored `games.reviews.review_parts` (None before the worker has stored them, or for no seat)."""
    if seat is None:
        return None
    return GameReview.objects.filter(game=game, seat=seat).values_list("data", flat=True).first()


def full_review(game, seat):
    """The whole review a player of a finished game reads (None before the end, for a
    spectator, or until the worker has stored it: see games.reviews): their review hand by hand
    (each throw beside the best, each play that cost points), the totals, and the luck and skill
    of every side, named, with words. Read from the seat's `GameReview` row, never worked out."""
    if not game.is_finished or seat is None:
        return None
    parts = stored_parts(game, seat)
    if parts is None:
        return None
    review, shares, found = parts["review"], parts["luck"], parts["chances"]
    rules = cribbage.Rules.from_json(game.rules)
    players = {s.number: str(s) for s in seats_with_players(game)}
    names = [" & ".join(players[n] for n in rules.seats_of(side)) for side in range(rules.sides)]
    mine = rules.side_of(seat)

    def named(rows):
        return [
            {**row, "name": names[row["side"]] + (" (you)" if row["side"] == mine else ""), "mine": row["side"] == mine}
            for row in rows
        ]

    by_hand = {h["number"]: named(h["sides"]) for h in shares["hands"]}
    hands = [{**h, "luck": by_hand.get(h["number"])} for h in review["hands"]]
    if found is not None:
        costs = {int(number): hand for number, hand in found["by_hand"].items()}  # JSON's keys are text
        hands = [chances.reviewed_hand(h, costs.get(h["number"])) for h in hands]
    return {
        **review,
        "hands": hands,
        "luck": {
            "sides": named(shares["sides"]),
            "summary": luck_words(named(shares["sides"]), mine, ended_early=game.finish != Game.Finish.TARGET),
        },
        "chances": found and {k: found[k] for k in ("chart", "series", "swings")},
    }


def luck_words(sides, mine, ended_early=False):
    """The viewer's side's result split into the cards, the choices and the rest, in words.

    `sides`: the named luck rows of every side (see `full_review`); `mine`: the viewer's side;
    `ended_early`: the game ended by a resignation or a forfeit, so the points say who was ahead
    then, not who won.
    """
    me = sides[mine]
    others = [s for s in sides if s["side"] != mine]
    best = max(others, key=lambda s: s["points"])
    against = best["name"] if len(others) == 1 else "the best of the others"
    margin = me["margin"]
    points = plural(abs(margin), "point")
    if ended_early:
        where = f"level with {against} ({me['points']} each)" if margin == 0 else None
        where = where or f"{points} {'ahead' if margin > 0 else 'behind'} ({me['points']} to {best['points']})"
        head = f"When the game ended you were {where}."
    elif margin == 0:
        head = f"You finished level with {against} ({me['points']} each)."
    else:
        head = f"You {'won' if margin > 0 else 'lost'} by {points} ({me['points']} to {best['points']})."
    rest = margin - me["from_cards"] - me["from_choices"]
    return (
        f"{head} The cards: {me['from_cards']:+.1f} for you against {against} (what you were dealt and cut). "
        f"Your choices: {me['from_choices']:+.1f} against theirs. "
        f"The rest, {rest:+.1f}: the pegging's chances and the cards others gave the crib."
    )


# --- Advice before the move (practice games) -----------------------------------------------


def advice_before(game, seat_number, limit=3, view=None):
    """The best moves for the seat to act now, with reasons; None where advice is not allowed
    (`view`: the seat's `view_for`, when the caller has it already).

    {"kind": "discard", "options": [{"discard", "keep", "hand_ev", "crib_ev", "ev"}...]}
    or {"kind": "play", "options": [{"card", "value", "pegs", "reasons"}...]}, best first.
    """
    if not game.advice_allowed_for(seat_number):
        return None
    view = view or view_for(game, seat_number)
    if seat_number not in view.to_act:
        return None
    rules = view.rules
    if view.phase == "discard" and not view.kept:
        options = discard_options(_cards(view.hand), _is_dealer(view, seat_number), players=rules["players"])
        own = _is_dealer(view, seat_number)
        return {
            "kind": "discard",
            "options": [
                {
                    "discard": _codes(o.discard),
                    "keep": _codes(o.keep),
                    "hand_ev": rounded(o.hand_ev),
                    "crib_ev": rounded(o.crib_ev),
                    "ev": rounded(o.total_ev),
                    "reason": (
                        f"keeps a hand worth {rounded(o.hand_ev)} on average and "
                        + (
                            f"gives your crib {rounded(o.crib_ev)}"
                            if own
                            else f"gives the opponent's crib {rounded(-o.crib_ev)}"
                        )
                    ),
                }
                for o in options[:limit]
            ],
        }
    if view.phase == "play" and view.playable:
        known = _cards(view.my_discards) + ((card_from_code(view.starter),) if view.starter else ())
        plays = view.plays
        count_cards = set(view.count_cards)
        # The count in progress is the last round if it still has cards on the table.
        rnd = plays[-1]["round"] if plays and count_cards else (plays[-1]["round"] + 1 if plays else 0)
        table = table_from_plays(
            players=rules["players"],
            seat=seat_number,
            kept=_cards(view.kept),
            known=known,
            plays=plays,
            round=rnd,
            partnerships=rules["partnerships"],
            one_go=rules["one_go"],
        )
        values = evaluate_plays(table)
        ranked = sorted(values, key=lambda c: (-round(values[c], 9), c.index))
        best = ranked[0]
        out = []
        for card in ranked[:limit]:
            j = coach.play_reasons(table, card, best) if card != best else ()
            out.append({"card": card.code, "label": card.label, "value": rounded(values[card]), "reasons": list(j)})
        return {"kind": "play", "options": out}
    return None
