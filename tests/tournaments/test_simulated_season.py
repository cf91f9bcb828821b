"""A simulated season end to end: a league of 8 and a knockout of 12 (byes), every game played
to the end by the computer on both sides through the move service, the results flowing in
through games.signals.game_finished (manage.py simulate_tournament_season)."""

import io
import random

import pytest
from django.core.management import call_command

from games.models import Game
from ratings.models import Rating
from ratings.services import recompute
from tests.factories import committed
from tournaments import club_nights, selectors
from tournaments.models import Pairing, PairingGame, Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


@pytest.fixture(autouse=True)
def _seeded_shuffles(monkeypatch):
    from games import services

    monkeypatch.setattr(services, "_shuffler", random.Random(5))


def _league_order_holds(event, rows):
    """Points down the table; level points: head to head among the level, then spread."""
    won_from = {}
    for pg in PairingGame.objects.filter(pairing__round__tournament=event).select_related("pairing"):
        loser = pg.pairing.away_id if pg.winner_id == pg.pairing.home_id else pg.pairing.home_id
        won_from[(pg.winner_id, loser)] = won_from.get((pg.winner_id, loser), 0) + event.values.of(pg.kind)
    for level in {r["points"] for r in rows}:
        group = [r for r in rows if r["points"] == level]
        ids = {r["entrant"] for r in group}
        keys = [(-sum(won_from.get((r["entrant"], o), 0) for o in ids), -r["spread"]) for r in group]
        assert keys == sorted(keys), (level, group)
    assert [r["points"] for r in rows] == sorted((r["points"] for r in rows), reverse=True)


def test_a_league_of_eight_and_a_knockout_of_twelve_played_out_by_the_computer():
    out = io.StringIO()
    with committed():
        call_command("simulate_tournament_season", league=8, knockout=12, seed=3, stdout=out)
    text = out.getvalue()
    league = Tournament.objects.get(kind=Tournament.Kind.LEAGUE)
    knockout = Tournament.objects.get(kind=Tournament.Kind.KNOCKOUT)
    assert league.status == knockout.status == Tournament.Status.FINISHED

    # The league: 28 games, everyone played 7; the table is the command's recount of the games
    # (it stops with an error otherwise), skunks worth 2 and double skunks 3 (the preset).
    rows = selectors.table(league)
    assert len(rows) == 8 and all(r["played"] == 7 for r in rows)
    assert PairingGame.objects.filter(pairing__round__tournament=league, counted=True).count() == 28
    assert sum(r["won"] for r in rows) == 28 and sum(r["spread"] for r in rows) == 0
    kinds = list(PairingGame.objects.filter(pairing__round__tournament=league).values_list("kind", flat=True))
    assert sum(r["points"] for r in rows) == sum({"win": 1, "skunk": 2, "double_skunk": 3}[k] for k in kinds)
    _league_order_holds(league, rows)
    assert f"{league.name}: 8 entrants, 28 games" in text

    # The knockout: 16-slot bracket, byes to seeds 1-4, 11 games to a champion.
    first = list(Pairing.objects.filter(round__tournament=knockout, round__number=1).order_by("table"))
    assert [(p.home.seed, p.away.seed if p.away else None) for p in first] == [
        (1, None),
        (8, 9),
        (4, None),
        (5, 12),
        (2, None),
        (7, 10),
        (3, None),
        (6, 11),
    ]
    assert PairingGame.objects.filter(pairing__round__tournament=knockout).count() == 11
    for number in (2, 3, 4):
        before = list(Pairing.objects.filter(round__tournament=knockout, round__number=number - 1).order_by("table"))
        now = list(Pairing.objects.filter(round__tournament=knockout, round__number=number).order_by("table"))
        assert [x for p in now for x in (p.home_id, p.away_id)] == [p.winner_id for p in before]
    final = Pairing.objects.get(round__tournament=knockout, round__number=4)
    assert selectors.champion(knockout) == final.winner
    assert f"Champion: {final.winner}" in text

    # Ratings: every game counted once for both players; the rebuild gives the same numbers.
    for event in (league, knockout):
        for entrant in event.entrants.all():
            played = Game.objects.filter(
                tournament_game__pairing__round__tournament=event, seats__player=entrant.player
            )
            assert Rating.objects.get(player=entrant.player, family="two").games == played.count()
    stored = sorted(Rating.objects.values_list("player_id", "family", "mu", "sigma", "games"))
    recompute()
    assert sorted(Rating.objects.values_list("player_id", "family", "mu", "sigma", "games")) == stored


def test_a_simulated_club_night_season_has_nine_games_a_player_a_night_and_its_table_recounted():
    out = io.StringIO()
    call_command("simulate_tournament_season", league=0, knockout=0, club_night=6, nights=3, seed=4, stdout=out)
    event = Tournament.objects.get(kind=Tournament.Kind.CLUB_NIGHT)
    assert event.status == Tournament.Status.FINISHED
    assert list(event.nights.values_list("number", "status")) == [(1, "closed"), (2, "closed"), (3, "closed")]
    for night in event.nights.all():
        for entrant in event.entrants.all():
            assert club_nights.games_of(night, entrant).count() == 9
    rows = selectors.table(event)  # the command checked it against a recount from the games
    assert [r["nights"] for r in rows] == [3] * 6 and sum(r["won"] for r in rows) == 3 * 27
    grps = [(r["grass_roots"], r["points"], r["spread"]) for r in rows]
    assert grps == sorted(grps, reverse=True)  # GRPs, then game points, then spread
    assert "Grass Roots Points" in out.getvalue()
