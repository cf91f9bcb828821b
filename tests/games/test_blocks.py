"""The block list, tried as the blocked player would try to get past it (real form posts, a reply
to the service's address): no challenge, no place at the blocker's table, no rematch, no table
talk heard; the refusal reads as for an unavailable player, so the blocked one is not told."""

import random

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import Block
from games import services
from games.models import Challenge, ChallengePlace
from mail.models import InboundEmail
from tests.factories import make_user, start_two_player_game
from tests.mail import payloads
from tests.mail.test_service_address import answer_to, send

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _env(settings):
    payloads.configure(settings)


@pytest.fixture
def alice_blocks_bob(client):
    alice, bob = make_user("alice@example.com", "Alice"), make_user("bob@example.com", "Bob")
    client.force_login(alice)
    client.post(reverse("accounts:block", args=[bob.pk]), {"next": f"/players/{bob.pk}/"})
    return alice, bob


def challenge(client, user, opponent):
    client.force_login(user)
    return client.post(
        reverse("games:new_challenge"), {"variant": "two", "target": "121", "days_per_move": "3", "player1": opponent}
    )


def refusal(response):
    return " ".join(response.context["form"].non_field_errors())


def test_a_player_blocks_from_the_player_page_and_unblocks_from_the_profile(client):
    alice, bob = make_user(display_name="Alice"), make_user(display_name="Bob")
    client.force_login(alice)
    page = client.get(reverse("ratings:player", args=[bob.pk])).content.decode()
    assert "Block Bob" in page and reverse("accounts:block", args=[bob.pk]) in page
    response = client.post(reverse("accounts:block", args=[bob.pk]), {"next": f"/players/{bob.pk}/"}, follow=True)
    assert response.redirect_chain[-1][0] == f"/players/{bob.pk}/"
    assert "You have blocked Bob" in response.content.decode() and "Unblock" in response.content.decode()
    assert Block.objects.filter(blocker=alice, blocked=bob).exists()
    profile = client.get(reverse("accounts:profile")).content.decode()
    assert "Blocked players" in profile and f"/players/{bob.pk}/" in profile
    client.post(reverse("accounts:block", args=[bob.pk]), {"unblock": "1", "next": "/accounts/profile/#blocked"})
    assert not Block.objects.exists()
    assert "Nobody." in client.get(reverse("accounts:profile")).content.decode()
    assert client.post(reverse("accounts:block", args=[alice.pk])).status_code == 400  # not oneself
    assert mail.outbox == []  # Bob is never told


def test_a_blocked_players_challenge_reads_as_an_unavailable_player_and_sends_nothing(client, alice_blocks_bob):
    alice, bob = alice_blocks_bob
    mail.outbox.clear()
    response = challenge(client, bob, alice.email)
    assert response.status_code == 400 and refusal(response) == "Alice is not available for a game."
    alice.is_active = False  # a closed account reads the same: the block is not given away
    alice.save()
    assert refusal(challenge(client, bob, alice.email)) == "Alice is not available for a game."
    assert not Challenge.objects.exists() and mail.outbox == []


def test_a_blocked_players_new_game_by_email_is_refused_alike(client, alice_blocks_bob):
    alice, bob = alice_blocks_bob
    row = send(client, "Bob <bob@example.com>", "new game Alice")
    assert row.status == InboundEmail.Status.ANSWERED
    assert "Alice is not available for a game." in answer_to(bob.email).body
    assert not Challenge.objects.exists() and not [m for m in mail.outbox if m.to == [alice.email]]


def test_the_blocker_is_told_why_they_cannot_challenge_whom_they_blocked(client, alice_blocks_bob):
    alice, bob = alice_blocks_bob
    response = challenge(client, alice, bob.email)
    assert "You have blocked Bob: unblock them on your profile to play them." in refusal(response)
    assert not Challenge.objects.exists()


def test_the_blocked_cannot_take_a_place_at_the_blockers_open_challenge(client, alice_blocks_bob):
    alice, bob = alice_blocks_bob
    client.force_login(alice)
    client.post(reverse("games:seeks"), {"variant": "two", "target": "121", "days_per_move": "3"})
    seek = Challenge.objects.get(is_seek=True)
    client.force_login(bob)
    response = client.post(reverse("games:challenge_accept", args=[seek.pk]))
    assert response.status_code == 409 and "This challenge is not available." in response.content.decode()
    assert not ChallengePlace.objects.filter(player=bob).exists()
    client.force_login(make_user(display_name="Carol"))
    assert client.post(reverse("games:challenge_accept", args=[seek.pk])).status_code == 302  # anyone else may


def test_a_challenge_made_before_the_block_cannot_seat_the_blocked(client):
    alice, bob = make_user(display_name="Alice"), make_user(display_name="Bob")
    challenge(client, alice, bob.email)
    client.post(reverse("accounts:block", args=[bob.pk]))
    client.force_login(bob)
    response = client.post(reverse("games:challenge_accept", args=[Challenge.objects.get().pk]))
    assert response.status_code == 409 and "This challenge is not available." in response.content.decode()
    assert Challenge.objects.get().game is None


def test_a_rematch_with_the_blocker_is_refused(client):
    alice, bob = make_user(display_name="Alice"), make_user(display_name="Bob")
    game = start_two_player_game(players=[alice, bob], rng=random.Random(2))
    services.submit_move(game, 0, {"kind": "resign"})
    client.force_login(alice)
    client.post(reverse("accounts:block", args=[bob.pk]))
    client.force_login(bob)
    response = client.post(reverse("games:rematch", args=[game.pk]))
    assert response.status_code == 400 and "Alice is not available for a game." in response.content.decode()
    assert not Challenge.objects.exists()


def test_the_blocker_no_longer_hears_the_blocked_at_the_table(client):
    alice, bob = make_user(display_name="Alice"), make_user(display_name="Bob")
    game = start_two_player_game(players=[alice, bob])
    client.force_login(alice)
    client.post(reverse("accounts:block", args=[bob.pk]))
    client.force_login(bob)
    response = client.post(reverse("games:say", args=[game.pk]), {"text": "WIN $500 at evil.example"}, follow=True)
    assert "Said to the table." in response.content.decode()  # Bob is not told
    assert "WIN $500" in response.content.decode()  # he sees his own words
    client.force_login(alice)
    assert "WIN $500" not in client.get(reverse("games:game", args=[game.pk])).content.decode()
