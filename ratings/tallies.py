"""Each player's tally of a finished game, for the profiles: result, skunks, the shows.

Written when the game finishes (game_finished; idempotent) for every seat with a
player, practice games apart; `rebuild` (in recompute_ratings) makes them all again.
"""

from django.db import transaction

from games import cribbage
from games.models import Game
from games.services import engine_state
from ratings.models import PlayerGame


def tallies_of(game, seats):
    """The PlayerGame rows (unsaved) of finished `game`, one per seat with a player."""
    if not game.is_finished or game.practice:
        return []
    rules = cribbage.Rules.from_json(game.rules)
    result = cribbage.result(engine_state(game)) or {}
    skunks = result.get("skunks", {})
    moves = (event.data for event in game.events.engine_moves().only("data"))
    shows = cribbage.show_tallies(rules, moves, game.first_dealer)
    rows = []
    for seat in seats:
        if seat.player_id is None:
            continue
        side = rules.side_of(seat.number)
        won = side == game.winner_side
        show = shows[seat.number]
        rows.append(
            PlayerGame(
                game=game,
                player_id=seat.player_id,
                seat=seat.number,
                won=won,
                skunks_given=sum(1 for status in skunks.values() if status) if won else 0,
                skunk_taken="" if won else (skunks.get(str(side)) or ""),
                hands=show.hands,
                hand_points=show.hand_points,
                cribs=show.cribs,
                crib_points=show.crib_points,
                best_hand=show.best_hand,
                best_hand_cards=" ".join(show.best_hand_cards),
                twenty_nines=show.twenty_nines,
                finished_at=game.finished_at,
            )
        )
    return rows


def tally_game(game_id):
    """Write the tallies of a finished game once (a second call changes nothing)."""
    game = Game.objects.filter(pk=game_id, status=Game.Status.FINISHED, practice=False).first()
    if game is None or PlayerGame.objects.filter(game=game).exists():
        return 0
    rows = tallies_of(game, list(game.seats.order_by("number")))
    PlayerGame.objects.bulk_create(rows, ignore_conflicts=True)
    return len(rows)


def rebuild():
    """Every finished game's tallies made again from the logs; the number of games."""
    games = Game.objects.filter(status=Game.Status.FINISHED, practice=False).prefetch_related("seats")
    with transaction.atomic():
        PlayerGame.objects.all().delete()
        counted = 0
        for game in games.iterator(chunk_size=200):
            rows = tallies_of(game, sorted(game.seats.all(), key=lambda seat: seat.number))
            PlayerGame.objects.bulk_create(rows)
            counted += bool(rows)
    return counted
