"""Words about the player in reply to any game's email: "plan always ...", "games", "vacation N", "back"."""

import pytest
from django.core import mail

from accounts.models import User
from games.models import Event, Seat
from games.selectors import view_for
from mail import parsing
from mail.models import InboundEmail

from .conftest import reply
from .test_inbound import deliver


def _to_alice():
    return [m for m in mail.outbox if m.to == ["alice@example.com"]]


@pytest.mark.parametrize(
    "line, kind, extra",
    [
        ("plan always score first, low first", "standing_plan", "score first low first"),
        ("Plan always clear", "standing_plan", "clear"),
        ("games", "games", None),
        ("Games.", "games", None),
        ("back", "back", None),
        ("vacation 3", "vacation", None),
        ("vacation", "vacation", None),
        ("Back on Monday, will play then", None, None),
        ("games are fun", None, None),
        ("vacation pictures attached", None, None),
    ],
)
def test_the_words_are_read_and_lookalikes_are_not(line, kind, extra):
    command = parsing.read_line(line)
    assert (command.kind if command else None) == kind
    if extra is not None:
        assert command.extra["text"].replace(",", "") == extra


def test_plan_always_keeps_a_plan_for_every_hand_and_plays_this_hand(game, on_commit):
    mail.outbox.clear()
    row = deliver(reply(game, 0, "plan always score first, low first"), on_commit)
    assert row.status == InboundEmail.Status.APPLIED
    assert User.objects.get(email="alice@example.com").standing_plan == [
        {"rule": "score_first"},
        {"rule": "low_first"},
    ]
    game.refresh_from_db()
    assert view_for(game, 0).plan["words"] == "plan score first, low first"
    assert "plan for every hand is now: score first, low first" in mail.outbox[-1].body
    assert "It plays this hand too" in mail.outbox[-1].body


def test_plan_always_with_cards_is_refused_and_changes_nothing(game, on_commit):
    mail.outbox.clear()
    before = game.events.count()
    row = deliver(reply(game, 0, "plan always 7C 8D"), on_commit)
    assert row.status == InboundEmail.Status.ANSWERED
    assert User.objects.get(email="alice@example.com").standing_plan == []
    assert game.events.count() == before
    assert "names no cards" in mail.outbox[-1].body


def test_plan_always_clear_drops_it(game, on_commit):
    User.objects.filter(email="alice@example.com").update(standing_plan=[{"rule": "high_first"}])
    deliver(reply(game, 0, "plan always clear"), on_commit)
    assert User.objects.get(email="alice@example.com").standing_plan == []


def test_games_lists_every_game_with_whose_turn_and_its_reply_address(game, on_commit):
    mail.outbox.clear()
    row = deliver(reply(game, 0, "games"), on_commit)
    assert row.status == InboundEmail.Status.ANSWERED
    body = mail.outbox[-1].body
    seat = Seat.objects.get(game=game, number=0)
    assert f"Game {game.pk}, against Bob: your turn, by " in body
    from mail import links

    assert links.reply_address(game.pk, seat.number) in body


def test_vacation_and_back_by_reply_stop_and_start_the_clocks(game, on_commit):
    mail.outbox.clear()
    row = deliver(reply(game, 0, "vacation 3"), on_commit)
    assert row.status == InboundEmail.Status.APPLIED
    alice = User.objects.get(email="alice@example.com")
    assert alice.away_until is not None
    assert game.events.filter(kind="vacation_start", seat=0, source=Event.Source.EMAIL).exists()
    assert "Your vacation has started: 3 days" in _to_alice()[-1].body
    row = deliver(reply(game, 0, "back"), on_commit)
    assert row.status == InboundEmail.Status.APPLIED
    alice.refresh_from_db()
    assert alice.away_until is None and game.events.filter(kind="vacation_end", seat=0).exists()
    row = deliver(reply(game, 0, "back"), on_commit)
    # (Answered once per window for the same words: the answer above said it.)
    assert row.status == InboundEmail.Status.ANSWERED and "You are not on vacation" in row.outcome


def test_a_vacation_longer_than_the_days_held_is_refused_and_changes_nothing(game, on_commit):
    mail.outbox.clear()
    row = deliver(reply(game, 0, "vacation 20"), on_commit)
    assert row.status == InboundEmail.Status.ANSWERED
    assert User.objects.get(email="alice@example.com").away_until is None
    assert "whole vacation days left, not 20" in mail.outbox[-1].body
