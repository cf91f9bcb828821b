"""The quiet inbox (issue 7): a player who has not come back since their last turn email is not
sent another for every further move within the window; they get one, later, that tells all since."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from games import services
from games import tasks as after_commit
from games.cribbage import FULL_DECK
from games.models import Event, Seat
from games.selectors import view_for
from mail import quiet, reception
from mail.models import OutboundEmail

ALICE = 0


def emails_to(address):
    return [m for m in mail.outbox if m.to == [address]]


def alice_rows(game, **filters):
    return OutboundEmail.objects.filter(game=game, seat=ALICE, kind="turn", **filters)


def stand_in_for_alice(game):
    """The computer makes Alice's move (a timeout stand-in): she has not come back."""
    game.refresh_from_db()
    move = {k: v for k, v in view_for(game, ALICE).legal_moves[0].items() if k != "seat"}
    services.submit_move(game, ALICE, move, source=Event.Source.TIMEOUT)


def bob_plays(game):
    game.refresh_from_db()
    move = {k: v for k, v in view_for(game, 1).legal_moves[0].items() if k != "seat"}
    services.submit_move(game, 1, move, source=Event.Source.WEB)


def stand_in_then_bob_answers(game, on_commit):
    """The computer stands in for Alice, then Bob plays while it is his turn (all after-commit work run)."""
    with on_commit():
        stand_in_for_alice(game)
        game.refresh_from_db()
        while Seat.objects.get(game=game, number=1).to_act and not game.is_finished:
            bob_plays(game)
            game.refresh_from_db()


def alice_to_act(game):
    return Seat.objects.get(game=game, number=ALICE).to_act


def to_alices_first_play(game, on_commit):
    """Both throw (Alice by link: she came back), then Bob leads if he is the pone: Alice must play."""
    game.refresh_from_db()
    with on_commit():
        services.submit_move(game, ALICE, view_for(game, ALICE).legal_moves[0], source=Event.Source.LINK)
        game.refresh_from_db()
        services.submit_move(game, 1, view_for(game, 1).legal_moves[0], source=Event.Source.WEB)
    game.refresh_from_db()
    if view_for(game, ALICE).turn != ALICE:
        with on_commit():
            bob_plays(game)


def until_alice_is_owed_again(game, on_commit):
    """Both throw (Alice by link: she came back), her play email goes, then the computer stands in
    for her and Bob plays on until she is owed another turn email."""
    to_alices_first_play(game, on_commit)
    assert alice_rows(game, status="sent").count() == 2  # the deal, then her first play
    told_about = alice_rows(game, status="sent").order_by("-seq").first().seq
    mail.outbox.clear()
    for _ in range(8):
        stand_in_then_bob_answers(game, on_commit)
        if alice_rows(game, seq__gt=told_about).exists():
            return told_about
    pytest.fail("Alice was never owed another turn email")


def test_a_turn_email_for_a_player_who_has_not_come_back_is_held(game, on_commit):
    until_alice_is_owed_again(game, on_commit)
    row = alice_rows(game).order_by("-seq").first()
    sent_at, _ = quiet.last_turn_email(Seat.objects.get(game=game, number=ALICE))
    assert row.status == OutboundEmail.Status.HELD
    assert row.hold_until == sent_at + quiet.TURN_EMAIL_HOLD
    assert emails_to("alice@example.com") == []


def test_the_sweeper_sends_one_email_when_the_hold_ends_telling_all_since(game, on_commit):
    told_about = until_alice_is_owed_again(game, on_commit)
    row = alice_rows(game).order_by("-seq").first()
    with time_machine.travel(row.hold_until - timedelta(minutes=1)):
        after_commit.sweep()
    assert emails_to("alice@example.com") == []
    with time_machine.travel(row.hold_until + timedelta(minutes=1)):
        after_commit.sweep()
        after_commit.sweep()  # twice (two beats): still one email
    (message,) = emails_to("alice@example.com")
    row.refresh_from_db()
    assert row.status == OutboundEmail.Status.SENT

    body = message.body
    since = body.split("Since our last email to you:\n", 1)[1].split("\n\n", 1)[0]
    game.refresh_from_db()
    # Every play made after the email she was last sent is told, hers marked as made for her.
    state_then = [e for e in Event.objects.filter(game=game, seq__gt=told_about, kind="play").order_by("seq")]
    assert state_then, "plays were made since"
    for event in state_then:
        label = next(c for c in FULL_DECK if c.code == event.data["card"]).label
        assert f"played {label}" in since
    assert since.count("(the computer stood in for you)") == sum(e.seat == ALICE for e in state_then)
    assert list(view_for(game, ALICE).scores) == [0, 0]  # nobody pegged since (seeded game) ...
    assert "Scores then and now:" not in body  # ... so no scores line
    assert "Since our last email to you" in message.alternatives[0][0]
    assert "Since your last move" not in body  # the summary replaces the short one
    # ... and nothing Bob still holds.
    for code in view_for(game, 1).hand:
        card = next(c for c in FULL_DECK if c.code == code)
        assert not re.search(rf"\b{code}\b", re.sub(r"https?://\S+", "", body)) and card.label not in body


def test_further_moves_while_held_still_make_one_email(game, on_commit):
    until_alice_is_owed_again(game, on_commit)
    first_held = alice_rows(game, status="held").get()
    stand_in_then_bob_answers(game, on_commit)  # another email owed
    assert alice_to_act(game)
    later = alice_rows(game, seq__gt=first_held.seq).get()
    assert later.status == OutboundEmail.Status.HELD and later.hold_until == first_held.hold_until
    assert emails_to("alice@example.com") == []
    with time_machine.travel(first_held.hold_until + timedelta(minutes=1)):
        after_commit.sweep()
    assert len(emails_to("alice@example.com")) == 1
    # The older held email is replaced by the newer one, which is sent.
    statuses = list(alice_rows(game, seq__gte=first_held.seq).order_by("seq").values_list("status", flat=True))
    assert statuses == ["skipped", "sent"]


def test_the_summary_tells_the_scores_then_and_now_when_they_changed(game, on_commit):
    to_alices_first_play(game, on_commit)
    game.refresh_from_db()
    told_about = alice_rows(game, status="sent").order_by("-seq").first().seq
    assert told_about == game.seq  # her last email told this very state
    then = list(view_for(game, ALICE).scores)
    mail.outbox.clear()
    for _ in range(30):  # the computer stands in and Bob answers until someone has pegged
        stand_in_then_bob_answers(game, on_commit)
        if list(view_for(game, ALICE).scores) != then and alice_rows(game, status="held").exists():
            break
    else:
        pytest.fail("nobody pegged")
    assert alice_to_act(game) and emails_to("alice@example.com") == []
    now = list(view_for(game, ALICE).scores)
    assert (then, now) == ([0, 0], [2, 0])  # seeded: the computer's thirty-one for two, for Alice
    held = alice_rows(game, status="held").order_by("-seq").first()
    with time_machine.travel(held.hold_until + timedelta(minutes=1)):
        after_commit.sweep()
    (message,) = emails_to("alice@example.com")
    since = message.body.split("Since our last email to you:\n", 1)[1].split("\n\n", 1)[0]
    assert since.splitlines()[-1] == (
        f"  Scores then and now: Alice {then[0]} \u2192 {now[0]}, Bob {then[1]} \u2192 {now[1]}"
    )


def test_a_player_who_came_back_is_emailed_at_once(client, game, on_commit):
    """Opening a link of the last email in her own browser is coming back (note_seen): the next
    one is not held. The same link opened by a mail scanner (no session) is not."""
    to_alices_first_play(game, on_commit)
    last = emails_to("alice@example.com")[-1]
    link = re.search(r"https?://[^/\s]+(/m/move/\S+/)", last.body).group(1)
    mail.outbox.clear()
    with time_machine.travel(timezone.now() + timedelta(minutes=5)):
        assert client.get(link).status_code == 200  # her mail provider's link scanner
        assert Seat.objects.get(game=game, number=ALICE).last_seen_at is None
        client.force_login(game.seats.get(number=ALICE).player)
        assert client.get(link).status_code == 200  # she looks (and does not move)
        assert Seat.objects.get(game=game, number=ALICE).last_seen_at is not None
        stand_in_then_bob_answers(game, on_commit)
    assert alice_to_act(game)
    assert len(emails_to("alice@example.com")) == 1
    assert not alice_rows(game, status="held").exists()


def test_a_reply_is_coming_back(game, on_commit):

    from .conftest import reply

    with on_commit():
        reception.receive(reply(game, ALICE, "status"), esp_name="test")
    assert Seat.objects.get(game=game, number=ALICE).last_seen_at is not None
