"""Replies: routing and trust, automatic mail, the words, idempotency and every refusal."""

import random
from datetime import timedelta

import pytest
from django.core import mail
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from games import services
from games.models import Event, Seat
from games.presentation import cards_text
from games.selectors import view_for
from mail import inbound, links, reception, rows
from mail import services as services_mail
from mail.models import InboundEmail
from tests.factories import make_user, start_two_player_game

from .conftest import reply


def deliver(message, on_commit):
    """What the webhook does: store the message, then (after commit) read it."""
    with on_commit():
        row = reception.receive(message, esp_name="test")
    if row is not None:
        row.refresh_from_db()
    return row


def moves_by_email(game):
    return Event.objects.filter(game=game, source=Event.Source.EMAIL).count()


def to_play_phase(game):
    for seat in (0, 1):
        services.submit_move(game, seat, view_for(game, seat).legal_moves[0])
    game.refresh_from_db()
    return view_for(game, 0).turn


@pytest.fixture
def outbox_cleared(game):
    mail.outbox.clear()
    return mail.outbox


def test_a_reply_with_a_discard_makes_the_move(game, on_commit, outbox_cleared):
    hand = list(view_for(game, 0).hand)
    row = deliver(reply(game, 0, f"crib {hand[0]} {hand[1]}"), on_commit)
    assert row.status == InboundEmail.Status.APPLIED
    event = Event.objects.get(game=game, source=Event.Source.EMAIL)
    assert event.data["cards"] == hand[:2] and event.seat == 0 and event.idempotency_key == f"0:{row.message_id}"
    assert outbox_cleared == []  # no answer; Bob was already told it is his turn to discard


def test_just_the_cards_are_a_discard_in_the_discard(game, on_commit):
    hand = list(view_for(game, 1).hand)
    row = deliver(reply(game, 1, f"{hand[2].lower()} {hand[3]}"), on_commit)
    assert row.status == InboundEmail.Status.APPLIED
    game.refresh_from_db()
    assert view_for(game, 1).discarded[1]


def test_the_same_webhook_twice_moves_once(game, on_commit):
    hand = list(view_for(game, 0).hand)
    message = reply(game, 0, f"crib {hand[0]} {hand[1]}", message_id="<once@mail.example.com>")
    assert deliver(message, on_commit) is not None
    assert deliver(message, on_commit) is None
    row = InboundEmail.objects.get()
    assert inbound.process(row.pk) is None  # reading it again does nothing
    assert moves_by_email(game) == 1


def test_the_message_id_is_the_moves_idempotency_key(game, on_commit):
    hand = list(view_for(game, 0).hand)
    deliver(reply(game, 0, f"crib {hand[0]} {hand[1]}", message_id="<key@mail.example.com>"), on_commit)
    InboundEmail.objects.all().delete()  # even if the stored copy were lost, the move is not made twice
    deliver(reply(game, 0, f"crib {hand[0]} {hand[1]}", message_id="<key@mail.example.com>"), on_commit)
    assert moves_by_email(game) == 1


def test_the_sender_is_compared_without_case(game, on_commit):
    hand = list(view_for(game, 0).hand)
    row = deliver(reply(game, 0, f"crib {hand[0]} {hand[1]}", sender="ALICE@Example.COM"), on_commit)
    assert row.status == InboundEmail.Status.APPLIED


def test_a_stranger_is_refused_and_the_player_told(game, on_commit, outbox_cleared):
    hand = list(view_for(game, 0).hand)
    row = deliver(reply(game, 0, f"crib {hand[0]} {hand[1]}", sender="mallory@evil.example"), on_commit)
    assert row.status == InboundEmail.Status.REFUSED
    assert moves_by_email(game) == 0
    assert [m.to for m in outbox_cleared] == [["alice@example.com"]]  # never the stranger
    assert "mallory@evil.example" in outbox_cleared[0].body
    assert "Your hand" not in outbox_cleared[0].body  # a stranger's mail gets no game state


def test_the_other_player_using_my_address_is_refused(game, on_commit):
    hand = list(view_for(game, 0).hand)
    row = deliver(reply(game, 0, f"crib {hand[0]} {hand[1]}", sender="bob@example.com"), on_commit)
    assert row.status == InboundEmail.Status.REFUSED and moves_by_email(game) == 0


@pytest.mark.parametrize(
    "to",
    [
        "reply+{game}_0.000000000000000000000000@reply.localhost",  # forged signature
        "reply+{other}_0.{sig}@reply.localhost",  # signature of another game
        "reply+{game}_1.{sig}@reply.localhost",  # signature of the other seat
        "somebody@reply.localhost",
        "reply+{game}_0.{sig}@elsewhere.example",
    ],
)
def test_an_unknown_or_forged_address_is_dropped_without_a_word(game, on_commit, outbox_cleared, to):
    sig = links.reply_token(game.pk, 0).rpartition(".")[2]
    address = to.format(game=game.pk, other=game.pk + 1, sig=sig)
    hand = list(view_for(game, 0).hand)
    row = deliver(reply(game, 0, f"crib {hand[0]} {hand[1]}", to=address), on_commit)
    assert row.status == InboundEmail.Status.DROPPED
    assert moves_by_email(game) == 0 and outbox_cleared == []


def test_the_address_survives_a_change_of_case(game, on_commit):
    hand = list(view_for(game, 0).hand)
    row = deliver(reply(game, 0, f"crib {hand[0]} {hand[1]}", to=links.reply_address(game.pk, 0).upper()), on_commit)
    assert row.status == InboundEmail.Status.APPLIED


@pytest.mark.parametrize(
    "headers, subject, sender",
    [
        ({"Auto-Submitted": "auto-replied"}, None, None),
        ({"Auto-Submitted": "auto-generated"}, None, None),
        ({"Precedence": "bulk"}, None, None),
        ({"Precedence": "junk"}, None, None),
        ({"X-Autoreply": "yes"}, None, None),
        ({}, "Out of Office: Re: Your move", None),
        ({}, "Automatic reply: Your move", None),
        ({}, "Réponse automatique : absent", None),
        ({}, "Automatische Antwort: Abwesenheit", None),
        ({}, None, "MAILER-DAEMON@mail.example.com"),
        ({}, None, "Cribbage by mail <cribbage@localhost>"),
        ({"Return-Path": "<>"}, None, None),
    ],
    ids=[
        "auto-replied",
        "auto-generated",
        "bulk",
        "junk",
        "x-autoreply",
        "ooo",
        "automatic-reply",
        "french-ooo",
        "german-ooo",
        "mailer-daemon",
        "ourselves",
        "empty-return-path",
    ],
)
def test_automatic_mail_is_ignored_without_a_word(game, on_commit, outbox_cleared, headers, subject, sender):
    hand = list(view_for(game, 0).hand)
    row = deliver(
        reply(game, 0, f"crib {hand[0]} {hand[1]}", headers=headers, subject=subject, sender=sender), on_commit
    )
    assert row.status == InboundEmail.Status.IGNORED
    assert moves_by_email(game) == 0 and outbox_cleared == []


def test_auto_submitted_no_is_a_person(game, on_commit):
    hand = list(view_for(game, 0).hand)
    row = deliver(reply(game, 0, f"crib {hand[0]} {hand[1]}", headers={"Auto-Submitted": "no"}), on_commit)
    assert row.status == InboundEmail.Status.APPLIED


def test_a_delivery_report_is_ignored(game, on_commit, outbox_cleared):
    from anymail.inbound import AnymailInboundMessage

    raw = (
        f"From: Mail Delivery System <postmaster@mail.example.com>\r\nTo: {links.reply_address(game.pk, 0)}\r\n"
        "Subject: Undelivered Mail\r\nMessage-ID: <dsn@mail.example.com>\r\nMIME-Version: 1.0\r\n"
        'Content-Type: multipart/report; report-type=delivery-status; boundary="b"\r\n\r\n'
        "--b\r\nContent-Type: text/plain\r\n\r\nplay 7C\r\n--b--\r\n"
    )
    row = deliver(AnymailInboundMessage.parse_raw_mime(raw), on_commit)
    assert row.status == InboundEmail.Status.IGNORED and outbox_cleared == []


@pytest.mark.parametrize(
    "headers, why",
    [
        (
            {"Authentication-Results": "mx.example.net; spf=pass smtp.mailfrom=example.com; dkim=pass; dmarc=fail"},
            "DMARC failed",
        ),
        (
            {"Authentication-Results": "mx.example.net; spf=fail smtp.mailfrom=example.com; dkim=none"},
            "SPF fail and no passing DKIM signature",
        ),
        ({"Authentication-Results": "mx.example.net; spf=neutral smtp.mailfrom=example.com; dkim=fail"}, "DKIM failed"),
    ],
    ids=["dmarc-fail", "spf-fail", "dkim-fail"],
)
def test_a_failed_sender_check_is_refused(game, on_commit, outbox_cleared, headers, why):
    hand, seq = list(view_for(game, 0).hand), game.seq
    row = deliver(reply(game, 0, f"crib {hand[0]} {hand[1]}", headers=headers), on_commit)
    assert row.status == InboundEmail.Status.REFUSED and moves_by_email(game) == 0
    assert row.auth_failure == why and row.outcome == why
    game.refresh_from_db()
    assert game.seq == seq and list(view_for(game, 0).hand) == hand
    assert outbox_cleared == []  # nothing answered: the From address may be forged


def test_a_message_the_provider_flagged_as_spam_is_refused(game, on_commit, outbox_cleared):
    hand = list(view_for(game, 0).hand)
    message = reply(game, 0, f"crib {hand[0]} {hand[1]}")
    message.spam_detected = True  # what anymail sets from the provider's verdict
    row = deliver(message, on_commit)
    assert row.status == InboundEmail.Status.REFUSED and row.spam_detected is True
    assert row.outcome == "the provider flagged it as spam" and moves_by_email(game) == 0
    assert outbox_cleared == []  # spam is not answered


def test_a_provider_saying_not_spam_is_no_refusal(game, on_commit):
    hand = list(view_for(game, 0).hand)
    message = reply(game, 0, f"crib {hand[0]} {hand[1]}")
    message.spam_detected = False
    assert deliver(message, on_commit).status == InboundEmail.Status.APPLIED


def test_spf_failing_on_a_forwarded_but_dkim_signed_message_is_accepted(game, on_commit):
    hand = list(view_for(game, 0).hand)
    headers = {"Authentication-Results": "mx.example.net; spf=fail; dkim=pass header.d=example.com; dmarc=pass"}
    assert deliver(reply(game, 0, f"crib {hand[0]} {hand[1]}", headers=headers), on_commit).status == "applied"


def answer_to(outbox, address):
    found = [m for m in outbox if m.to == [address]]
    assert len(found) == 1, [m.subject for m in outbox]
    return found[0]


def test_a_card_not_held_is_answered_with_the_moves_legal_now(game, on_commit, outbox_cleared):
    hand = list(view_for(game, 0).hand)
    other = view_for(game, 1).hand[0]
    row = deliver(reply(game, 0, f"crib {hand[0]} {other}"), on_commit)
    assert row.status == InboundEmail.Status.ANSWERED and moves_by_email(game) == 0
    answer = answer_to(outbox_cleared, "alice@example.com")
    assert "You do not hold" in answer.body and "Nothing was changed" in answer.body
    assert answer.body.count("\ncrib ") == 15  # every discard, with its link
    assert other not in " ".join(view_for(game, 0).hand)
    assert answer.extra_headers["Auto-Submitted"] == "auto-generated"


def test_not_your_turn(game, on_commit, outbox_cleared):
    turn = to_play_phase(game)
    waiting = 1 - turn
    card = view_for(game, waiting).hand[0]
    row = deliver(reply(game, waiting, f"play {card}"), on_commit)
    assert row.status == InboundEmail.Status.ANSWERED and "not_your_turn" in row.outcome
    assert "It is not your turn" in answer_to(outbox_cleared, game.seats.get(number=waiting).player.email).body


def test_a_reply_to_an_older_email_is_judged_against_the_game_now(game, on_commit):
    turn = to_play_phase(game)
    card = view_for(game, turn).playable[0]
    row = deliver(reply(game, turn, card), on_commit)  # just the card, to the address of the deal's email
    assert row.status == InboundEmail.Status.APPLIED
    assert Event.objects.get(game=game, source=Event.Source.EMAIL).data["card"] == card


def test_go_is_explained(game, on_commit, outbox_cleared):
    turn = to_play_phase(game)
    row = deliver(reply(game, turn, "go"), on_commit)
    assert row.status == InboundEmail.Status.ANSWERED
    assert "no need to say go" in answer_to(outbox_cleared, game.seats.get(number=turn).player.email).body


def assert_refused(game, row, outbox, address, kind, expected, seq):
    """The reply was answered with exactly `expected`, and the game did not move."""
    assert row.status == InboundEmail.Status.ANSWERED and moves_by_email(game) == 0
    assert row.outcome == f"{kind}: {expected}"
    game.refresh_from_db()
    assert game.seq == seq
    body = answer_to(outbox, address).body
    assert f"{expected}\nNothing was changed." in body


@pytest.mark.parametrize(
    "words, kind, expected",
    [
        ("crib", "unreadable", 'Name the cards after "crib", e.g. "crib 5H JD". {now}'),
        ("crib {0}", "illegal", "Lay away exactly 2 cards to the crib, not 1. Your hand: {hand}."),
        ("play {0}", "illegal", "It is not time to play a card: lay away to the crib first. {now}"),
        ("play", "unreadable", 'Name the card after "play", e.g. "play 7C". {now}'),
        ("count 8", "illegal", "There is no show to count now. {now}"),
        ("muggins", "illegal", "There is no muggins to call: the last claim missed nothing you can take now."),
    ],
    ids=[
        "crib-no-cards",
        "crib-one-card",
        "play-in-discard",
        "play-no-card",
        "count-in-discard",
        "muggins-nothing-missed",
    ],
)
def test_refusals_say_what_was_wrong(game, on_commit, outbox_cleared, words, kind, expected):
    hand, seq = list(view_for(game, 0).hand), game.seq
    row = deliver(reply(game, 0, words.format(*hand)), on_commit)
    now = f"Lay away 2 cards from your hand: {cards_text(hand)}."  # what can be done instead
    expected = expected.format(hand=cards_text(hand), now=now)
    assert_refused(game, row, outbox_cleared, "alice@example.com", kind, expected, seq)
    assert list(view_for(game, 0).hand) == hand


def test_an_unreadable_reply_is_answered_with_how_to_write_a_move(game, on_commit, outbox_cleared):
    seq = game.seq
    row = deliver(reply(game, 0, "Thanks, will think about it"), on_commit)
    assert row.status == InboundEmail.Status.ANSWERED and moves_by_email(game) == 0
    assert row.outcome == "unreadable: 'Thanks, will think about it'"
    game.refresh_from_db()
    assert game.seq == seq
    body = answer_to(outbox_cleared, "alice@example.com").body
    assert body.startswith("You wrote: Thanks, will think about it\n")
    assert (
        "We could not read a move in your reply. Write the move on the first line, above the quoted "
        'email, e.g. "play 7C". Reply "help" for all the words.\nNothing was changed.'
    ) in body


@pytest.mark.parametrize(
    "words, expected",
    [
        ("crib {0} {1}", "The discard is over. You can play {playable}."),
        # Just cards in the play: a play, and the second card is named, not dropped.
        (
            "{0} {1}",
            "We could not tell what {second} after {first} was for, so nothing on that line was played. "
            "Play one card at a time. You can play {playable}.",
        ),
        (
            "play {0} {1}",
            "We could not tell what {second} after {first} was for, so nothing on that line was played. "
            "Play one card at a time. You can play {playable}.",
        ),
    ],
    ids=["discard-in-play", "two-cards-in-play", "play-two-cards"],
)
def test_refusals_in_the_play_say_what_was_wrong(game, on_commit, outbox_cleared, words, expected):
    turn = to_play_phase(game)
    hand, seq = list(view_for(game, turn).hand), game.seq
    row = deliver(reply(game, turn, words.format(*hand)), on_commit)
    labels = [cards_text([c]) for c in view_for(game, turn).playable]
    expected = expected.format(
        playable=", ".join(labels[:-1]) + " or " + labels[-1] if len(labels) > 1 else labels[0],
        first=cards_text(hand[:1]),
        second=cards_text(hand[1:2]),
    )
    assert_refused(game, row, outbox_cleared, game.seats.get(number=turn).player.email, "illegal", expected, seq)
    assert list(view_for(game, turn).hand) == hand


@pytest.fixture
def muggins_show(db):
    """A muggins game played to its first show: (game, the seat to count)."""
    game = start_two_player_game(
        players=[
            make_user("alice@example.com", "Alice", password=None, allow_forced_moves=False),
            make_user("bob@example.com", "Bob", password=None, allow_forced_moves=False),
        ],
        muggins=True,
        rng=random.Random(7),
    )
    for _ in range(40):
        game.refresh_from_db()
        view = view_for(game, 0)
        if view.phase == "show":
            break
        seat = view.to_act[0]
        services.submit_move(game, seat, next(m for m in view_for(game, seat).legal_moves if m["kind"] != "muggins"))
    assert view.phase == "show" and view.to_act
    mail.outbox.clear()
    return game, view.to_act[0]


@pytest.mark.parametrize(
    "words, expected",
    [
        ("count", 'Say how many points you claim, e.g. "count 8".'),
        ("count lots", 'Say how many points you claim, e.g. "count 8".'),
        (
            "{0}",
            "Just cards are read as a discard or a play, but neither is asked of you now. "
            'Count your show: "count N", N the points you claim.',
        ),
    ],
    ids=["count-no-number", "count-not-a-number", "just-cards-in-the-show"],
)
def test_refusals_in_a_muggins_show_say_what_was_wrong(muggins_show, on_commit, words, expected):
    game, seat = muggins_show
    view, seq = view_for(game, seat), game.seq
    row = deliver(reply(game, seat, words.format(*(view.hand or ["7C"]))), on_commit)
    assert_refused(game, row, mail.outbox, game.seats.get(number=seat).player.email, "unreadable", expected, seq)
    assert view_for(game, seat).phase == "show" and list(view_for(game, seat).to_act) == list(view.to_act)


def test_more_time_with_no_opponent_to_move_is_refused(db, on_commit):
    players = [make_user(f"p{n}@example.com", f"P{n}", password=None, allow_forced_moves=False) for n in range(3)]
    game = start_two_player_game("three", players=players, rng=random.Random(7))
    for _ in range(3):  # everyone lays away: the play starts, one seat to act
        game.refresh_from_db()
        seat = view_for(game, 0).to_act[0]
        services.submit_move(game, seat, view_for(game, seat).legal_moves[0])
    game.refresh_from_db()
    turn = view_for(game, 0).turn
    assert view_for(game, 0).phase == "play" and list(view_for(game, 0).to_act) == [turn]
    before = list(Seat.objects.filter(game=game).order_by("number").values_list("extra_seconds", "deadline"))
    mail.outbox.clear()
    row = deliver(reply(game, turn, "more time 2"), on_commit)
    expected = 'None of your opponents is to move now: say "more time N" when one of them is.'
    assert row.status == InboundEmail.Status.ANSWERED and row.outcome == f"clock: {expected}"
    assert moves_by_email(game) == 0
    assert list(Seat.objects.filter(game=game).order_by("number").values_list("extra_seconds", "deadline")) == before
    assert expected in answer_to(mail.outbox, players[turn].email).body


def test_a_reply_to_a_computers_seat_is_dropped_without_a_word(db, on_commit):
    alice = make_user("alice@example.com", "Alice", password=None, allow_forced_moves=False)
    with on_commit():
        game = start_two_player_game(players=[alice, None], computer_level="easy", rng=random.Random(7))
    mail.outbox.clear()
    row = deliver(reply(game, 0, "status", to=links.reply_address(game.pk, 1)), on_commit)
    assert row.status == InboundEmail.Status.DROPPED and row.outcome == "no such seat"
    assert row.game_id is None and row.seat is None
    assert moves_by_email(game) == 0 and mail.outbox == []


def test_a_reply_to_a_game_that_is_gone_is_dropped_without_a_word(game, on_commit, outbox_cleared):
    gone = game.pk + 1000  # a well-signed address for a game that does not exist
    row = deliver(reply(game, 0, "status", to=links.reply_address(gone, 0)), on_commit)
    assert row.status == InboundEmail.Status.DROPPED and row.outcome == "no such seat"
    assert outbox_cleared == []


# --- When reading fails ---------------------------------------------------------------


@pytest.fixture
def stored(game):
    """A reply stored (as the webhook does) but not read yet."""
    hand = list(view_for(game, 0).hand)
    row = reception.receive(reply(game, 0, f"crib {hand[0]} {hand[1]}"), esp_name="test")
    assert row.status == InboundEmail.Status.RECEIVED
    return row


@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
def test_a_database_error_while_reading_puts_the_message_back(game, stored, monkeypatch, error):
    def away(row):
        raise error("the database went away")

    monkeypatch.setattr(inbound, "_process", away)
    with pytest.raises(error):
        inbound.process(stored.pk)
    stored.refresh_from_db()
    assert stored.status == InboundEmail.Status.RECEIVED  # read again when the task retries
    assert stored.outcome == "" and stored.processed_at is None and moves_by_email(game) == 0
    monkeypatch.undo()
    assert inbound.process(stored.pk) == InboundEmail.Status.APPLIED and moves_by_email(game) == 1


def test_any_other_error_while_reading_is_recorded_and_not_retried(game, stored, monkeypatch, outbox_cleared):
    def broken(row):
        raise RuntimeError("boom")

    monkeypatch.setattr(inbound, "_process", broken)
    assert inbound.process(stored.pk) == InboundEmail.Status.ANSWERED
    stored.refresh_from_db()
    assert stored.status == InboundEmail.Status.ANSWERED and stored.outcome == "error: RuntimeError('boom')"
    assert stored.outcome.startswith("error:") and stored.processed_at is not None
    assert moves_by_email(game) == 0 and outbox_cleared == []
    monkeypatch.undo()
    assert inbound.process(stored.pk) is None and moves_by_email(game) == 0  # not read a second time


def test_a_reply_whose_reading_never_ended_is_read_again_by_the_sweeper(game, stored):
    """Its worker died while reading it (SIGKILL, out of memory): nothing it did stayed, and the
    row would have stayed "being read" for ever. Once the lease is over the sweeper puts it back
    and it is read once; a reading still within its lease is left alone."""
    now = timezone.now()
    assert rows.claim_reply(stored.pk, now - timedelta(minutes=3)) is not None  # the dead worker's claim
    assert inbound.process(stored.pk) is None  # another worker has it
    assert inbound.unread_batch(now) == []  # within its lease: it may still be being read
    assert InboundEmail.objects.get(pk=stored.pk).status == InboundEmail.Status.PROCESSING
    later = now + inbound.READING_LEASE
    assert inbound.unread_batch(later) == [stored.pk]
    assert InboundEmail.objects.get(pk=stored.pk).status == InboundEmail.Status.RECEIVED
    assert inbound.process(stored.pk) == InboundEmail.Status.APPLIED and moves_by_email(game) == 1
    assert inbound.unread_batch(later + inbound.READING_LEASE) == []  # read: never again


def test_one_answer_per_address_kind_and_words_in_the_window(game, on_commit, outbox_cleared):
    deliver(reply(game, 0, "what?"), on_commit)
    deliver(reply(game, 0, "What?"), on_commit)  # the same words again: not answered again
    deliver(reply(game, 0, "pardon?"), on_commit)  # another try is answered: a refusal always is
    deliver(reply(game, 0, "help"), on_commit)  # another kind is still answered
    assert [m.to for m in outbox_cleared] == [["alice@example.com"]] * 3


def test_answers_to_one_address_are_capped_in_the_window(game, on_commit, outbox_cleared):
    for n in range(services_mail.MAX_ANSWERS + 3):
        deliver(reply(game, 0, f"what number {n}?"), on_commit)
    assert len(outbox_cleared) == services_mail.MAX_ANSWERS


def test_status_sends_the_state_again_and_help_the_words(game, on_commit, outbox_cleared):
    deliver(reply(game, 0, "status"), on_commit)
    deliver(reply(game, 0, "help"), on_commit)
    status, help_ = outbox_cleared
    assert "Your hand" in status.body and status.body.count("\ncrib ") == 15
    assert "crib 5H JD" in help_.body and "resign" in help_.body
    assert moves_by_email(game) == 0


def test_resign_ends_the_game(game, on_commit):
    row = deliver(reply(game, 0, "resign"), on_commit)
    game.refresh_from_db()
    assert row.status == InboundEmail.Status.APPLIED and game.is_finished and game.finish == "resign"


def test_a_reply_to_a_finished_game_is_answered(game, on_commit, outbox_cleared):
    services.submit_move(game, 1, {"kind": "resign"})
    game.refresh_from_db()
    row = deliver(reply(game, 0, "status"), on_commit)
    assert row.status == InboundEmail.Status.ANSWERED
    hand = list(view_for(game, 0).hand)
    deliver(reply(game, 0, f"crib {hand[0]} {hand[1]}"), on_commit)
    assert "This game is over" in outbox_cleared[-1].body and moves_by_email(game) == 0


def test_unsubscribe_by_mail_turns_turn_emails_off(game, on_commit):
    row = deliver(reply(game, 0, "", subject="unsubscribe"), on_commit)
    alice = game.seats.get(number=0).player
    alice.refresh_from_db()
    assert row.status == InboundEmail.Status.ANSWERED and alice.notify == "none"


def test_html_only_reply_is_read_without_its_quote(game, on_commit):
    from anymail.inbound import AnymailInboundMessage

    from tests.factories import genuine

    hand = list(view_for(game, 0).hand)
    message = AnymailInboundMessage.construct(
        from_email="alice@example.com",
        to=links.reply_address(game.pk, 0),
        subject="Re: Your move",
        html=f'<div>crib {hand[0]} {hand[1]}</div><div class="gmail_quote"><blockquote>crib {hand[2]} {hand[3]}'
        "</blockquote></div>",
        headers={"Message-ID": "<html@mail.example.com>", **genuine("alice@example.com")},
    )
    assert deliver(message, on_commit).status == InboundEmail.Status.APPLIED
    assert Event.objects.get(game=game, source=Event.Source.EMAIL).data["cards"] == hand[:2]


def test_under_muggins_a_play_must_say_what_it_claims(db, on_commit):
    from tests.factories import make_user, start_two_player_game

    game = start_two_player_game(
        players=[
            make_user("alice@example.com", "Alice", password=None),
            make_user("bob@example.com", "Bob", password=None),
        ],
        muggins=True,
    )
    turn = to_play_phase(game)
    card = view_for(game, turn).playable[0]
    mail.outbox.clear()
    row = deliver(reply(game, turn, f"play {card}"), on_commit)
    assert row.status == InboundEmail.Status.ANSWERED and f"play {card} claim N" in mail.outbox[-1].body
    row = deliver(reply(game, turn, f"play {card} claim 0"), on_commit)
    assert row.status == InboundEmail.Status.APPLIED
    assert Event.objects.get(game=game, source=Event.Source.EMAIL).data["claim"] == 0
