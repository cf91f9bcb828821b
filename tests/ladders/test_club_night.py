"""Club nights: an organiser enters a game played at the table; it moves the ladder and the ratings."""

import datetime

import pytest
from django.core.management import call_command
from django.urls import reverse

from games.models import Game
from ladders import club_night, selectors, services
from ladders.models import LadderGame, Match
from ratings.arithmetic import NEW
from ratings.models import Rating, RatingChange
from tests.factories import committed, make_user

pytestmark = pytest.mark.django_db

PLAYED = datetime.date(2026, 11, 27)


def _url(ladder):
    return reverse("admin:ladders_ladder_club_night", args=[ladder.pk])


def _form(first, second, first_score, second_score, played_on=PLAYED):
    return {
        "first": first.pk,
        "second": second.pk,
        "first_score": first_score,
        "second_score": second_score,
        "played_on": played_on.isoformat(),
    }


def _positions(ladder):
    return {e.player.display_name: e.position for e in ladder.entrants.filter(active=True).select_related("player")}


def _ratings():
    return sorted(Rating.objects.values_list("player", "family", "mu", "sigma", "games"))


def test_a_club_night_result_on_the_form_moves_the_ladder_and_the_ratings(client, organisers, two_ladders):
    (ladder, (a, b, c, d)), _ = two_ladders
    client.force_login(organisers[0])
    page = client.get(_url(ladder))
    assert page.status_code == 200 and "one-game match" in page.content.decode()
    with committed():
        response = client.post(_url(ladder), _form(d, b, 121, 85))  # the lower-placed D skunks B
    assert response.status_code == 302
    assert _positions(ladder) == {"A": 1, "D": 2, "B": 3, "C": 4}
    match = Match.objects.get()
    assert (match.challenger, match.defender, match.winner) == (d, b, d)
    assert match.status == Match.Status.FINISHED and match.challenge.created_by == organisers[0]
    lg = LadderGame.objects.get()
    assert lg.counted and lg.kind == "skunk" and lg.value == ladder.value_skunk
    assert (lg.challenger_score, lg.defender_score) == (121, 85)
    game = lg.game
    assert game.played_at_table and game.rated and game.played_on == PLAYED and game.winner_side == 0
    row = next(r for r in selectors.standings(ladder) if r["player"] == "D")
    assert (row["games"], row["wins"], row["skunks_given"], row["games_won"]) == (1, 1, 1, ladder.value_skunk)
    assert (
        Rating.objects.get(player=d.player, family="two").mu
        > NEW.mu
        > Rating.objects.get(player=b.player, family="two").mu
    )
    assert "At the club on 27 Nov 2026" in ladder.history.order_by("-seq").first().text
    # The recompute gives the same ratings.
    before = _ratings()
    call_command("recompute_ratings")
    assert _ratings() == before and RatingChange.objects.filter(game=game).count() == 4


def test_when_the_higher_player_wins_nobody_moves(client, organisers, two_ladders):
    (ladder, (a, b, c, d)), _ = two_ladders
    client.force_login(organisers[0])
    with committed():
        client.post(_url(ladder), _form(c, a, 110, 121))
    assert _positions(ladder) == {"A": 1, "B": 2, "C": 3, "D": 4}
    assert Match.objects.get().winner == a and Game.objects.get().skunk == ""


def test_an_organiser_of_another_ladder_is_refused(client, organisers, two_ladders, ladder_state):
    (ladder_a, (a, b, *_)), (ladder_b, _) = two_ladders
    client.force_login(organisers[1])
    before = ladder_state(ladder_a)
    assert client.get(_url(ladder_a)).status_code == 403
    assert client.post(_url(ladder_a), _form(b, a, 121, 100)).status_code == 403
    assert ladder_state(ladder_a) == before and not Game.objects.exists()
    client.force_login(make_user())  # a player, not staff
    assert client.get(_url(ladder_a)).status_code == 302  # to the admin's login


@pytest.mark.parametrize(
    "scores, message",
    [
        ((121, 121), "Only one side can reach 121"),
        ((119, 100), "nobody reached it"),
        ((121, 130), "no score is above it"),
    ],
)
def test_an_impossible_result_is_refused_and_nothing_changes(
    client, organisers, two_ladders, ladder_state, scores, message
):
    (ladder, (a, b, *_)), _ = two_ladders
    client.force_login(organisers[0])
    before = ladder_state(ladder)
    response = client.post(_url(ladder), _form(b, a, *scores))
    assert response.status_code == 400 and message in response.content.decode()
    assert ladder_state(ladder) == before and not Game.objects.exists() and not Rating.objects.exists()


def test_a_player_twice_a_negative_score_or_a_future_day_is_refused(client, organisers, two_ladders, ladder_state):
    (ladder, (a, b, *_)), _ = two_ladders
    client.force_login(organisers[0])
    before = ladder_state(ladder)
    for form, message in (
        (_form(a, a, 121, 100), "is named twice"),
        (_form(a, b, 121, -3), "greater than or equal to 0"),
        (_form(a, b, 121, 90, datetime.date.today() + datetime.timedelta(days=3)), "cannot be in the future"),
    ):
        response = client.post(_url(ladder), form)
        assert response.status_code == 400 and message in response.content.decode(), message
    assert ladder_state(ladder) == before and not Game.objects.exists()


def test_players_of_another_ladder_are_refused_by_the_service(two_ladders, organisers):
    (ladder_a, (a, *_)), (ladder_b, (x, *_)) = two_ladders
    with pytest.raises(services.LadderError, match="entrants of this ladder"):
        club_night.record_club_night(ladder_a, a, x, [121, 100], played_on=PLAYED, actor=organisers[0])
    assert not Game.objects.exists()


def test_a_short_ladder_uses_the_lines_of_61(make_ladder, organisers):
    ladder, (a, b) = make_ladder(2, organiser=organisers[0], target=61)
    with committed():
        match = club_night.record_club_night(ladder, b, a, [61, 30], played_on=PLAYED, actor=organisers[0])
    assert match.games.get().kind == "skunk" and match.winner == b
