"""Leagues and knockouts through the services: games start, results flow in as they finish.

Results are chosen (tests.factories.finish_game plays each game for real to the asked
winner and skunk), so the expected tables are worked by hand.
"""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from clock import timeouts
from games import follow_ups
from games.models import Game
from mail.models import OutboundEmail
from ratings.arithmetic import Result as RatingResult
from ratings.arithmetic import after
from ratings.models import Rating
from ratings.services import recompute
from tests.factories import at, committed, finish_game
from tournaments import entries, selectors, services
from tournaments.models import Pairing, PairingGame, Round, Tournament

pytestmark = pytest.mark.django_db


def _play(pg, winner, skunk=""):
    """Finish the pairing game so entrant `winner` wins, with `skunk`; the result counts by the signal."""
    seat = pg.home_seat if winner.pk == pg.pairing.home_id else 1 - pg.home_seat
    with committed():
        finish_game(pg.game, seat, skunk)
    pg.refresh_from_db()
    assert pg.counted


def test_a_league_of_four_is_played_out_and_its_table_is_the_one_worked_by_hand(make_event):
    event, (a, b, c, d) = make_event(4, kind=Tournament.Kind.LEAGUE, scoring=Tournament.Scoring.GAMES_DOUBLE)
    with committed():
        services.start(event)
    event.refresh_from_db()
    assert event.status == Tournament.Status.RUNNING
    # Every game of the once round robin started at once: six games, three rounds.
    assert event.rounds.filter(status=Round.Status.OPEN).count() == 3
    games = PairingGame.objects.filter(pairing__round__tournament=event)
    assert games.count() == 6 and all(not pg.game.is_finished for pg in games)
    assert OutboundEmail.objects.filter(kind=OutboundEmail.Kind.TURN).exists()  # the usual first-turn emails
    assert all(pg.game.assistance == Game.Assistance.OFF_BY_RULE for pg in games)

    # A beats B with a skunk (2), B beats C with a double skunk (3, the rule is on), A beats C,
    # B beats D, C beats D, D beats A (1 each). Points: A 3, B 4, C 1, D 1. C and D level:
    # C beat D head to head.
    chosen = [(a, b, a, "skunk"), (b, c, b, "double_skunk"), (a, c, a, ""), (b, d, b, ""), (c, d, c, ""), (a, d, d, "")]
    for one, other, winner, skunk in chosen:
        pairing = Pairing.objects.get(round__tournament=event, home__in=[one, other], away__in=[one, other])
        _play(pairing.games.get(), winner, skunk)
    rows = selectors.table(event)
    assert [(r["player"], r["points"], r["won"], r["skunks_given"], r["skunks_taken"]) for r in rows] == [
        ("B", 4, 2, 1, 1),
        ("A", 3, 2, 1, 0),
        ("C", 1, 1, 0, 1),
        ("D", 1, 1, 0, 0),
    ]
    assert rows[2]["tie_break"] == "head to head"
    # Ratings: each game, in the order played, moved the two players' ratings as the pure
    # arithmetic says (winner first, loser second); the rebuild gives the same numbers.
    skills = {}
    for one, other, winner, _ in chosen:
        loser = other if winner == one else one
        skills.update(after(RatingResult("two", ((winner.player_id,), (loser.player_id,)), (1, 2)), skills))
    stored = {(r.player_id, r.family): (r.mu, r.sigma, r.games) for r in Rating.objects.filter(family="two")}
    for e in (a, b, c, d):
        mu, sigma, games = stored[(e.player_id, "two")]
        assert (round(mu, 9), round(sigma, 9), games) == (
            round(skills[(e.player_id, "two")].mu, 9),
            round(skills[(e.player_id, "two")].sigma, 9),
            3,
        )
    best = max((a, b, c, d), key=lambda e: stored[(e.player_id, "two")][0])
    assert best in (a, b)  # two wins each
    recompute()
    assert {(r.player_id, r.family): (r.mu, r.sigma, r.games) for r in Rating.objects.filter(family="two")} == stored
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED
    assert not event.rounds.exclude(status=Round.Status.COMPLETE).exists()
    # Counting again changes nothing (the signal may come twice).
    assert services.record_game_result(PairingGame.objects.filter(pairing__round__tournament=event)[0].game_id) is None
    assert selectors.table(event) == rows
    csv_text = selectors.standings_csv(event)
    assert csv_text.splitlines()[0].startswith("Place,Player,Game points,Played,Won,Lost")
    assert csv_text.splitlines()[1].startswith("1,B,4,3,2,1,1,1,")


def test_a_league_played_round_by_round_opens_the_next_round_when_the_last_is_done(make_event):
    event, entrants = make_event(3, all_rounds_at_start=False)
    services.start(event)
    rounds = list(event.rounds.order_by("number"))
    assert [r.status for r in rounds] == ["open", "scheduled", "scheduled"]
    # Three entrants: one bye each round, one game.
    first = rounds[0].pairings.exclude(status=Pairing.Status.BYE).get()
    assert rounds[0].pairings.filter(status=Pairing.Status.BYE).count() == 1
    _play(first.games.get(), first.home)
    assert [r.status for r in event.rounds.order_by("number")] == ["complete", "open", "scheduled"]
    with pytest.raises(services.TournamentError, match="already being played"):
        services.open_round(event.rounds.get(number=2))
    with pytest.raises(services.TournamentError, match="already complete"):
        services.open_round(event.rounds.get(number=1))


def test_a_knockout_of_five_gives_byes_to_the_top_three_and_advances_the_winners(make_event):
    event, (s1, s2, s3, s4, s5) = make_event(5, kind=Tournament.Kind.KNOCKOUT)
    services.start(event)
    first = list(event.rounds.get(number=1).pairings.order_by("table"))
    # Bracket of 8: 1 v (8), 4 v 5, 2 v (7), 3 v (6).
    assert [(p.home, p.away, p.status) for p in first] == [
        (s1, None, "bye"),
        (s4, s5, "playing"),
        (s2, None, "bye"),
        (s3, None, "bye"),
    ]
    _play(first[1].games.get(), s5)  # the fifth seed wins
    semis = list(event.rounds.get(number=2).pairings.order_by("table"))
    assert [(p.home, p.away) for p in semis] == [(s1, s5), (s2, s3)]
    _play(semis[0].games.get(), s5)
    _play(semis[1].games.get(), s2, "skunk")
    final = event.rounds.get(number=3).pairings.get()
    assert (final.home, final.away) == (s5, s2)
    _play(final.games.get(), s2)
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED
    assert selectors.champion(event) == s2
    drawn = selectors.bracket(event)
    assert [r["name"] for r in drawn] == ["Quarter-finals", "Semi-finals", "Final"]
    assert drawn[2]["matches"][0]["sides"][1] == {"name": "B", "seed": 2, "wins": 1, "won": True}


def test_best_of_three_plays_on_until_two_wins_and_the_loser_deals_first(make_event):
    event, (a, b) = make_event(2, kind=Tournament.Kind.KNOCKOUT, best_of=3)
    services.start(event)
    pairing = Pairing.objects.get(round__tournament=event)
    _play(pairing.games.get(number=1), a)
    second = pairing.games.get(number=2)
    assert second.game.first_dealer == 1  # B lost and sits in seat 1: B deals
    _play(second, b)
    third = pairing.games.get(number=3)
    assert third.game.first_dealer == 0
    _play(third, a, "skunk")
    pairing.refresh_from_db()
    assert (pairing.status, pairing.winner, pairing.home_wins, pairing.away_wins) == ("finished", a, 2, 1)
    assert not pairing.games.filter(number=4).exists()
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED


def test_a_forfeit_counts_as_a_forfeit_win(make_event, django_user_model):
    event, (a, b) = make_event(2, kind=Tournament.Kind.LEAGUE, scoring=Tournament.Scoring.ACC)
    services.start(event)
    pg = PairingGame.objects.get(pairing__round__tournament=event)
    with pytest.raises(services.TournamentError, match="reason"):
        services.forfeit_game(pg, a, reason=" ", actor=None)
    services.forfeit_game(pg, a, reason="did not play", actor=None)
    rows = selectors.table(event)
    assert [(r["player"], r["points"]) for r in rows] == [("B", 2), ("A", 0)]
    with pytest.raises(services.TournamentError, match="already over"):
        services.forfeit_game(pg, b, reason="again", actor=None)


def test_bad_starts_and_entries_are_refused_and_change_nothing(make_event):
    event, _ = make_event(1, kind=Tournament.Kind.KNOCKOUT)
    with pytest.raises(services.TournamentError, match="at least two entrants; it has 1"):
        services.start(event)
    event.refresh_from_db()
    assert event.status == Tournament.Status.DRAFT and not event.rounds.exists()
    entrant = event.entrants.get()
    with pytest.raises(services.TournamentError, match="Already entered: A"):
        entries.add_entrants(event, f"new@example.com {entrant.player.email}", actor=None)
    with pytest.raises(services.TournamentError, match="Listed twice"):
        entries.add_entrants(event, "x@example.com, X@example.com", actor=None)
    assert event.entrants.count() == 1
    duplicate, _ = make_event(3, kind=Tournament.Kind.DUPLICATE)
    with pytest.raises(services.TournamentError, match="at least four"):
        services.start(duplicate)
    league, _ = make_event(2)
    services.start(league)
    with pytest.raises(services.TournamentError, match="already started"):
        services.start(league)
    with pytest.raises(services.TournamentError, match="entries are closed"):
        entries.add_entrants(league, "late@example.com", actor=None)


def test_a_knockout_is_seeded_by_rating_then_entry_order(make_event):
    event, (a, b, c, d) = make_event(4, kind=Tournament.Kind.KNOCKOUT)
    Rating.objects.create(player=d.player, family="two", mu=30.0, sigma=2.0, games=20)  # strong
    Rating.objects.create(
        player=a.player, family="two", mu=10.0, sigma=5.0, games=5
    )  # below a new player (25 - 3 x 25/3 = 0)
    Rating.objects.create(player=b.player, family="three", mu=40.0, sigma=1.0, games=50)  # another family
    services.start(event)
    assert [e.player.display_name for e in event.entrants.order_by("seed")] == ["D", "B", "C", "A"]
    first = event.rounds.get(number=1).pairings.order_by("table")
    assert [(p.home.seed, p.away.seed) for p in first] == [(1, 4), (2, 3)]


def test_a_result_whose_signal_was_lost_is_counted_by_the_sweep(make_event):
    event, (a, b) = make_event(2)
    services.start(event)
    pg = PairingGame.objects.get(pairing__round__tournament=event)
    finish_game(pg.game, 0)  # outside committed(): the task never ran
    pg.refresh_from_db()
    assert not pg.counted
    with time_machine.travel(timezone.now() + follow_ups.REQUEUE_AFTER + timedelta(seconds=1)):
        assert follow_ups.sweep() >= 1  # the after-commit sweeper: this listener's row among others
        pg.refresh_from_db()
        assert pg.counted and pg.winner == pg.pairing.home
        assert follow_ups.sweep() == 0


def test_a_late_player_forfeits_by_the_events_clock_rules_and_the_result_counts(make_event):
    event, (a, b) = make_event(2, days_per_move=1, timeout_policy=Tournament.Timeout.FORFEIT)
    services.start(event)
    pg = PairingGame.objects.select_related("game").get(pairing__round__tournament=event)
    assert (pg.game.days_per_move, pg.game.timeout_policy) == (1, "forfeit")
    type(a.player).objects.filter(pk__in=[a.player_id, b.player_id]).update(vacation_seconds=0)
    deadline = pg.game.seats.filter(to_act=True).order_by("deadline").first().deadline
    with at(deadline + timedelta(minutes=5)):
        assert timeouts.sweep().get("forfeit") == 1
    pg.refresh_from_db()
    assert pg.counted and pg.kind == PairingGame.Kind.FORFEIT
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED
    assert [(r["player"], r["points"]) for r in selectors.table(event)][0][1] == 1
