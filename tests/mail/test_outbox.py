"""The outbox: written with the move, sent once after commit, retried, swept; and the turn email itself."""

import random
import re
import smtplib
from datetime import timedelta
from unittest import mock

import pytest
import time_machine
from django.core import mail
from django.db import transaction
from django.utils import timezone

from games import services
from games import tasks as after_commit
from games.cribbage import FULL_DECK
from games.selectors import view_for
from mail import links, messages, outbox, tasks
from mail import selectors as mail_selectors
from mail import services as mail_services
from mail.models import OutboundEmail
from tests.factories import make_user, start_two_player_game


def test_each_player_gets_one_turn_email_for_the_deal(game):
    rows = OutboundEmail.objects.filter(game=game)
    assert sorted(rows.values_list("seat", "status")) == [(0, "sent"), (1, "sent")]
    assert sorted(m.to[0] for m in mail.outbox) == ["alice@example.com", "bob@example.com"]


def test_a_discard_by_one_player_does_not_email_the_other_again(game, on_commit):
    mail.outbox.clear()
    with on_commit():
        services.submit_move(game, 0, view_for(game, 0).legal_moves[0])
    assert mail.outbox == []


def test_the_row_is_written_in_the_moves_transaction_and_sent_only_after_commit(
    game, django_capture_on_commit_callbacks
):
    mail.outbox.clear()
    game.refresh_from_db()
    for seat in (0, 1):
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            services.submit_move(game, seat, view_for(game, seat).legal_moves[0])
        game.refresh_from_db()
    # After the second discard the pone must play: the row exists, nothing is sent before commit.
    turn = view_for(game, 0).turn
    row = OutboundEmail.objects.get(game=game, seat=turn, seq=game.seq)
    assert row.status == "ready" and mail.outbox == []
    for callback in callbacks:
        callback()
    row.refresh_from_db()
    assert row.status == "sent" and len(mail.outbox) == 1


def test_a_rolled_back_move_owes_no_email(game):
    game.refresh_from_db()
    before = OutboundEmail.objects.count()
    with pytest.raises(RuntimeError):
        with transaction.atomic():
            for seat in (0, 1):
                services.submit_move(game, seat, view_for(game, seat).legal_moves[0])
            raise RuntimeError("crash before commit")
    assert OutboundEmail.objects.count() == before


@pytest.mark.parametrize("notify", ["digest", "none"])
def test_digest_and_none_get_no_turn_email(db, on_commit, notify):
    players = [make_user(notify=notify, password=None), make_user(password=None)]
    with on_commit():
        game = start_two_player_game(players=players)
    assert [m.to[0] for m in mail.outbox] == [players[1].email]
    assert not OutboundEmail.objects.filter(game=game, seat=0).exists()


def test_computer_seats_get_no_email(db, on_commit):
    with on_commit():
        game = start_two_player_game(players=[make_user(password=None), None])
    assert list(OutboundEmail.objects.filter(game=game).values_list("seat", flat=True)) == [0]


def test_practice_games_get_no_email(db, on_commit):
    with on_commit():
        start_two_player_game(players=[make_user(password=None), None], practice=True)
    assert mail.outbox == [] and not OutboundEmail.objects.exists()


def test_a_sent_row_is_never_sent_again(game):
    row = OutboundEmail.objects.filter(game=game).first()
    mail.outbox.clear()
    assert tasks.send_outbound.delay(row.pk).get() is None
    assert mail.outbox == []


def test_a_row_no_longer_needed_is_skipped(game, on_commit):
    row = OutboundEmail.objects.get(game=game, seat=0)
    OutboundEmail.objects.filter(pk=row.pk).update(status="ready")
    services.submit_move(game, 0, view_for(game, 0).legal_moves[0])  # Alice moved on the site meanwhile
    mail.outbox.clear()
    assert mail_services.send_outbound(row.pk) == "skipped" and mail.outbox == []


def test_transient_smtp_errors_are_retried_then_sent(game):
    row = OutboundEmail.objects.get(game=game, seat=0)
    OutboundEmail.objects.filter(pk=row.pk).update(status="ready", attempts=0)
    mail.outbox.clear()
    real_send = mail.EmailMessage.send
    failures = iter([smtplib.SMTPServerDisconnected("gone"), smtplib.SMTPDataError(451, "try later")])
    seen = []  # (status, last_error) of the row as each attempt starts

    def flaky(message, *args, **kwargs):
        seen.append(OutboundEmail.objects.values_list("status", "last_error").get(pk=row.pk))
        error = next(failures, None)
        if error:
            raise error
        return real_send(message, *args, **kwargs)

    start = timezone.now()
    with mock.patch.object(mail.EmailMessage, "send", flaky), time_machine.travel(start, tick=False) as clock:
        assert tasks.send_outbound.apply(args=[row.pk]).get() == "ready"
        row.refresh_from_db()
        assert row.next_attempt_at == start + timedelta(minutes=1)
        assert mail_services.send_outbound(row.pk) is None  # not due yet
        clock.shift(timedelta(minutes=1))
        assert tasks.send_outbound.apply(args=[row.pk]).get() == "ready"
        row.refresh_from_db()
        assert row.next_attempt_at == start + timedelta(minutes=3)  # then 2 minutes later
        clock.shift(timedelta(minutes=2))
        assert tasks.send_outbound.apply(args=[row.pk]).get() == "sent"
    # Each failed attempt left its error on the row, put back to be retried.
    assert seen == [
        ("sending", ""),
        ("sending", "SMTPServerDisconnected('gone')"),
        ("sending", "SMTPDataError(451, 'try later')"),
    ]
    row.refresh_from_db()
    assert row.status == "sent" and row.attempts == 3 and len(mail.outbox) == 1
    assert row.last_error == "" and row.next_attempt_at is None  # the success clears them


def test_a_refused_recipient_fails_without_retry(game):
    row = OutboundEmail.objects.get(game=game, seat=0)
    OutboundEmail.objects.filter(pk=row.pk).update(status="ready")
    error = smtplib.SMTPRecipientsRefused({"alice@example.com": (550, b"no such user")})
    with mock.patch.object(mail.EmailMessage, "send", side_effect=error):
        assert mail_services.send_outbound(row.pk) == "failed"
    row.refresh_from_db()
    assert row.status == "failed" and "550" in row.last_error


def test_the_sweeper_requeues_lost_rows_once(game):
    row = OutboundEmail.objects.get(game=game, seat=0)
    long_ago = timezone.now() - timedelta(hours=1)
    OutboundEmail.objects.filter(pk=row.pk).update(status="ready", created_at=long_ago, claimed_at=None)
    fresh = OutboundEmail.objects.get(game=game, seat=1)
    OutboundEmail.objects.filter(pk=fresh.pk).update(status="ready")  # just written: its task is on its way
    mail.outbox.clear()
    assert after_commit.sweep.delay().get() == 1
    assert after_commit.sweep.delay().get() == 0  # a second sweep finds nothing to do
    assert [m.to[0] for m in mail.outbox] == ["alice@example.com"]


def test_a_row_stuck_sending_after_a_crash_is_swept(game):
    row = OutboundEmail.objects.get(game=game, seat=0)
    OutboundEmail.objects.filter(pk=row.pk).update(status="sending", claimed_at=timezone.now() - timedelta(hours=1))
    assert mail_services.unsent_batch() == [row.pk]


def test_waiting_games_for_lists_the_games_where_the_player_must_act(game):
    alice = game.seats.get(number=0).player
    assert list(mail_selectors.waiting_games_for(alice)) == [game]
    services.submit_move(game, 0, view_for(game, 0).legal_moves[0])
    assert list(mail_selectors.waiting_games_for(alice)) == []


# --- The turn email ----------------------------------------------------------------


@pytest.fixture
def alice_email(game):
    return next(m for m in mail.outbox if m.to == ["alice@example.com"])


def test_the_turn_email_headers(game, alice_email, settings):
    headers = alice_email.extra_headers
    assert alice_email.subject == f"Your discard — Alice v Bob, hand 1 (game {game.pk})"
    assert alice_email.reply_to == [links.reply_address(game.pk, 0)]
    assert links.read_reply_address(alice_email.reply_to[0]) == (game.pk, 0)
    assert len(alice_email.reply_to[0].partition("@")[0]) <= 64
    assert headers["In-Reply-To"] == headers["References"] == messages.thread_root(game.pk)
    assert headers["Message-ID"].endswith(f"@{settings.REPLY_DOMAIN}>")
    assert headers["Auto-Submitted"] == "auto-generated" and headers["X-Auto-Response-Suppress"] == "All"
    assert headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert re.fullmatch(
        r"<https?://\S+/m/unsubscribe/\S+/>, <mailto:reply\+\S+\?subject=unsubscribe>", headers["List-Unsubscribe"]
    )
    assert "List-Post" not in headers
    raw = alice_email.message().as_string()
    assert "Auto-Submitted: auto-generated" in raw and "Reply-To: reply+" in raw


def test_the_discard_email_lists_all_fifteen_discards_best_first_with_links(helped_game):
    alice_email = next(m for m in mail.outbox if m.to == ["alice@example.com"])
    lines = [line for line in alice_email.body.splitlines() if line.startswith("crib ")]
    assert len(lines) == 15
    values = [float(re.search(r"expected (-?[\d.]+) points", line).group(1)) for line in lines]
    assert values == sorted(values, reverse=True)
    assert all(re.search(r"\s(https?://\S+/m/move/\S+/)$", line) for line in lines)
    html = alice_email.alternatives[0][0]
    assert html.count("/m/move/") == 15 and "<svg" not in html


def test_the_turn_email_shows_nothing_the_player_could_not_see(game, alice_email):
    bob_hand = list(view_for(game, 1).hand)
    text = re.sub(r"https?://\S+", "", alice_email.body)
    html = re.sub(r'href="[^"]*"', "", alice_email.alternatives[0][0])
    for code in bob_hand:
        card = next(c for c in FULL_DECK if c.code == code)
        assert not re.search(rf"\b{code}\b", text) and card.label not in text
        assert not re.search(rf"\b{code}\b", html) and card.label not in html


def test_the_play_email_shows_what_the_opponent_did_and_the_count(game, on_commit):
    game.refresh_from_db()
    for seat in (0, 1):
        services.submit_move(game, seat, view_for(game, seat).legal_moves[0])
        game.refresh_from_db()
    pone = view_for(game, 0).turn
    card = view_for(game, pone).playable[0]
    mail.outbox.clear()
    with on_commit():
        services.submit_move(game, pone, {"kind": "play", "card": card})
    (message,) = mail.outbox
    game.refresh_from_db()
    view = view_for(game, 1 - pone)
    label = next(c for c in FULL_DECK if c.code == card).label
    assert f"played {label} (count {view.count})" in message.body
    assert f"The count: {view.count}" in message.body
    assert "Starter:" in message.body and "Scores (to 121)" in message.body
    html = message.alternatives[0][0]
    for score in view.scores:  # the HTML part's score bars
        assert f"{score} / 121</td>" in html
    for playable in view.playable:
        assert re.search(rf"^play {playable}\s+https?://\S+/m/move/\S+/$", message.body, re.MULTILINE)


def test_the_deadline_is_in_the_recipients_time_zone(db, on_commit):
    players = [make_user(time_zone="Pacific/Auckland", password=None), make_user(password=None)]
    with on_commit():
        start_two_player_game(players=players)
    message = next(m for m in mail.outbox if m.to == [players[0].email])
    assert re.search(r"Reply by .*\((NZDT|NZST|\+1[23])\)", message.body)


@pytest.mark.parametrize("variant, seats, choices", [("three", 3, 5), ("four", 4, 5), ("five_card", 2, 10)])
def test_every_variant_gets_its_turn_emails_with_every_discard(db, on_commit, variant, seats, choices):
    players = [make_user(password=None) for _ in range(seats)]
    with on_commit():
        start_two_player_game(variant=variant, players=players)
    assert sorted(m.to[0] for m in mail.outbox) == sorted(p.email for p in players)
    for message in mail.outbox:
        assert len([line for line in message.body.splitlines() if line.startswith("crib ")]) == choices
    if variant == "four":
        assert "v" in mail.outbox[0].subject and "&" in mail.outbox[0].body


@pytest.mark.parametrize("variant, muggins", [("two", False), ("two", True), ("three", False), ("four", False)])
def test_every_seat_that_must_act_is_told_once_since_it_last_moved(db, variant, muggins):
    """The outbox owes a turn email from what the move itself did (whose turn started, who moved),
    without asking the database; this checks that against the log, after every move of whole games:
    each seat that must act has exactly one turn email since its own last move."""
    from games.cribbage import to_act
    from games.models import SEATS_BY_VARIANT, Event

    rng = random.Random(3)
    players = [make_user(password=None, allow_forced_moves=(n == 0)) for n in range(SEATS_BY_VARIANT[variant])]
    game = start_two_player_game(variant=variant, players=players, muggins=muggins, rng=rng)
    checked = set()
    while not game.is_finished:
        state = services.engine_state(game)
        for seat in to_act(state):
            last_move = max(
                Event.objects.filter(game=game, seat=seat, kind__in=outbox.ACTING_KINDS).values_list("seq", flat=True),
                default=0,
            )
            # A row carries the seq the move's batch ended at: a move's own row has seq >= the move.
            told = OutboundEmail.objects.filter(game=game, seat=seat, kind="turn", seq__gte=last_move)
            assert told.count() == 1, f"seat {seat} at event {game.seq}"
            checked.add(game.seq)
        seat = to_act(state)[0]
        game = services.submit_move(game, seat, rng.choice(services.cribbage.legal_moves(state, seat)), rng=rng).game
    assert len(checked) > 50
