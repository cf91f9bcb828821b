"""An ACC club night season through its services (tournaments.club_nights): the organiser enters a
night's games, players report theirs and the opponent confirms, a dispute waits for the organiser,
nine games a player, the night closed with its Grass Roots Points, its Grand Slam and its email."""

import pytest
from django.core import mail
from django.urls import reverse

from games.models import Game
from mail.models import OutboundEmail
from tests.factories import committed
from tournaments import club_nights, selectors, services
from tournaments.models import Award, NightGame, Tournament
from tournaments.services import TournamentError


@pytest.fixture
def season(make_event, organisers):
    """A running club night season of four: (season, [A, B, C, D] entrants, organiser)."""
    organiser = organisers[0]
    event, entrants = make_event(4, organiser=organiser, kind=Tournament.Kind.CLUB_NIGHT, name="Tuesday club")
    services.start(event, actor=organiser)
    event.refresh_from_db()
    return event, entrants, organiser


def _nine_for_a(night, entrants, organiser):
    """A beats B, C and D three times each, the first game a skunk: 8 x 2 + 3 = 19 game points."""
    a, *others = entrants
    games = [(a, other, 121, 80 if n == 0 and i == 0 else 100) for i, other in enumerate(others) for n in range(3)]
    return club_nights.enter_games(night, games, actor=organiser)


def test_a_night_entered_by_the_organiser_closes_with_its_points_its_grand_slam_and_emails(season):
    event, entrants, organiser = season
    assert event.status == Tournament.Status.RUNNING and not event.rounds.exists()
    night = club_nights.open_night(event, actor=organiser)
    games = _nine_for_a(night, entrants, organiser)
    assert [g.status for g in games] == [NightGame.Status.COUNTED] * 9
    assert all(g.game.played_at_table and g.game.status == Game.Status.FINISHED for g in games)
    assert games[0].kind == "skunk" and games[1].kind == "win"
    assert selectors.table(event)[0]["grass_roots"] == 0  # an open night counts in the season when it closes

    with committed():
        short = club_nights.close_night(night, actor=organiser)
    a, b, c, d = entrants
    assert short == [b, c, d]  # three games each: named to the organiser
    night_rows = selectors.night_table(night)
    # B, C and D level on nothing: spread (B was skunked: -83; C and D -63), then entry order.
    assert [(r["player"], r["points"], r["grass_roots"], r["won"], r["spread"]) for r in night_rows] == [
        ("A", 19, 69, 9, 209),
        ("C", 0, 0, 0, -63),
        ("D", 0, 0, 0, -63),
        ("B", 0, 0, 0, -83),
    ]
    assert [(r["player"], r["grass_roots"], r["nights"]) for r in selectors.table(event)][0] == ("A", 69, 1)
    assert list(Award.objects.values_list("entrant__player__display_name", "kind")) == [("A", "grand_slam")]

    rows = OutboundEmail.objects.filter(kind=OutboundEmail.Kind.CLUB_NIGHT)
    assert sorted(rows.values_list("user__display_name", flat=True)) == ["A", "B", "C", "D"]
    sent = {m.to[0]: m for m in mail.outbox if m.tags == ["club_night"]}
    message = sent[a.player.email]
    assert message.subject == "Club night results: Tuesday club, night 1"
    assert "1. A: 69 GRPs, 19 game points, 9 of 9, +209" in message.body
    assert "A Grand Slam: all nine games of a night won: A" in message.body
    assert "The season so far" in message.body


def test_a_player_reports_a_game_and_it_counts_when_the_opponent_confirms(season):
    event, (a, b, c, d), organiser = season
    night = club_nights.open_night(event, actor=organiser)
    report = club_nights.report_game(night, b.player, c, 121, 104)
    assert report.status == NightGame.Status.REPORTED and report.game is None
    assert selectors.night_table(night) == []  # not counted yet
    with pytest.raises(TournamentError, match="Only the opponent"):
        club_nights.confirm_game(report, b.player)  # not by the one who reported it
    with pytest.raises(TournamentError, match="Only the opponent"):
        club_nights.confirm_game(report, d.player)
    counted = club_nights.confirm_game(report, c.player)
    assert counted.status == NightGame.Status.COUNTED and counted.winner == b
    assert counted.game.played_at_table and [s.player for s in counted.game.seats.order_by("number")] == [
        b.player,
        c.player,
    ]
    assert [(r["player"], r["points"]) for r in selectors.night_table(night)] == [("B", 2), ("C", 0)]
    with pytest.raises(TournamentError, match="counted already"):
        club_nights.confirm_game(report, c.player)


def test_a_disputed_game_waits_uncounted_and_the_night_stays_open_until_the_organiser_decides(season):
    event, (a, b, c, d), organiser = season
    night = club_nights.open_night(event, actor=organiser)
    report = club_nights.report_game(night, b.player, c, 121, 60)
    club_nights.dispute_game(report, c.player)
    report.refresh_from_db()
    assert report.status == NightGame.Status.DISPUTED and report.game is None
    with pytest.raises(TournamentError, match="You disputed this game"):
        club_nights.confirm_game(report, c.player)
    with pytest.raises(TournamentError, match="wait for a confirmation or your decision"):
        club_nights.close_night(night, actor=organiser)
    assert night.games.get().status == NightGame.Status.DISPUTED  # left pending, nothing counted
    club_nights.drop_game(report, actor=organiser)  # the organiser decides: it was wrong
    club_nights.enter_game(night, c, b, 121, 118, actor=organiser)
    club_nights.close_night(night, actor=organiser)
    assert [(r["player"], r["points"]) for r in selectors.table(event)][:2] == [("C", 2), ("A", 0)]


def test_a_night_is_nine_games_a_player_a_tenth_refused_and_nothing_written(season):
    event, entrants, organiser = season
    a, b, c, d = entrants
    night = club_nights.open_night(event, actor=organiser)
    _nine_for_a(night, entrants, organiser)
    games_before = Game.objects.count()
    with pytest.raises(TournamentError, match="A has nine games in this night already"):
        club_nights.enter_games(night, [(b, c, 121, 90), (a, b, 121, 90)], actor=organiser)
    with pytest.raises(TournamentError, match="A has nine games"):
        club_nights.report_game(night, b.player, a, 121, 100)
    assert Game.objects.count() == games_before and night.games.count() == 9  # all or nothing


def test_impossible_scores_and_strangers_are_refused(season, make_event):
    event, (a, b, c, d), organiser = season
    night = club_nights.open_night(event, actor=organiser)
    with pytest.raises(TournamentError, match="Game 1"):
        club_nights.enter_game(night, a, b, 100, 90, actor=organiser)  # nobody reached 121
    with pytest.raises(TournamentError, match="named twice"):
        club_nights.enter_game(night, a, a, 121, 90, actor=organiser)
    other, (stranger, *_) = make_event(2)
    with pytest.raises(TournamentError, match="entrants of this season"):
        club_nights.enter_game(night, a, stranger, 121, 90, actor=organiser)
    with pytest.raises(TournamentError, match="not entered"):
        club_nights.report_game(night, stranger.player, a, 121, 90)
    with pytest.raises(TournamentError, match="A night is open already"):
        club_nights.open_night(event, actor=organiser)
    assert not night.games.exists()


def test_a_closed_night_cannot_change_and_the_season_ends_with_the_final_table(season):
    event, (a, b, c, d), organiser = season
    night = club_nights.open_night(event, actor=organiser)
    club_nights.enter_game(night, a, b, 121, 100, actor=organiser)
    club_nights.record_award(night, b, Award.Kind.HAND_28, actor=organiser)
    club_nights.close_night(night, actor=organiser)
    with pytest.raises(TournamentError, match="closed"):
        club_nights.enter_game(night, c, d, 121, 100, actor=organiser)
    with committed():
        club_nights.finish_season(event, actor=organiser)
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED
    final = [m for m in mail.outbox if m.tags == ["club_night"] and m.subject == "The final table: Tuesday club"]
    assert len(final) == 4 and "The final table" in final[0].body
    assert [a.kind for a in selectors.awards_of(b.player)] == ["hand_28"]


def test_on_the_site_a_player_reports_and_the_opponent_confirms_on_the_season_page(season, client):
    event, (a, b, c, d), organiser = season
    night = club_nights.open_night(event, actor=organiser)
    client.force_login(b.player)
    page = client.get(event.get_absolute_url()).content.decode()
    assert "Night 1: report a game" in page and "Grass Roots Points" in page
    response = client.post(
        reverse("tournaments:report", args=[event.slug]), {"opponent": c.pk, "my_score": 121, "their_score": 99}
    )
    assert response.status_code == 302
    report = night.games.get()
    assert (report.first, report.status) == (b, NightGame.Status.REPORTED)
    client.force_login(c.player)
    page = client.get(event.get_absolute_url()).content.decode()
    assert "B reported your game: B 121, you 99." in page
    client.post(reverse("tournaments:confirm_report", args=[event.slug, report.pk]))
    report.refresh_from_db()
    assert report.status == NightGame.Status.COUNTED
    # Bad input: a report with no scores changes nothing and says why.
    response = client.post(reverse("tournaments:report", args=[event.slug]), {"opponent": b.pk}, follow=True)
    assert "Nothing was reported" in response.content.decode() and night.games.count() == 1
    page = client.get(event.get_absolute_url()).content.decode()
    assert "<td>1 of 1</td>" in page


def test_awards_are_on_the_player_page(season, client):
    event, entrants, organiser = season
    a, b, c, d = entrants
    night = club_nights.open_night(event, actor=organiser)
    _nine_for_a(night, entrants, organiser)
    club_nights.record_award(night, c, Award.Kind.HAND_29, actor=organiser)
    with pytest.raises(TournamentError, match="28 or a 29 hand"):
        club_nights.record_award(night, c, Award.Kind.GRAND_SLAM, actor=organiser)  # earned, not given
    club_nights.close_night(night, actor=organiser)
    client.force_login(a.player)
    page = client.get(reverse("ratings:player", args=[a.player.pk])).content.decode()
    assert "Club night awards" in page and "A Grand Slam: all nine games of a night won · " in page
    page = client.get(reverse("ratings:player", args=[c.player.pk])).content.decode()
    assert "A 29 hand · " in page
    page = client.get(reverse("ratings:player", args=[b.player.pk])).content.decode()
    assert "Club night awards" not in page


def test_the_admin_pages_refuse_another_organiser_and_bad_rows_change_nothing(season, organisers, client):
    event, (a, b, c, d), organiser = season
    night = club_nights.open_night(event, actor=organiser)
    pages = [
        reverse("admin:tournaments_tournament_nights", args=[event.pk]),
        reverse("admin:tournaments_tournament_night", args=[event.pk, night.pk]),
    ]
    client.force_login(organisers[1])  # staff, organising nothing of this season
    assert [client.get(page).status_code for page in pages] == [403, 403]
    assert client.post(pages[1], {"do": "close"}).status_code == 403
    client.force_login(organiser)
    assert [client.get(page).status_code for page in pages] == [200, 200]
    rows = {"games-TOTAL_FORMS": 9, "games-INITIAL_FORMS": 0, "do": "enter"}
    bad = {
        **rows,
        "games-0-first": a.pk,
        "games-0-first_score": "١٢١",
        "games-0-second": b.pk,
        "games-0-second_score": 90,
    }
    response = client.post(pages[1], bad)
    assert response.status_code == 400 and "Write a whole number in the digits 0 to 9." in response.content.decode()
    both_won = {**rows, "games-0-first": a.pk, "games-0-first_score": 121, "games-0-second": b.pk}
    response = client.post(pages[1], {**both_won, "games-0-second_score": 121})
    assert response.status_code == 400 and "Nothing was entered" in response.content.decode()
    assert not night.games.exists()
    response = client.post(pages[1], {**both_won, "games-0-second_score": 95}, follow=True)
    assert "Entered 1 game(s) of night 1." in response.content.decode() and night.games.count() == 1
    client.post(pages[1], {"do": "close"})
    response = client.post(pages[1], {**both_won, "games-0-second_score": 95})
    assert response.status_code == 400 and "Night 1 is closed" in response.content.decode()
    assert night.games.count() == 1
