"""An event's spread counts the winner at the target; old games are corrected by the migrations."""

import pytest
from django.apps import apps

from games import services as game_services
from tests.factories import committed, finish_game
from tests.ladders.test_capped_scores import as_before_the_cap, migration
from tournaments import selectors
from tournaments import services as events
from tournaments.models import PairingGame, Tournament

pytestmark = pytest.mark.django_db


def test_an_event_spread_counts_the_winner_at_the_target_and_old_games_are_corrected(make_event):
    event, (a, b) = make_event(2, kind=Tournament.Kind.LEAGUE)
    with committed():
        events.start(event)
    pg = PairingGame.objects.get(pairing__round__tournament=event)
    with committed():
        finish_game(pg.game, pg.home_seat)
    pg.refresh_from_db()
    loser = game_services.engine_state(pg.game).scores[1 - pg.home_seat]
    rows = {r["player"]: r for r in selectors.table(event)}
    assert (rows[str(pg.pairing.home)]["spread"], pg.home_score) == (121 - loser, 121)

    as_before_the_cap(pg.game, 9)
    PairingGame.objects.filter(pk=pg.pk).update(home_score=130)
    migration("games", "0016_scores_stop_at_the_target").refold(apps, None)
    migration("tournaments", "0002_scores_stop_at_the_target").rescore(apps, None)
    pg.refresh_from_db()
    assert (pg.home_score, pg.away_score) == (121, loser)
    assert {r["player"]: r for r in selectors.table(event)}[str(pg.pairing.home)]["spread"] == 121 - loser
