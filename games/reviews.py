"""A finished game's review: worked out once by the worker after the game ends, stored, read.

Working out a finished game's review (every throw and play judged, the luck and skill of every
side, the win chance before each hand) replays the whole log for every seat: up to a second or
more of CPU for a long game. So no request does it: the game's end owes it (a listener of the
durable topic `game_finished`, games.follow_ups: a row written in the finishing transaction,
drained after commit by the one task, recovered by the one sweeper), and `prepare` stores one
`GameReview` row per seat. The game page, the game-over email and the answer to "review" read
that row (games.coaching.full_review); until it is there, the page says the review is being
prepared. The game-over email's composer and the answer to "review" (both in the worker, after
the game's end committed) call `prepare` first when they come before this listener, so the email
carries the figures.

Each seat's row holds what that seat could see, and only numbers of the others; a seat reads
its own row only, and only once the game is over. A game played at the table has no hands, so
no review.
"""

import json

from django.db import transaction

from games import chances, coaching, cribbage, follow_ups, signals
from games.cribbage import coach
from games.models import FollowUp, Game, GameReview

LISTENER = "games.prepare_review"  # its name among game_finished's listeners


# --- Working it out (the worker's CPU, never a request's) ----------------------------------


def _finished_review(game, seat):
    """(the game's review, its last hand's) for a finished game, as JSON-able data (it replays
    the whole log: the worker's work, see `review_parts`)."""
    review = coach.game_review(coaching.hand_records(game, seat))
    return _review_json(review), coaching.hand_json(review.hands[-1]) if review.hands else None


def _review_json(review):
    """The game's review for one seat: the totals, the worst moves, and every hand in full
    (each throw beside the best, each play that cost points)."""
    worst_discards = sorted(
        (h for h in review.hands if h.discard and h.discard.loss > 0), key=lambda h: -h.discard.loss
    )[:3]
    lapses = sorted(((h.number, p) for h in review.hands for p in h.lapses), key=lambda x: -x[1].loss)[:3]
    return {
        "discard_loss": coaching.rounded(review.discard_loss),
        "pegging_loss": coaching.rounded(review.pegging_loss),
        "total_loss": coaching.rounded(review.total_loss),
        "discards": review.discards,
        "plays": review.plays,
        "per_hand": coaching.rounded(review.total_loss / review.discards) if review.discards else 0.0,
        "verdicts": {k: review.verdicts.get(k, 0) for k in ("good", "inaccuracy", "mistake")},
        "worst_discards": [{"hand": h.number, **coaching.discard_json(h.discard)} for h in worst_discards],
        "worst_plays": [{"hand": n, **coaching.play_json(p)} for n, p in lapses],
        "hands": [
            {
                "number": h.number,
                "discard": coaching.discard_json(h.discard) if h.discard else None,
                "costly_plays": [coaching.play_json(p) for p in h.costly_plays],
                "plays": [coaching.play_json(p) for p in h.plays],
                "pegging_loss": coaching.rounded(h.pegging_loss),
            }
            for h in review.hands
        ],
    }


# --- Luck and skill (finished games) --------------------------------------------------------


def luck_and_skill(game):
    """How much of a finished game's result came from the cards and how much from the choices,
    per hand and for the game, per side (None while the game is on).

    Each seat's throws and plays are judged on what that seat could see; only numbers
    leave here, never another seat's cards. The same for every seat (the worker's work, see
    `review_parts`).
    """
    if not game.is_finished:
        return None
    rules = cribbage.Rules.from_json(game.rules)
    records = {seat: coaching.hand_records(game, seat) for seat in range(rules.players)}
    found = coach.luck_and_skill(
        records, [rules.side_of(s) for s in range(rules.players)], _points_by_hand(game, rules)
    )
    return {
        "hands": [{"number": h.number, "sides": [_side_json(s) for s in h.sides]} for h in found.hands],
        "sides": [
            {
                **_side_json(s),
                "margin": found.margin(s.side),
                "from_cards": coaching.rounded(found.from_cards(s.side)),
                "from_choices": coaching.rounded(found.from_choices(s.side)),
            }
            for s in found.sides
        ],
    }


def review_parts(game, seat, shares=None):
    """What `GameReview.data` keeps for `seat` of the finished `game`, worked out from the log
    (seconds of CPU for a long game: the worker's, never a request's; games.reviews stores it):
    {"review": the seat's review (`_review_json`), "last_hand": its last hand's (`coaching.hand_json`),
     "luck": `luck_and_skill(game)` (`shares`, when the caller has it for another seat already),
     "chances": `chances.game_chances(game, seat)` or None}. Plain JSON, no names (those are
    read when it is shown), so working it out again gives the same."""
    review, last_hand = _finished_review(game, seat)
    return {
        "review": review,
        "last_hand": last_hand,
        "luck": shares if shares is not None else luck_and_skill(game),
        "chances": chances.game_chances(game, seat),
    }


def _side_json(s):
    return {
        "side": s.side,
        "dealt_ev": coaching.rounded(s.dealt_ev),
        "starter": coaching.rounded(s.starter),
        "cards": coaching.rounded(s.cards),
        "choices": coaching.rounded(s.choices),
        "points": s.points,
    }


def _points_by_hand(game, rules):
    """Hand number -> the points each side scored in that hand, from the log."""
    state = cribbage.new_game(rules, first_dealer=game.first_dealer)
    points, before = {}, [0] * rules.sides

    def close(state):
        points[state.hand_number] = [now - then for now, then in zip(state.scores, before)]
        return list(state.scores)

    for data in game.events.engine_moves().values_list("data", flat=True):
        if data.get("kind") == "deal" and state.hand_number:
            before = close(state)
        state = cribbage.apply(state, data)
    if state.hand_number:
        close(state)
    return points


# --- Storing it ----------------------------------------------------------------------------


def prepare(game_id):
    """The follow-up (game_finished): store the review of every seat of the finished game that
    has none yet. Idempotent: run twice (a second task, a worker killed half way), the rows are
    those of the first run (a review is worked out from the log alone, which no longer changes)."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not game.is_finished or game.played_at_table:
        return
    players = cribbage.Rules.from_json(game.rules).players
    done = set(GameReview.objects.filter(game=game).values_list("seat", flat=True))
    missing = [seat for seat in range(players) if seat not in done]
    if not missing:
        return
    shares = luck_and_skill(game)
    for seat in missing:
        data = json.loads(json.dumps(review_parts(game, seat, shares)))  # as the database gives it back
        GameReview.objects.bulk_create([GameReview(game=game, seat=seat, data=data)], ignore_conflicts=True)


def has_review(game):
    """Does this game get a review at all (finished, and played here, not at the table)?"""
    return game.is_finished and not game.played_at_table


def pending(game, seat):
    """Is the review of `seat` owed but not stored yet? (False for a spectator, a game still on,
    a game played at the table.) Asked only where the stored review was not found."""
    if seat is None or not has_review(game):
        return False
    return not GameReview.objects.filter(game=game, seat=seat).exists()


def owe_if_lost(game):
    """A finished game whose review is neither stored nor owed (it ended before reviews were
    stored, or its row was lost): owe it now, to this listener alone, so the worker prepares it.
    Nothing when a row is owed already (one query)."""
    key_of_row = f"{signals.game_finished.name}:{LISTENER}:{game.pk}"
    if FollowUp.objects.filter(key=key_of_row).exists():
        return
    with transaction.atomic():
        follow_ups.owe(signals.game_finished.name, game.pk, listeners=[LISTENER])
