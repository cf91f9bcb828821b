"""Games played face to face: a result entered afterwards is a finished game like any other."""

import datetime

import pytest
from django.core.management import call_command
from django.urls import reverse

from games import services, signals, table_results
from games.models import Event, Game
from tests.factories import committed, make_user

pytestmark = pytest.mark.django_db


def _players(n):
    return [make_user() for _ in range(n)]


def test_a_table_result_is_a_finished_rated_game_whose_winner_and_skunk_the_rules_decide():
    a, b = _players(2)
    organiser = make_user()
    game = table_results.record_table_result(
        [a, b], [85, 121], entered_by=organiser, played_on=datetime.date(2026, 11, 30)
    )
    game.refresh_from_db()
    assert game.is_finished and game.rated and game.played_at_table
    assert game.played_on == datetime.date(2026, 11, 30)
    assert game.winner_side == 1 and game.finish == Game.Finish.TARGET and game.skunk == "skunk"
    assert game.assistance == Game.Assistance.OFF_BY_RULE
    assert list(game.seats.values_list("player", flat=True)) == [a.pk, b.pk]
    [event] = game.events.all()
    assert event.kind == "table_result" and event.actor == organiser and event.source == Event.Source.ADMIN
    assert services.engine_state(game).scores == (85, 121)


@pytest.mark.parametrize(
    "target, loser, skunk",
    [
        (121, 91, ""),
        (121, 90, "skunk"),
        (121, 61, "skunk"),
        (121, 60, "double_skunk"),
        (61, 31, ""),
        (61, 30, "skunk"),
        (61, 0, "skunk"),
    ],
)
def test_the_skunk_lines_are_the_rules_lines_for_the_target(target, loser, skunk):
    game = table_results.record_table_result(_players(2), [target, loser], entered_by=None, target=target)
    assert game.winner_side == 0 and game.skunk == skunk


def test_three_players_and_partnerships():
    three = table_results.record_table_result(_players(3), [100, 121, 70], entered_by=None, variant="three")
    assert three.winner_side == 1 and three.skunk == ""  # the best-placed loser is not skunked
    four = table_results.record_table_result(_players(4), [121, 55], entered_by=None, variant="four")
    assert four.winner_side == 0 and four.skunk == "double_skunk"
    assert list(four.seats.values_list("team", flat=True)) == [0, 1, 0, 1]


def test_the_replay_of_a_table_game_agrees_with_its_snapshot():
    table_results.record_table_result(_players(2), [121, 100], entered_by=None)
    call_command("verify_games")  # raises CommandError on a disagreement


def test_game_finished_is_sent_after_commit():
    heard = []

    def listen(game_id):
        heard.append(game_id)

    signals.game_finished.listen("test.listen", listen)
    try:
        with committed():
            game = table_results.record_table_result(_players(2), [121, 100], entered_by=None)
            assert heard == []
        assert heard == [game.pk]
    finally:
        signals.game_finished.stop_listening("test.listen")


@pytest.mark.parametrize(
    "count, scores, kwargs, message",
    [
        (2, [120, 100], {}, "The winner's score is the target, 121: nobody reached it."),
        (2, [121, 121], {}, "Only one side can reach 121"),
        (2, [130, 100], {}, "no score is above it"),
        (2, [121, -5], {}, "A score cannot be negative."),
        (2, [121], {}, "A result needs 2 scores"),
        (3, [121, 100], {}, "A game of two players needs 2 players, not 3."),
        (3, [121, 100, 90, 10], {"variant": "three"}, "A result needs 3 scores"),
        (2, [61, 20], {"target": 61, "played_on": datetime.date(2099, 1, 1)}, "cannot be in the future"),
        (2, [121, 100], {"variant": "nine"}, "There is no variant"),
    ],
)
def test_an_impossible_result_is_refused_and_nothing_is_written(count, scores, kwargs, message):
    with pytest.raises(table_results.TableResultError) as refused:
        table_results.record_table_result(_players(count), scores, entered_by=None, **kwargs)
    assert message in refused.value.message
    assert not Game.objects.exists()


def test_a_player_twice_or_a_computer_seat_is_refused():
    a, b = _players(2)
    with pytest.raises(table_results.TableResultError, match="named twice"):
        table_results.record_table_result([a, a], [121, 100], entered_by=None)
    with pytest.raises(table_results.TableResultError, match="between people"):
        table_results.record_table_result([a, None], [121, 100], entered_by=None)
    assert not Game.objects.exists()


def test_the_game_page_and_record_of_a_table_game(client):
    a, b = _players(2)
    game = table_results.record_table_result([a, b], [121, 95], entered_by=None)
    client.force_login(a)
    for name in ("games:game", "games:record", "games:state"):
        response = client.get(reverse(name, args=[game.pk]))
        assert response.status_code == 200, name
    client.logout()
    assert client.get(reverse("games:game", args=[game.pk])).status_code in (200, 302)


def test_a_table_games_page_has_no_review_and_nothing_pegged(client):
    a, b = _players(2)
    game = table_results.record_table_result([a, b], [121, 95], entered_by=None)
    client.force_login(a)
    html = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Played at the table: the result was entered afterwards" in html
    assert 'id="review"' not in html and "How it ended" not in html and "Last points pegged" not in html
