"""No relay: what players cause to be mailed to others is capped, tried as an attacker would (real
form posts, a reply to the service's address in a provider's payload): an address with no member
gets a few emails a day whoever sends them, a player makes a few challenges a day, two players
have one open challenge between them, a game has one rematch, and no display name leads the
subject of mail to a stranger."""

import random
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from accounts.models import StrangerMail, User
from games import services
from games.models import Challenge
from mail.models import InboundEmail, OutboundEmail
from tests.factories import make_user, start_two_player_game
from tests.mail import payloads
from tests.mail.test_service_address import answer_to, send

pytestmark = pytest.mark.django_db

STRANGER = "victim@example.org"


@pytest.fixture(autouse=True)
def _env(settings):
    settings.SITE_URL = "https://cribbage.example"
    settings.MAIL_TO_STRANGERS_PER_DAY = 3
    payloads.configure(settings)


def challenge(client, user, opponent):
    client.force_login(user)
    return client.post(
        reverse("games:new_challenge"), {"variant": "two", "target": "121", "days_per_move": "3", "player1": opponent}
    )


def refusal(response):
    return " ".join(response.context["form"].non_field_errors())


def test_ten_challenges_to_one_stranger_send_at_most_the_allowance(client):
    senders = [make_user(display_name=f"WIN $500 at evil{n}.example") for n in range(10)]
    responses = [challenge(client, sender, STRANGER) for sender in senders]
    to_stranger = [m for m in mail.outbox if m.to == [STRANGER]]
    assert len(to_stranger) == 3  # the invitation, then two challenge notices; then nothing
    assert [r.status_code for r in responses] == [302] * 3 + [400] * 7
    assert "victim@example.org has had as many emails from players here" in refusal(responses[3])
    assert Challenge.objects.count() == 3  # a refused challenge makes nothing
    # No attacker's words lead a subject to the stranger.
    assert to_stranger[0].subject == "An invitation to a game of cribbage by mail, from WIN $500 at evil0.example"
    assert to_stranger[1].subject == "A challenge to a game of cribbage by mail, from WIN $500 at evil1.example"
    # The next day the address may be reached again.
    with time_machine.travel(timezone.now() + timedelta(days=1, minutes=1)):
        assert challenge(client, senders[3], STRANGER).status_code == 302


def test_a_member_is_reached_whatever_the_count(client):
    bob = make_user("bob@example.com", "Bob")
    for _ in range(5):
        assert challenge(client, make_user(), bob.email).status_code == 302
    assert len([m for m in mail.outbox if m.to == [bob.email]]) == 5
    assert not StrangerMail.objects.exists()


def test_the_outbox_skips_mail_to_a_stranger_past_the_allowance_whoever_owes_it(client):
    """A signed-up address never confirmed (anyone can sign up with anyone's address) gets the
    notices its challenges cause only while its allowance lasts: skipped after, never sent."""
    unconfirmed = make_user(STRANGER, "WIN $500", email_confirmed=False)
    for _ in range(5):
        bob = make_user()
        challenge(client, unconfirmed, bob.email)
        client.force_login(bob)
        client.post(reverse("games:challenge_decline", args=[Challenge.objects.latest("pk").pk]))
    notices = OutboundEmail.objects.filter(to=STRANGER).order_by("pk")
    assert [n.status for n in notices] == ["sent"] * 3 + ["skipped"] * 2
    assert len([m for m in mail.outbox if m.to == [STRANGER]]) == 3
    assert {m.subject for m in mail.outbox if m.to == [STRANGER]} == {"Your cribbage challenge was declined"}


def test_challenges_a_day_are_capped(client, settings):
    settings.CHALLENGES_PER_DAY = 3
    alice = make_user(display_name="Alice")
    others = [make_user() for _ in range(4)]
    responses = [challenge(client, alice, other.email) for other in others]
    assert [r.status_code for r in responses] == [302, 302, 302, 400]
    assert "You have made 3 challenges in the last 24 hours" in refusal(responses[3])
    assert Challenge.objects.count() == 3 and not [m for m in mail.outbox if m.to == [others[3].email]]
    with time_machine.travel(timezone.now() + timedelta(days=1, minutes=1)):
        assert challenge(client, alice, others[3].email).status_code == 302


def test_two_players_have_one_open_challenge_between_them(client):
    alice, bob = make_user(display_name="Alice"), make_user(display_name="Bob")
    assert challenge(client, alice, bob.email).status_code == 302
    again, back = challenge(client, alice, bob.email), challenge(client, bob, alice.email)
    assert again.status_code == back.status_code == 400
    assert "You and Bob already have an open challenge between you" in refusal(again)
    assert "You and Alice already have an open challenge between you" in refusal(back)
    assert Challenge.objects.count() == 1 and len([m for m in mail.outbox if m.to == [bob.email]]) == 1
    client.post(reverse("games:challenge_decline", args=[Challenge.objects.get().pk]))  # Bob declines
    assert challenge(client, alice, bob.email).status_code == 302


def test_a_game_is_offered_one_rematch(client):
    alice, bob = make_user(display_name="Alice"), make_user(display_name="Bob")
    game = start_two_player_game(players=[alice, bob], rng=random.Random(2))
    services.submit_move(game, 1, {"kind": "resign"})
    client.force_login(alice)
    assert client.post(reverse("games:rematch", args=[game.pk])).status_code == 302
    client.force_login(bob)
    client.post(reverse("games:challenge_decline", args=[Challenge.objects.get().pk]))
    mail.outbox.clear()
    for player in (alice, bob):
        client.force_login(player)
        response = client.post(reverse("games:rematch", args=[game.pk]))
        assert response.status_code == 400
        assert "A rematch of this game has already been offered" in response.content.decode()
    assert Challenge.objects.count() == 1 and mail.outbox == []
    assert "Rematch" not in client.get(reverse("games:game", args=[game.pk])).content.decode()


def test_new_game_by_email_past_a_cap_is_answered_and_makes_nothing(client, settings):
    settings.CHALLENGES_PER_DAY = 1
    alice = make_user("alice@example.com", "Alice", password=None)
    assert send(client, "alice@example.com", f"new game {make_user().email}").status == InboundEmail.Status.APPLIED
    row = send(client, "alice@example.com", f"new game {STRANGER}")
    assert row.status == InboundEmail.Status.ANSWERED
    assert "You have made 1 challenges in the last 24 hours" in answer_to(alice.email).body
    assert Challenge.objects.count() == 1 and not User.objects.filter(email=STRANGER).exists()
