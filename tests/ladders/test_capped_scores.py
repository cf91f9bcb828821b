"""A game stops at its target, so the spreads that break ladder and event ties count the winner's
121, never more; games finished before that rule are corrected by the migrations (the log stays,
the fold changes)."""

import importlib

import pytest
from django.apps import apps
from django.core.management import CommandError, call_command

from games import services as game_services
from games.models import Game
from ladders import challenges, matches, seasons, selectors
from ladders.models import LadderGame
from mail import subjects
from tests.factories import finish_game

pytestmark = pytest.mark.django_db


def migration(app, name):
    return importlib.import_module(f"{app}.migrations.{name}")


def ladder_game(make_ladder):
    ladder, (a, b, *_) = make_ladder(3)
    match = challenges.start_match(b, a, actor=None)
    lg = match.games.get()
    finish_game(lg.game, match.entrant_seat(b))
    matches.record_game_result(lg.game_id)
    lg.refresh_from_db()
    return ladder, lg


def as_before_the_cap(game, extra):
    """The snapshot as the old fold left it: the winner pegged `extra` past the target."""
    snapshot = game.snapshot
    snapshot["scores"][game.winner_side] += extra
    for record in snapshot["records"]:
        record.pop("past_target", None)
    Game.objects.filter(pk=game.pk).update(snapshot=snapshot)


def test_a_ladder_game_counts_the_winner_at_the_target_in_the_spread(make_ladder):
    ladder, lg = ladder_game(make_ladder)
    scores = game_services.engine_state(lg.game).scores
    assert max(scores) == 121 and (lg.challenger_score, lg.defender_score) == tuple(scores)
    rows = {r["player"]: r for r in selectors.standings(ladder)}
    assert rows["B"]["points_for"] == 121 and rows["B"]["spread"] == 121 - scores[1 - lg.game.winner_side]


def test_the_migration_corrects_old_ladder_games_and_closed_seasons(make_ladder):
    ladder, lg = ladder_game(make_ladder)
    loser = game_services.engine_state(lg.game).scores[1 - lg.game.winner_side]
    as_before_the_cap(lg.game, 15)
    LadderGame.objects.filter(pk=lg.pk).update(challenger_score=136)
    seasons.close_season(ladder, actor=None)
    season = ladder.seasons.get(number=1)
    assert {r["player"]: r["spread"] for r in season.standings}["B"] == 136 - loser
    with pytest.raises(CommandError):
        call_command("verify_games", str(lg.game_id))

    migration("games", "0016_scores_stop_at_the_target").refold(apps, None)
    migration("ladders", "0005_scores_stop_at_the_target").rescore(apps, None)

    lg.refresh_from_db()
    season.refresh_from_db()
    assert (lg.challenger_score, lg.defender_score) == (121, loser)
    b = {r["player"]: r for r in season.standings}["B"]
    assert (b["points_for"], b["points_against"], b["spread"]) == (121, loser, 121 - loser)
    call_command("verify_games", str(lg.game_id))  # the snapshot is the log's fold again


def test_a_ladder_games_emails_name_the_ladder(make_ladder):
    ladder, lg = ladder_game(make_ladder)
    assert subjects.event_name(lg.game_id) == ladder.name
