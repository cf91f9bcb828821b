"""Everything by email to the service's own address (play@ the reply domain), posted to the inbound
webhook in a provider's documented payload: help, games, vacation and back, new games (a member,
an address, an open seek, the computer), signing up from a new address, entering events and ladders."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from accounts.models import User
from games import tasks
from games.models import Challenge, Game
from ladders.models import Entrant as LadderEntrant
from mail import event_replies, links, service_replies
from mail.models import InboundEmail
from tests.factories import make_user, start_two_player_game
from tests.ladders.conftest import make_ladder  # noqa: F401 (a fixture)
from tests.tournaments.conftest import make_event  # noqa: F401 (a fixture)
from tournaments.models import Entrant, Tournament

from . import payloads

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def anymail_settings(settings):
    payloads.configure(settings)


@pytest.fixture
def alice(db):
    return make_user("alice@example.com", "Alice", password=None)


def send(client, sender, words, *, to=None, subject="Hello", esp="postmark"):
    message = payloads.compose(
        sender=sender, to=to or service_replies.service_address(), subject=subject, text=f"{words}\n\n-- \nAlice\n"
    )
    mail.outbox.clear()
    assert payloads.post(client, esp, message).status_code == 200
    return InboundEmail.objects.order_by("-received_at", "-pk").first()


def answer_to(email, reply_to=None):
    """The last answer to `email` from the service's address (or `reply_to`), not a game's email."""
    reply_to = reply_to or service_replies.service_address()
    found = [m for m in mail.outbox if m.to == [email] and m.reply_to == [reply_to]]
    assert found, [m.to for m in mail.outbox]
    return found[-1]


@pytest.mark.parametrize("esp", ["postmark", "mailgun"])
def test_help_and_unreadable_words_are_answered_with_the_words_and_change_nothing(client, alice, esp):
    row = send(client, "Alice <alice@example.com>", "help", esp=esp)
    assert row.status == InboundEmail.Status.ANSWERED
    answer = answer_to(alice.email)
    assert "new game computer expert" in answer.body and answer.reply_to == [service_replies.service_address()]
    before = (Game.objects.count(), Challenge.objects.count())
    row = send(client, "alice@example.com", "please deal me in", esp=esp)
    assert (
        row.status == InboundEmail.Status.ANSWERED and "We could not read what you want" in answer_to(alice.email).body
    )
    assert (Game.objects.count(), Challenge.objects.count()) == before


def test_games_lists_every_game_with_its_reply_address(client, alice):
    bob = make_user("bob@example.com", "Bob")
    game = start_two_player_game(players=[alice, bob])
    send(client, "alice@example.com", "games")
    body = answer_to(alice.email).body
    assert f"Game {game.pk}, against Bob: your turn, by " in body and links.reply_address(game.pk, 0) in body


def test_vacation_and_back_to_the_service_address(client, alice):
    start_two_player_game(players=[alice, make_user()])
    assert send(client, "alice@example.com", "vacation 2").status == InboundEmail.Status.APPLIED
    alice.refresh_from_db()
    assert alice.away_until is not None and "Your vacation has started: 2 days" in answer_to(alice.email).body
    assert send(client, "alice@example.com", "vacation 2 days").status == InboundEmail.Status.ANSWERED
    assert "already on vacation" in answer_to(alice.email).body
    assert send(client, "alice@example.com", "back").status == InboundEmail.Status.APPLIED
    alice.refresh_from_db()
    assert alice.away_until is None and "Welcome back" in answer_to(alice.email).body


def test_new_game_challenges_a_member_by_name_an_address_or_opens_a_seek(client, alice):
    bob = make_user("bob@example.com", "Bob Smith")
    assert send(client, "alice@example.com", "new game Bob Smith").status == InboundEmail.Status.APPLIED
    challenge = Challenge.objects.get(challenger=alice, is_seek=False)
    assert [p.player for p in challenge.places.all()] == [bob]
    assert "Your challenge to Bob Smith is sent" in answer_to(alice.email).body
    assert [m for m in mail.outbox if m.to == [bob.email]]  # the challenge notice
    assert send(client, "alice@example.com", "new game carol@example.org").status == InboundEmail.Status.APPLIED
    assert User.objects.filter(email="carol@example.org").exists()  # invited, by the challenge service
    assert send(client, "alice@example.com", "new game open").status == InboundEmail.Status.APPLIED
    assert Challenge.objects.filter(challenger=alice, is_seek=True).count() == 1


@pytest.mark.parametrize(
    "words, said",
    [
        ("new game", "Say whom to play"),
        ("new game Nobody Known", 'Nobody here plays as "Nobody Known"'),
        ("new game alice@example.com", "You cannot challenge yourself"),
        ("new game computer grandmaster", "is not a level"),
        ("new game computer expert delay soon", "is not a delay"),
        ("new game computer expert delay 30d", "7 days"),
    ],
)
def test_a_new_game_that_cannot_be_made_is_answered_and_makes_nothing(client, alice, words, said):
    row = send(client, "alice@example.com", words)
    assert row.status == InboundEmail.Status.ANSWERED
    assert said in answer_to(alice.email).body
    assert not Challenge.objects.exists() and not Game.objects.exists()


def test_new_game_against_the_computer_waits_the_delay_chosen_kept_in_the_games_row(client, alice):
    row = send(client, "alice@example.com", "new game computer expert delay 2h")
    assert row.status == InboundEmail.Status.APPLIED
    game = Game.objects.get()
    assert game.computer_delay == timedelta(hours=2) and not game.practice
    assert game.assistance == Game.Assistance.COACH
    assert game.seats.get(number=1).computer_level == "expert"
    assert "the computer answers 2 hours after each of your moves" in answer_to(alice.email).body
    # The player throws; the computer's throw waits for its time, then the sweeper plays it.
    from games import services
    from games.selectors import view_for

    services.submit_move(game, 0, view_for(game, 0).legal_moves[0])
    game.refresh_from_db()
    seq = game.seq
    assert game.seats.get(number=1).to_act
    tasks.sweep()
    game.refresh_from_db()
    assert game.seq == seq  # not yet
    with time_machine.travel(timezone.now() + timedelta(hours=2, minutes=1)):
        # The turns owed at the deal and after the throw (the first does nothing: the game moved on).
        assert tasks.sweep() == 2
    game.refresh_from_db()
    assert game.seq > seq and game.events.filter(kind="discard", seat=1).exists()


def test_a_new_address_signs_up_by_email_and_gets_a_confirmation_link(client):
    row = send(client, "Dana Rivers <dana@example.net>", "new game computer")
    assert row.status == InboundEmail.Status.APPLIED
    dana = User.objects.get(email="dana@example.net")
    assert dana.display_name == "Dana Rivers" and not dana.email_confirmed and not dana.has_usable_password()
    (confirmation,) = [m for m in mail.outbox if m.to == ["dana@example.net"]]
    assert "/confirm/" in confirmation.body
    assert not Game.objects.exists()  # the game is for once the address is confirmed and the player writes again


def test_a_stranger_writing_anything_else_is_dropped_unanswered(client):
    row = send(client, "eve@example.net", "games")
    assert row.status == InboundEmail.Status.DROPPED and not mail.outbox


def test_enter_an_event_or_a_ladder_by_name_and_withdraw_before_the_start(client, alice, make_event, make_ladder):  # noqa: F811
    event, _ = make_event(2, slug="winter-league", name="Winter League")
    assert send(client, "alice@example.com", "enter Winter League").status == InboundEmail.Status.APPLIED
    assert Entrant.objects.filter(tournament=event, player=alice).exists()
    assert "You are entered in Winter League" in answer_to(alice.email).body
    assert send(client, "alice@example.com", "enter winter-league").status == InboundEmail.Status.ANSWERED
    assert "entered in Winter League already" in answer_to(alice.email).body
    assert send(client, "alice@example.com", "withdraw winter-league").status == InboundEmail.Status.ANSWERED
    asked = answer_to(alice.email).body
    assert "Nothing was done yet." in asked and Entrant.objects.filter(tournament=event, player=alice).exists()
    code = re.search(r"confirm ([0-9a-f]{12})", asked).group(1)
    to = event_replies.event_address("event", event.slug)
    assert send(client, "alice@example.com", f"confirm {code}", to=to).status == InboundEmail.Status.APPLIED
    assert not Entrant.objects.filter(tournament=event, player=alice).exists()
    ladder, _ = make_ladder(2, slug="club")
    assert send(client, "alice@example.com", "enter club").status == InboundEmail.Status.APPLIED
    assert LadderEntrant.objects.filter(ladder=ladder, player=alice, active=True).exists()
    assert send(client, "alice@example.com", "enter Spring Open").status == InboundEmail.Status.ANSWERED
    assert 'Nothing here is called "Spring Open"' in answer_to(alice.email).body


def test_enter_on_the_events_own_address_and_join_on_the_ladders(client, alice, make_event, make_ladder):  # noqa: F811
    from ladders import notices
    from tournaments import replies, services

    event, _ = make_event(2, slug="open")
    assert send(client, "alice@example.com", "enter", to=replies.address(event)).status == "applied"
    assert Entrant.objects.filter(tournament=event, player=alice).exists()
    services.start(event)
    bob = make_user()
    assert send(client, bob.email, "enter", to=replies.address(event)).status == "answered"
    assert "entries are closed" in answer_to(bob.email, replies.address(event)).body
    assert not Entrant.objects.filter(tournament=event, player=bob).exists()
    ladder, _ = make_ladder(2, slug="club")
    assert send(client, "alice@example.com", "join", to=notices.ladder_address(ladder)).status == "applied"
    assert "You are on Club, at position 3" in answer_to(alice.email, notices.ladder_address(ladder)).body
    ladder.is_open = False
    ladder.save()
    assert send(client, bob.email, "join", to=notices.ladder_address(ladder)).status == "answered"
    assert "closed to new entrants" in answer_to(bob.email, notices.ladder_address(ladder)).body
    assert Tournament.objects.count() == 1
