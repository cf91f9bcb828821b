"""Writing ratings: a finished game rated once (`rate_game`), and a rebuild from every game (`recompute`).

Both fold the same pure arithmetic (ratings.arithmetic.after) over the games in
their finish order, so a rebuild gives the very numbers the games gave one by one.
"""

from collections import Counter

from django.db import transaction

from games.models import Game
from ratings import counting
from ratings.arithmetic import NEW, OVERALL, Skill, after
from ratings.models import Rating, RatingChange


def rate_game(game_id):
    """Count a finished game in its players' ratings; True if it changed them.

    Idempotent: a game already counted (the signal sent twice) changes nothing.
    The players' rating rows are locked (in id order) so two games finishing at
    once for the same player are counted one after the other.
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return False
    result = counting.result_of(game, list(game.seats.order_by("number")))
    if result is None:
        return False
    players = sorted({player for side in result.sides for player in side})
    families = [OVERALL, result.family]
    with transaction.atomic():
        Rating.objects.bulk_create(
            [Rating(player_id=p, family=f) for p in players for f in families], ignore_conflicts=True
        )
        rows = {
            (row.player_id, row.family): row
            for row in Rating.objects.select_for_update()
            .filter(player_id__in=players, family__in=families)
            .order_by("pk")
        }
        if RatingChange.objects.filter(game=game).exists():
            return False
        changes = []
        for key, skill in after(result, {key: row.skill for key, row in rows.items()}).items():
            row = rows[key]
            changes.append(_change(game, key, row.skill, skill))
            row.mu, row.sigma, row.games, row.updated_at = skill.mu, skill.sigma, row.games + 1, game.finished_at
        RatingChange.objects.bulk_create(changes)
        Rating.objects.bulk_update(list(rows.values()), ["mu", "sigma", "games", "updated_at"])
    return True


def _change(game, key, before, skill):
    player, family = key
    return RatingChange(
        game=game,
        player_id=player,
        family=family,
        mu_before=before.mu,
        sigma_before=before.sigma,
        mu_after=skill.mu,
        sigma_after=skill.sigma,
        finished_at=game.finished_at,
    )


def recompute():
    """Rebuild every rating and its history from the games that count, in finish order.

    Returns the number of games counted. One transaction: the old ratings stand until it commits.
    """
    skills: dict[tuple[int, str], Skill] = {}
    games: Counter = Counter()
    last_game = {}
    changes = []
    with transaction.atomic():
        for game in counting.countable_games().prefetch_related("seats").iterator(chunk_size=500):
            result = counting.result_of(game, sorted(game.seats.all(), key=lambda seat: seat.number))
            if result is None:
                continue
            for key, skill in after(result, skills).items():
                changes.append(_change(game, key, skills.get(key, NEW), skill))
                skills[key], games[key], last_game[key] = skill, games[key] + 1, game.finished_at
        RatingChange.objects.all().delete()
        Rating.objects.all().delete()
        RatingChange.objects.bulk_create(changes, batch_size=1000)
        Rating.objects.bulk_create(
            [
                Rating(player_id=p, family=f, mu=s.mu, sigma=s.sigma, games=games[(p, f)], updated_at=last_game[(p, f)])
                for (p, f), s in skills.items()
            ],
            batch_size=1000,
        )
    return len({change.game_id for change in changes})
