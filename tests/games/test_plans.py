"""Pegging plans through the move service: played from the log, private, no email, no clock."""

import random
import re

import pytest
from django.core import mail
from django.urls import reverse

from games import cribbage, services
from games.models import Event
from games.selectors import record_for, view_for
from mail.models import OutboundEmail
from tests.factories import make_user, start_two_player_game

pytestmark = pytest.mark.django_db


def _plan_words(game, seat):
    return "plan " + " ".join(view_for(game, seat).hand)


def _discard_and_plan(game, seat):
    view = view_for(game, seat)
    throw = list(view.hand[: view.rules["discard_count"]])
    services.submit_move(game, seat, {"kind": "discard", "cards": throw})
    game.refresh_from_db()
    services.submit_move(game, seat, cribbage.read_plan(_plan_words(game, seat)[5:]))
    game.refresh_from_db()


@pytest.fixture
def game(django_capture_on_commit_callbacks):
    alice = make_user("alice@example.com", "Alice", allow_forced_moves=False, password=None)
    bob = make_user("bob@example.com", "Bob", allow_forced_moves=False, password=None)
    with django_capture_on_commit_callbacks(execute=True):
        return start_two_player_game(players=[alice, bob], rng=random.Random(7))


def test_a_hand_played_from_plans_sends_no_email_until_the_next_discard(game, django_capture_on_commit_callbacks):
    mail.outbox.clear()
    hand, before = view_for(game, 0).hand_number, game.seq
    with django_capture_on_commit_callbacks(execute=True):
        _discard_and_plan(game, 0)
        _discard_and_plan(game, 1)
    game.refresh_from_db()
    view = view_for(game, 0)
    assert view.phase == "discard" and view.hand_number == hand + 1
    plays = game.events.filter(kind="play")
    assert plays.count() and set(plays.values_list("source", flat=True)) == {Event.Source.PLAN}
    # One email each, the next discard, which tells the last hand's play and show.
    assert sorted(m.to[0] for m in mail.outbox) == ["alice@example.com", "bob@example.com"]
    body = mail.outbox[0].body
    assert "the play (your plan played for you)" in body and "the show:" in body
    assert re.search(r"^  crib \S+ \S+ plan ", body, re.M)  # how to plan, in every discard email
    # No turn email went between the discards and the next deal (one owed by the last discard,
    # before the plan that answered it, is skipped).
    rows = OutboundEmail.objects.filter(game=game, kind="turn", seq__gt=before, status="sent")
    deal = game.events.filter(kind="deal").order_by("-seq").first().seq
    assert sorted(rows.values_list("seat", flat=True)) == [0, 1] and all(r.seq >= deal for r in rows)


def test_the_log_replays_to_the_snapshot_with_plans(game):
    _discard_and_plan(game, 0)
    _discard_and_plan(game, 1)
    game.refresh_from_db()
    rules = cribbage.Rules.from_json(game.rules)
    events = [e.data for e in game.events.engine_moves()]
    assert cribbage.replay(rules, events, first_dealer=game.first_dealer) == services.engine_state(game)


def test_a_plan_is_private_in_every_view_json_and_record(game):
    view = view_for(game, 0)
    services.submit_move(game, 0, cribbage.read_plan(" ".join(reversed(view.hand))))
    game.refresh_from_db()
    secret = view_for(game, 0).plan["words"]
    assert secret.startswith("plan ")
    for seat in (1, None):
        assert view_for(game, seat).plan is None
        assert secret[5:] not in repr(view_for(game, seat)) and secret[5:] not in repr(record_for(game, seat))
    assert "plan" in repr(view_for(game, 0))


def test_a_refused_plan_names_the_problem_and_changes_nothing(game):
    seq = game.seq
    hand = list(view_for(game, 1).hand)
    with pytest.raises(services.AgainstTheRules) as refused:
        services.submit_move(game, 0, {"kind": "plan", "order": [hand[0]], "rules": []})
    assert f"You do not hold {hand[0]}" in refused.value.message
    game.refresh_from_db()
    assert game.seq == seq and view_for(game, 0).plan is None


def test_nobody_else_can_tell_a_plan_was_made(game, client):
    """Another seat's plan moves no sequence number they or a spectator are shown: not the
    page's forms, not its poll, not a move link's."""
    before = {seat: view_for(game, seat).seq for seat in (0, None)}
    client.force_login(game.seats.get(number=0).player)
    page = client.get(game.get_absolute_url()).content.decode()
    polled = client.get(reverse("games:state", args=[game.pk])).json()["seq"]
    services.submit_move(game, 1, cribbage.read_plan(" ".join(view_for(game, 1).hand)))
    game.refresh_from_db()
    assert game.seq > before[0]
    assert {seat: view_for(game, seat).seq for seat in (0, None)} == before
    assert client.get(game.get_absolute_url()).content.decode().count(f'value="{before[0]}"') == page.count(
        f'value="{before[0]}"'
    )
    assert client.get(reverse("games:state", args=[game.pk])).json()["seq"] == polled == before[0]
    # The planner sees their own plan, and moves against what they were shown.
    own = view_for(game, 1).seq
    assert own == game.seq
    services.submit_move(game, 1, view_for(game, 1).legal_moves[0], expected_seq=own)


def test_another_seats_plan_leaves_a_move_link_good(game):
    seq = game.seq
    services.submit_move(game, 1, cribbage.read_plan(" ".join(view_for(game, 1).hand)))
    game.refresh_from_db()
    move = view_for(game, 0).legal_moves[0]
    services.submit_move(game, 0, move, expected_seq=seq)  # not stale: nothing seat 0 can see moved


def test_a_plan_that_cannot_answer_asks_with_a_turn_email(game, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        for seat in (0, 1):
            view = view_for(game, seat)
            services.submit_move(game, seat, {"kind": "discard", "cards": list(view.hand[:2])})
            game.refresh_from_db()
    turn = view_for(game, 0).turn
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.submit_move(game, turn, cribbage.read_plan("ask"))
    game.refresh_from_db()
    assert view_for(game, 0).turn == turn and game.seats.get(number=turn).to_act
    assert mail.outbox == []  # asked already: the email it had stands


def test_when_a_plan_asks_the_turn_email_shows_the_plan_to_its_player_alone(game, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        for seat in (0, 1):
            services.submit_move(game, seat, {"kind": "discard", "cards": list(view_for(game, seat).hand[:2])})
            game.refresh_from_db()
    pone = view_for(game, 0).turn
    dealer = 1 - pone
    lead = next(c for c in view_for(game, pone).hand if cribbage.card_from_code(c).value <= 10)
    with django_capture_on_commit_callbacks(execute=True):
        services.submit_move(game, pone, cribbage.read_plan(f"{lead} ask"))
        game.refresh_from_db()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.submit_move(game, dealer, view_for(game, dealer).legal_moves[0])
    game.refresh_from_db()
    if view_for(game, pone).turn != pone:
        pytest.skip("the dealer's card made the count go on without the pone")
    (email,) = [m for m in mail.outbox if m.to == [game.seats.get(number=pone).player.email]]
    assert f"Your plan (only you see it): plan {lead} ask" in email.body
    assert all("Your plan" not in m.body for m in mail.outbox if m is not email)
