"""A plan for every hand (User.standing_plan): set at each deal as the hand's plan, replaced by the
hand's own plan, kept in the profile, and with rules that answer every play, one email a hand."""

import random

import pytest
from django.core import mail
from django.urls import reverse

from games import cribbage, services
from games.models import Event
from games.selectors import view_for
from tests.factories import make_user, start_two_player_game

pytestmark = pytest.mark.django_db

EVERY_PLAY = [{"rule": "score_first"}, {"rule": "low_first"}]


@pytest.fixture
def game(django_capture_on_commit_callbacks):
    alice = make_user("alice@example.com", "Alice", allow_forced_moves=False, password=None, standing_plan=EVERY_PLAY)
    bob = make_user("bob@example.com", "Bob", allow_forced_moves=False, password=None)
    with django_capture_on_commit_callbacks(execute=True):
        return start_two_player_game(players=[alice, bob], rng=random.Random(7))


def _discard(game, seat):
    view = view_for(game, seat)
    services.submit_move(game, seat, {"kind": "discard", "cards": list(view.hand[:2])})
    game.refresh_from_db()


def test_each_deal_sets_the_standing_plan_as_the_hands_plan_seen_by_its_seat_alone(game):
    plans = game.events.filter(kind="plan")
    assert list(plans.values_list("seat", "source", "data__rules")) == [(0, Event.Source.PLAN, EVERY_PLAY)]
    assert view_for(game, 0).plan["words"] == "plan score first, low first"
    assert view_for(game, 1).plan is None


def test_a_standing_plan_plays_the_whole_hand_one_email_a_hand(game, django_capture_on_commit_callbacks):
    bob_plan = cribbage.read_plan("high first")
    hand = view_for(game, 0).hand_number
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        _discard(game, 0)
        _discard(game, 1)
        services.submit_move(game, 1, bob_plan)  # Bob plans this hand: every card of both is played
    game.refresh_from_db()
    view = view_for(game, 0)
    assert view.hand_number == hand + 1 and view.phase == "discard"
    plays = game.events.filter(kind="play", seat=0)
    assert plays.count() == 4 and set(plays.values_list("source", flat=True)) == {Event.Source.PLAN}
    assert sorted(m.to[0] for m in mail.outbox) == ["alice@example.com", "bob@example.com"]  # the next discard
    # The next hand has Alice's standing plan again, and Bob (none) has none.
    assert game.events.filter(kind="plan", seat=0).count() == 2


def test_a_hands_own_plan_replaces_the_standing_plan_for_that_hand_only(game):
    services.submit_move(game, 0, cribbage.read_plan("ask"))
    game.refresh_from_db()
    assert view_for(game, 0).plan["words"] == "plan ask"


def test_a_stored_plan_the_engine_refuses_is_left_out_and_the_game_goes_on():
    alice = make_user(standing_plan=[{"rule": "no_such_rule"}])
    game = start_two_player_game(players=[alice, make_user()])
    assert game.events.filter(kind="plan").count() == 0 and view_for(game, 0).phase == "discard"


def test_the_profile_keeps_a_standing_plan_and_refuses_one_that_names_cards(client):
    user = make_user()
    client.force_login(user)
    form = {"display_name": "Ann", "time_zone": "UTC", "notify": "every_turn", "digest_hour": "8"}
    response = client.post(reverse("accounts:profile"), {**form, "standing_plan": "score first, low first"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.standing_plan == EVERY_PLAY
    assert 'value="score first, low first"' in client.get(reverse("accounts:profile")).text
    response = client.post(reverse("accounts:profile"), {**form, "standing_plan": "7C 8D"})
    assert response.status_code == 400 and "names no cards" in response.text
    user.refresh_from_db()
    assert user.standing_plan == EVERY_PLAY
    client.post(reverse("accounts:profile"), form)  # not sent: unchanged
    user.refresh_from_db()
    assert user.standing_plan == EVERY_PLAY
    client.post(reverse("accounts:profile"), {**form, "standing_plan": ""})
    user.refresh_from_db()
    assert user.standing_plan == []
