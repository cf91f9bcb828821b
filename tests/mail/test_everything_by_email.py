"""A player does everything by email, end to end: a vacation and its end, the list of games, entering
an event and a ladder, a challenge, signing up from a new address, and a whole game against the
computer with a plan for every hand (one email a hand).

Real parts as in test_end_to_end: a Celery worker on Redis, SMTP to aiosmtpd, and mail posted to
the inbound webhook in Postmark's documented format, written as a mail client writes it.
"""

import queue
import re
import time

import pytest
from django.conf import settings
from django.test import Client

from accounts.models import User
from games import lifecycle
from games.models import Challenge, Event, Game
from ladders import membership, notices, seasons
from ladders.models import Entrant as LadderEntrant
from ladders.models import Ladder
from mail import service_replies
from tests.factories import make_user
from tournaments.models import Entrant, Tournament

from . import payloads
from .smtp_sink import text_part
from .test_end_to_end import MOVE_LINE, quoted_reply, smtp  # noqa: F401 (a fixture)

WAIT = 30  # seconds for an email before calling it lost


def _post(client, *, sender, to, subject, text, headers=None):
    message = payloads.compose(sender=sender, to=to, subject=subject, text=text, headers=headers)
    assert payloads.post(client, "postmark", message).status_code == 200


def _mail_to(sink, address, *, containing):
    """The next email to `address` whose text holds `containing` (or one of them, a tuple); others
    to anyone are passed over."""
    wanted = containing if isinstance(containing, tuple) else (containing,)
    deadline, passed = time.monotonic() + WAIT, []
    while time.monotonic() < deadline:
        try:
            _, rcpt_tos, message = sink.next(timeout=0.5)
        except queue.Empty:
            continue
        if rcpt_tos == [address] and any(w in text_part(message) for w in wanted):
            return message
        passed.append((rcpt_tos, message["Subject"]))
    pytest.fail(f"no email to {address} with {containing!r} in {WAIT}s; passed over {passed}")


def _mails_to(sink, *wanted):
    """The next email matching each of `wanted` ((address, containing) as for `_mail_to`), in
    whatever order they come: an answer is owed after what its words did, whose own emails (a
    challenge's, a new game's first turn) may go first. Others are passed over."""
    found = [None] * len(wanted)
    deadline, passed = time.monotonic() + WAIT, []
    while None in found and time.monotonic() < deadline:
        try:
            _, rcpt_tos, message = sink.next(timeout=0.5)
        except queue.Empty:
            continue
        for i, (address, containing) in enumerate(wanted):
            words = containing if isinstance(containing, tuple) else (containing,)
            if found[i] is None and rcpt_tos == [address] and any(w in text_part(message) for w in words):
                found[i] = message
                break
        else:
            passed.append((rcpt_tos, message["Subject"]))
    if None in found:
        pytest.fail(f"no email for {[w for w, m in zip(wanted, found) if m is None]} in {WAIT}s; passed over {passed}")
    return found


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_vacation_games_enter_new_game_and_sign_up_by_email(celery_worker_on_redis, smtp):  # noqa: F811
    client = Client()
    alice = make_user("alice@example.com", "Alice", password=None)
    bob = make_user("bob@example.com", "Bob Smith", password=None)
    game = lifecycle.start_game(players=[alice, bob], days_per_move=3)
    event = Tournament.objects.create(name="Winter League", slug="winter-league")
    ladder = Ladder.objects.create(name="Club", slug="club", rematch_days=0)
    seasons.current_season(ladder)
    membership.join(ladder, bob)
    us = service_replies.service_address()

    def write(words, to=us):
        _post(client, sender="Alice <alice@example.com>", to=to, subject="Hello", text=f"{words}\n\n-- \nAlice\n")

    turn = _mail_to(smtp, alice.email, containing="it is your turn to")
    write("games")
    listing = text_part(_mail_to(smtp, alice.email, containing="against Bob Smith"))
    assert f"Game {game.pk}, against Bob Smith: your turn, by " in listing and turn["Reply-To"] in listing

    write("vacation 3")
    assert "Your vacation has started: 3 days" in text_part(_mail_to(smtp, alice.email, containing="vacation"))
    alice.refresh_from_db()
    assert alice.away_until is not None
    assert game.events.filter(kind="vacation_start", seat=0, source=Event.Source.EMAIL).exists()
    # "back" in reply to the game's turn email (any game's address works).
    _post(
        client,
        sender="alice@example.com",
        to=turn["Reply-To"],
        subject="Re: " + turn["Subject"],
        text=quoted_reply(turn, "back"),
        headers={"In-Reply-To": turn["Message-ID"]},
    )
    assert "Welcome back" in text_part(_mail_to(smtp, alice.email, containing="Welcome back"))
    alice.refresh_from_db()
    assert alice.away_until is None

    write("enter Winter League")
    _mail_to(smtp, alice.email, containing="You are entered in Winter League")
    assert Entrant.objects.filter(tournament=event, player=alice).exists()
    write("withdraw winter-league")  # done once confirmed by the code sent to the entrant's own address
    asked = text_part(_mail_to(smtp, alice.email, containing="You asked to withdraw your entry in Winter League"))
    confirm = re.search(r"reply to (\S+) with this first line \(until tomorrow\): (confirm \S+)", asked)
    assert Entrant.objects.filter(tournament=event, player=alice).exists()
    write(confirm[2], to=confirm[1])
    _mail_to(smtp, alice.email, containing="Your entry in Winter League is withdrawn")
    assert not Entrant.objects.filter(tournament=event, player=alice).exists()
    write("enter", to=f"event+winter-league@{settings.REPLY_DOMAIN}")
    _mail_to(smtp, alice.email, containing="You are entered in Winter League")
    assert Entrant.objects.filter(tournament=event, player=alice).exists()
    write("join", to=notices.ladder_address(ladder))
    _mail_to(smtp, alice.email, containing="You are on Club, at position 2")
    assert LadderEntrant.objects.filter(ladder=ladder, player=alice, active=True).exists()
    write("enter Summer Cup")
    _mail_to(smtp, alice.email, containing='Nothing here is called "Summer Cup"')

    write("new game Bob Smith")
    _mails_to(smtp, (alice.email, "Your challenge to Bob Smith is sent"), (bob.email, "Alice"))
    assert Challenge.objects.filter(challenger=alice, places__player=bob).exists()
    write("new game")
    _mail_to(smtp, alice.email, containing="Say whom to play")

    _post(client, sender="Dana Rivers <dana@example.net>", to=us, subject="Hi", text="sign up\n")
    confirmation = text_part(_mail_to(smtp, "dana@example.net", containing="/confirm/"))
    assert "Dana Rivers" in confirmation or "confirm" in confirmation
    assert not User.objects.get(email="dana@example.net").email_confirmed
    assert Tournament.objects.count() == 1 and Game.objects.count() == 1


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_whole_game_against_the_computer_by_email_with_a_plan_for_every_hand(celery_worker_on_redis, smtp):  # noqa: F811
    client = Client()
    alice = make_user("alice@example.com", "Alice", password=None)
    us = service_replies.service_address()
    _post(client, sender="alice@example.com", to=us, subject="A game", text="new game computer standard\n")
    started, message = _mails_to(
        smtp,
        (alice.email, "against the computer (standard) has started"),
        (alice.email, "it is your turn to"),
    )
    assert "the coach is on" in text_part(started)
    game = Game.objects.get()
    assert game.assistance == Game.Assistance.COACH and not game.practice
    emails, first = 0, True
    while True:
        if message is None:
            message = _mail_to(smtp, alice.email, containing=("it is your turn to", f"Game {game.pk} (Alice v"))
        if "it is your turn to" not in text_part(message):
            assert "is over" in text_part(message)
            break
        emails += 1
        assert emails < 60, "a game with a plan for every hand is a few emails a hand"
        words = next(MOVE_LINE.finditer(text_part(message)))["words"]
        if first:  # the first reply also keeps a plan for every hand
            words, first = f"{words}\nplan always score first, low first", False
        _post(
            client,
            sender="alice@example.com",
            to=message["Reply-To"],
            subject="Re: " + message["Subject"],
            text=quoted_reply(message, words),
            headers={"In-Reply-To": message["Message-ID"]},
        )
        message = None
    game.refresh_from_db()
    assert game.is_finished
    hands = game.events.filter(kind="deal").count()
    alice.refresh_from_db()
    assert alice.standing_plan == [{"rule": "score_first"}, {"rule": "low_first"}]
    plays = set(game.events.filter(kind="play", seat=0).values_list("source", flat=True))
    assert Event.Source.PLAN in plays
    assert emails <= hands + 3, (emails, hands)  # one a hand: the discard (and the first hand's play)
    print(f"against the computer by email: {emails} turn emails for {hands} hands")
