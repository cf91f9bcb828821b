"""Bad input by email: junk to `receive_email` (a sysexits status, one line, nothing stored) and a
player's words the rules cannot take (a reply saying so, the game untouched)."""

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core import mail
from django.core.management import call_command
from django.core.management.base import CommandError

from games.models import Event
from games.selectors import view_for
from mail import links, reception
from mail.models import InboundEmail

from .conftest import reply

ROOT = Path(__file__).resolve().parents[2]
NOT_A_MESSAGE = {
    "empty": b"",
    "blank-lines": b"\n \r\n\t\n",
    "binary-junk": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\xff\xfe\xfd",
    "nul-bytes": b"\x00" * 64,
    "random-bytes": bytes(range(256)) * 4,
    "words-no-headers": b"play 7C\nthanks\n",
    "headers-no-sender": b"To: someone@example.com\nSubject: hi\n\nplay 7C\n",
    "sender-no-recipient": b"From: alice@example.com\nSubject: hi\n\nplay 7C\n",
    "header-garbage": b"\xff\xfe: \x00\x01\nFrom \x80\x81\n\n\x00",
    "too-large": None,  # MAX_REQUEST_BYTES and a byte
}


def run(raw, *args):
    sys.stdin = io.TextIOWrapper(io.BytesIO(raw))
    try:
        call_command("receive_email", *args, stdout=io.StringIO())
    finally:
        sys.stdin = sys.__stdin__


@pytest.mark.parametrize("name", NOT_A_MESSAGE)
def test_what_is_not_a_message_exits_65_and_stores_nothing(db, settings, database_dump, name):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 4096
    raw = NOT_A_MESSAGE[name]
    if raw is None:
        raw = b"From: alice@example.com\nTo: reply@example.com\n\n" + b"x" * 4096
    before = database_dump()
    with pytest.raises(CommandError) as refused:
        run(raw)
    assert refused.value.returncode == os.EX_DATAERR == 65
    assert "\n" not in str(refused.value)
    assert database_dump() == before


@pytest.mark.parametrize("name", ["binary-junk", "random-bytes", "header-garbage", "empty"])
def test_the_command_itself_answers_junk_with_one_line_and_no_traceback(name):
    environment = {
        **os.environ,
        "DATABASE_URL": "sqlite:///:memory:",
        "DJANGO_SETTINGS_MODULE": "cribsite.settings",
        "SECRET_KEY": "a-long-random-string-for-this-test-only-0123456789abcdef",
        "DEBUG": "false",
        "MAIL_INBOUND_PROVIDERS": "",
        "MAIL_TRUSTED_AUTHSERV_IDS": "mx.example.net",
    }
    environment.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    done = subprocess.run(
        [sys.executable, "manage.py", "receive_email"],
        input=NOT_A_MESSAGE[name],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 65
    lines = done.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("CommandError: ") and b"Traceback" not in done.stderr


ODD_MESSAGES = {
    "invalid-utf-8-in-headers-and-body": b"Subject: =?utf-8?b?7aCA?= \xed\xa0\x80\nContent-Type: text/plain; "
    b"charset=utf-8\nContent-Transfer-Encoding: 8bit\n\nstatus \xed\xa0\x80\xff\n",
    "nul-in-subject": b"Subject: Re: move\x00\x00\n\nstatus\n",
    "nul-in-body": b"Subject: Re: move\n\nsta\x00tus\n",
    "broken-base64-body": b"Subject: Re\nContent-Type: text/plain\nContent-Transfer-Encoding: base64\n\n%%%%==\n",
    "control-characters": b"Subject: \x1b[31mred\x07\n\nstatus\x01\x02\x7f\n",
}


@pytest.mark.parametrize("name", ODD_MESSAGES)
def test_a_message_with_odd_bytes_is_kept_safely_and_changes_no_game(game, on_commit, database_dump, name):
    raw = (
        b"From: Alice <alice@example.com>\nMessage-ID: <odd-"
        + name.encode()
        + b"@mail.example.com>\n"
        + ODD_MESSAGES[name]
    )
    before = database_dump(leave_out=KEPT_AND_ANSWERED)
    with on_commit():
        run(raw, "--recipient", links.reply_address(game.pk, 0))
    row = InboundEmail.objects.get()
    assert "\x00" not in row.raw and row.status != InboundEmail.Status.APPLIED
    assert database_dump(leave_out=KEPT_AND_ANSWERED) == before


# The message is kept and answered (with the move links the answer offers), and its player counts
# as seen (Seat.last_seen): the rest stays.
KEPT_AND_ANSWERED = (
    "mail.InboundEmail",
    "mail.AnswerSent",
    "mail.OutboundEmail",
    "mail.OfferedMove",  # the answer's move links
    "games.Seat",
    "games.OverdueSeat",
)

BAD_NUMBERS = {
    "more time -3": "1 to 14 days",
    "more time 0": "1 to 14 days",
    "extend -1": "1 to 14 days",
    "more time 99999999999": "1 to 14 days",
    "more time 15": "1 to 14 days",
    "more time ٣": "how many days",
    "more time three": "how many days",
    "more time": "how many days",
    "more time −3": "1 to 14 days",
}


@pytest.mark.parametrize("words", BAD_NUMBERS)
def test_a_number_of_days_the_clock_cannot_take_is_answered_and_gives_nothing(game, on_commit, database_dump, words):
    mail.outbox.clear()
    before = database_dump(leave_out=KEPT_AND_ANSWERED)
    row = deliver(reply(game, 0, words), on_commit)
    assert row.status == InboundEmail.Status.ANSWERED
    assert database_dump(leave_out=KEPT_AND_ANSWERED) == before
    [answer] = [m for m in mail.outbox if m.to == ["alice@example.com"]]
    assert BAD_NUMBERS[words] in answer.body


BAD_COUNTS = ["count -5", "count 99999999999", "count " + "9" * 5000, "count 3.5", "count −2"]


@pytest.fixture
def muggins_game_at_the_show(db, django_capture_on_commit_callbacks):
    """A muggins game played to its first show, where seat 0 or 1 must count."""
    import random

    from tests.factories import make_user, play_random_move, start_two_player_game

    alice = make_user("alice@example.com", "Alice", allow_forced_moves=False, password=None)
    bob = make_user("bob@example.com", "Bob", allow_forced_moves=False, password=None)
    with django_capture_on_commit_callbacks(execute=True):
        game = start_two_player_game(players=[alice, bob], rng=random.Random(3), muggins=True)
    rng = random.Random(5)
    for _ in range(60):
        view = view_for(game, 0)
        if view.phase == "show":
            return game
        seat = (view.to_act or view_for(game, 1).to_act)[0]
        game = play_random_move(game, seat, rng=rng).game
    raise AssertionError("no show reached")


@pytest.mark.parametrize("words", BAD_COUNTS)
def test_a_count_the_rules_cannot_take_is_answered_and_changes_nothing(
    muggins_game_at_the_show, on_commit, database_dump, words
):
    game = muggins_game_at_the_show
    seat = view_for(game, 0).to_act[0]
    mail.outbox.clear()
    before = database_dump(leave_out=KEPT_AND_ANSWERED)
    row = deliver(reply(game, seat, words), on_commit)
    assert row.status == InboundEmail.Status.ANSWERED, row.outcome
    assert database_dump(leave_out=KEPT_AND_ANSWERED) == before
    assert not Event.objects.filter(source=Event.Source.EMAIL).exists()
    player = game.seats.get(number=seat).player
    assert [m.to for m in mail.outbox] == [[player.email]]


def deliver(message, on_commit):
    with on_commit():
        row = reception.receive(message, esp_name="test")
    row.refresh_from_db()
    return row
