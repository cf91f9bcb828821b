"""Reply words at the table: "note ..." and "say ..." are never read as moves; talk is shown at the
top of the others' next turn email; limits are answered in words and change nothing."""

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from games import services, talk
from games.models import Event, Note, TableMessage
from games.selectors import view_for
from mail import parsing
from mail.models import InboundEmail

from .conftest import reply
from .test_inbound import deliver


@pytest.fixture(autouse=True)
def _no_turn_emails_yet(game):
    mail.outbox.clear()  # the game's first turn emails


@pytest.mark.parametrize(
    "line, kind, text",
    [
        ("say play 7C", "say", "play 7C"),
        ("Say  Good luck, Bob!", "say", "Good luck, Bob!"),
        ("note he keeps fives; crib 5H JD next", "note", "he keeps fives; crib 5H JD next"),
        ("note", "note", ""),
    ],
)
def test_note_and_say_take_the_rest_of_the_line_as_text(line, kind, text):
    command = parsing.read_line(line)
    assert (command.kind, command.extra["text"]) == (kind, text)


def test_say_by_reply_is_never_a_move_and_tops_the_opponents_next_turn_email(game, on_commit):
    dealer = view_for(game, 0).crib_owner
    pone = 1 - dealer  # leads the pegging: the next turn email is theirs
    names = {s.number: (s.player.display_name, s.player.email) for s in game.seats.select_related("player")}
    events = Event.objects.filter(game=game).count()
    row = deliver(reply(game, dealer, "say crib 5H JD, just kidding"), on_commit)
    assert Event.objects.filter(game=game).count() == events and row.outcome == "said to the table"
    assert not mail.outbox  # nobody gets an email for a word at the table
    [message] = TableMessage.objects.all()
    assert (message.author.email, message.text, message.source) == (
        names[dealer][1],
        "crib 5H JD, just kidding",
        "email",
    )
    # Both throw (hours later: the quiet inbox holds nothing); the pone's turn email starts with it.
    with time_machine.travel(timezone.now() + timedelta(hours=7)), on_commit():
        services.submit_move(game, dealer, view_for(game, dealer).legal_moves[0])
        services.submit_move(game, pone, view_for(game, pone).legal_moves[0])
    said = f"{names[dealer][0]}: crib 5H JD, just kidding"
    turns = [m for m in mail.outbox if m.tags == ["turn"]]
    assert [m.to for m in turns] == [[names[pone][1]]]
    assert turns[0].body.startswith(f"At the table:\n  {said}\n") and said in turns[0].alternatives[0][0]


def test_a_note_by_reply_is_saved_for_its_writer_alone(game, on_commit):
    deliver(reply(game, 1, "note Alice always leads low"), on_commit)
    assert talk.note_of(game, game.seats.get(number=1).player) == "Alice always leads low"
    assert talk.note_of(game, game.seats.get(number=0).player) == ""
    deliver(reply(game, 1, "note"), on_commit)
    assert not Note.objects.exists()


@pytest.mark.parametrize(
    "body, answer",
    [
        ("say " + "x" * 301, "A message to the table is at most 300 characters; yours has 301. Nothing was sent."),
        ("say", 'Say something after "say": nothing was sent.'),
        ("note " + "y" * 2001, "A note is at most 2000 characters; yours has 2001. Nothing was saved."),
    ],
)
def test_too_long_or_empty_is_answered_and_changes_nothing(game, on_commit, body, answer):
    row = deliver(reply(game, 0, body), on_commit)
    assert row.status == InboundEmail.Status.ANSWERED
    [sent] = mail.outbox
    assert sent.to == ["alice@example.com"] and answer in sent.body
    assert not TableMessage.objects.exists() and not Note.objects.exists()


def test_the_rate_limit_is_answered_and_sends_nothing(game, on_commit):
    for n in range(talk.SAY_PER_HOUR):
        deliver(reply(game, 0, f"say hello {n}"), on_commit)
    row = deliver(reply(game, 0, "say one more"), on_commit)
    assert row.status == InboundEmail.Status.ANSWERED
    assert TableMessage.objects.count() == talk.SAY_PER_HOUR
    [sent] = mail.outbox
    assert "You have said 5 things at this table in the last hour, the most there is" in sent.body
