"""Practice games are practice: no clock, no vacation, their own list, and resigning is a plain loss."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from clock import reminders, selectors, timeouts, vacation
from games import computer_games, services
from games.models import Seat
from tests.factories import make_user, start_two_player_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def me():
    return make_user(display_name="Pat", allow_forced_moves=False, vacation_days_at=timezone.now())


@pytest.fixture
def practice(me):
    return computer_games.start_practice(me)


def my_seat(game):
    return Seat.objects.get(game=game, number=0)


def test_a_practice_turn_has_no_deadline_and_no_reminder(practice):
    seat = my_seat(practice)
    assert seat.to_act and seat.deadline is None and seat.remind_at is None


def test_the_clock_sweeps_ignore_practice_games_even_with_an_old_deadline(practice):
    past = timezone.now() - timedelta(days=40)
    Seat.objects.filter(pk=my_seat(practice).pk).update(deadline=past, remind_at=past)
    assert timeouts.due_seats(timezone.now()) == []
    assert my_seat(practice).pk not in reminders.due_reminders(timezone.now())
    assert timeouts.sweep() == {}
    practice.refresh_from_db()
    assert not practice.is_finished


def test_a_vacation_stops_no_practice_clock_and_lists_no_practice_game(me, practice):
    people = start_two_player_game(players=[me, make_user()])
    _, paused = vacation.start_vacation(me, 2)
    assert paused == [people.pk]
    assert my_seat(practice).paused_until is None
    assert not practice.events.filter(kind="vacation_start").exists()
    assert selectors.turns_running_on(me, paused) == []


def test_the_game_page_shows_no_clock_rules_for_practice(client, me, practice):
    client.force_login(me)
    html = client.get(reverse("games:game", args=[practice.pk])).content.decode()
    assert "days per move" not in html and "out of time" not in html
    assert "No clock: a practice game" in html


def test_my_games_lists_practice_apart_from_your_turn(client, me, practice):
    people = start_two_player_game(players=[me, make_user()])
    client.force_login(me)
    html = client.get(reverse("games:my_games")).content.decode()
    turn = html.split('id="turn-heading"')[1].split("</section>")[0]
    own = html.split('id="practice-heading"')[1].split("</section>")[0]
    assert "Your turn (1)" in html and f"Game {people.pk}:" in turn and f"Game {practice.pk}:" not in turn
    assert f"Game {practice.pk}:" in own and "Due" not in own


def test_resigning_practice_is_a_plain_loss_but_between_people_concedes_the_board(me, practice):
    services.submit_move(practice, 0, {"kind": "resign"})
    practice.refresh_from_db()
    assert practice.is_finished and practice.finish == "resign" and practice.skunk == ""

    people = start_two_player_game(players=[me, make_user()])
    services.submit_move(people, 0, {"kind": "resign"})
    people.refresh_from_db()
    assert people.finish == "resign" and people.skunk == "double_skunk"


def test_the_practice_page_starts_a_game_by_email_with_the_computer_waiting(client, me):
    from games.models import Game

    client.force_login(me)
    form = {"level": "easy", "variant": "two", "target": "121", "by_email": "3600"}
    response = client.post(reverse("games:practice"), form)
    game = Game.objects.get()
    assert response.status_code == 302 and response.url == game.get_absolute_url()
    assert (game.practice, game.computer_delay, game.assistance) == (False, timedelta(hours=1), "coach")
    assert Seat.objects.get(game=game, number=0).deadline is not None  # a clock, as in any game
    response = client.post(reverse("games:practice"), {**form, "by_email": "999"})
    assert response.status_code == 400 and Game.objects.count() == 1
