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

from games import coaching, cribbage, follow_ups, signals
from games.models import FollowUp, Game, GameReview

LISTENER = "games.prepare_review"  # its name among game_finished's listeners


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
    shares = coaching.luck_and_skill(game)
    for seat in missing:
        data = json.loads(json.dumps(coaching.review_parts(game, seat, shares)))  # as the database gives it back
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
