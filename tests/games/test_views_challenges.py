"""Starting games on the web: challenges, invitations, seeks, and the My games page."""

import random
import re

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import User
from games import challenges, services
from games.models import Challenge, Game
from mail import messages
from tests.factories import finish_game, make_user, start_two_player_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _env(settings):
    settings.SITE_URL = "https://cribbage.example"
    from django.core.cache import cache

    cache.clear()  # the per-address mail limits


def challenge_form(**fields):
    return {"variant": "two", "target": "121", "days_per_move": "3", **fields}


def messages_of(response):
    return [str(m) for m in response.context["messages"]] if response.context else []


# --- A challenge to a member -----------------------------------------------------------


def test_the_new_game_form_needs_a_login(client):
    response = client.get(reverse("games:new_challenge"))
    assert response.status_code == 302 and "login" in response["Location"]


def test_challenging_a_member_who_accepts_starts_the_game(client):
    alice, bob = make_user(display_name="Alice"), make_user(display_name="Bob")
    client.force_login(alice)
    assert client.get(reverse("games:new_challenge")).status_code == 200
    response = client.post(
        reverse("games:new_challenge"), challenge_form(player1=bob.email.upper(), muggins="on", target="61")
    )
    ch = Challenge.objects.get()
    assert response.status_code == 302 and response["Location"] == ch.get_absolute_url()
    assert (ch.target, ch.muggins, ch.status) == (61, True, "open")
    # Bob is told by mail, with a link to the challenge, in both parts.
    [notice] = mail.outbox
    assert notice.to == [bob.email] and "Alice challenges you" in notice.subject
    link = f"https://cribbage.example{ch.get_absolute_url()}"
    assert link in notice.body and f'href="{link}"' in notice.alternatives[0][0]
    # Bob sees it on his games page and accepts.
    client.force_login(bob)
    assert "Alice challenges you" in client.get(reverse("games:my_games")).content.decode()
    assert "Accept" in client.get(ch.get_absolute_url()).content.decode()
    response = client.post(reverse("games:challenge_accept", args=[ch.pk]))
    ch.refresh_from_db()
    game = ch.game
    assert ch.status == "accepted" and response["Location"] == game.get_absolute_url()
    assert [s.player for s in game.seats.order_by("number")] == [alice, bob]
    assert (game.target, game.muggins, game.days_per_move) == (61, True, 3)
    told = mail.outbox[-1]
    assert told.to == [alice.email] and "the game has started" in told.body
    assert told.subject == f"Bob accepted: the game has started — Alice v Bob (game {game.pk})"
    assert told.extra_headers["References"] == messages.thread_root(game.pk)


def test_declining_ends_the_challenge_and_tells_the_challenger(client):
    alice, bob = make_user(), make_user(display_name="Bob")
    ch = challenges.create_challenge(alice, [bob.email])
    client.force_login(bob)
    client.post(reverse("games:challenge_decline", args=[ch.pk]))
    ch.refresh_from_db()
    assert ch.status == "declined" and ch.game is None
    assert mail.outbox[-1].to == [alice.email] and "Bob declined" in mail.outbox[-1].subject
    # Accepting afterwards is refused with a reason, on the challenge as it stands, and starts nothing.
    response = client.post(reverse("games:challenge_accept", args=[ch.pk]))
    assert response.status_code == 409  # the last message: the one before was not shown yet
    assert messages_of(response)[-1] == "This challenge is no longer open (declined)."
    assert "This challenge is no longer open (declined)." in response.content.decode()
    assert response.context["challenge"].pk == ch.pk and not response.context["to_answer"]
    assert not Game.objects.exists()


def test_the_challenger_may_cancel_but_nobody_else(client):
    alice, bob, carol = make_user(), make_user(), make_user()
    ch = challenges.create_challenge(alice, [bob.email])
    client.force_login(bob)
    response = client.post(reverse("games:challenge_cancel", args=[ch.pk]))
    assert response.status_code == 403
    assert messages_of(response) == ["Only the player who made a challenge can cancel it."]
    assert "Accept" in response.content.decode()  # Bob's challenge page, still his to answer
    ch.refresh_from_db()
    assert ch.status == "open"
    client.force_login(carol)
    assert client.get(ch.get_absolute_url()).status_code == 403
    response = client.post(reverse("games:challenge_accept", args=[ch.pk]))
    assert response.status_code == 403 and messages_of(response) == ["This challenge is not addressed to you."]
    assert "games/challenge_not_yours.html" in [t.name for t in response.templates]
    assert "This challenge is not addressed to you." in response.content.decode()
    client.force_login(alice)
    client.post(reverse("games:challenge_cancel", args=[ch.pk]))
    ch.refresh_from_db()
    assert ch.status == "cancelled"
    client.force_login(bob)
    client.post(reverse("games:challenge_accept", args=[ch.pk]))
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    "fields,error",
    [
        ({"player1": ""}, "needs 1 other player"),
        ({"player1": "not-an-address"}, "valid email"),
        ({"player1": "SELF"}, "cannot challenge yourself"),
        ({"player1": "x@example.com", "player2": "y@example.com"}, "has no place for a second player"),
        ({"player1": "x@example.com", "variant": "three"}, "needs 2 other players"),
        ({"player1": "x@example.com", "player2": "x@example.com", "variant": "three"}, "named twice"),
        ({"player1": "x@example.com", "variant": "seven"}, "Select a valid choice"),
        ({"player1": "x@example.com", "target": "100"}, "Select a valid choice"),
        ({"player1": "x@example.com", "days_per_move": "0"}, "greater than or equal to 1"),
        ({"player1": "x@example.com", "days_per_move": "99"}, "less than or equal to 14"),
    ],
)
def test_a_bad_challenge_form_says_why_and_sends_nothing(client, fields, error):
    alice = make_user()
    client.force_login(alice)
    if fields.get("player1") == "SELF":
        fields = {**fields, "player1": alice.email}
    response = client.post(reverse("games:new_challenge"), challenge_form(**fields))
    assert response.status_code == 400
    assert error in response.content.decode()
    assert not Challenge.objects.exists() and not mail.outbox
    assert User.objects.count() == 1


# --- An unknown address: an invitation --------------------------------------------------


def test_challenging_an_unknown_address_invites_them_to_the_challenge(client):
    alice = make_user(display_name="Alice")
    client.force_login(alice)
    client.post(reverse("games:new_challenge"), challenge_form(player1="newcomer@example.com"))
    ch = Challenge.objects.get()
    invited = User.objects.get(email="newcomer@example.com")
    assert ch.places.get().player == invited and ch.places.get().invited_email == "newcomer@example.com"
    [invitation] = mail.outbox
    assert invitation.to == ["newcomer@example.com"] and "Alice" in invitation.body
    # It tells the game and its clock, as the challenge email would.
    assert ch.get_variant_display() in invitation.body and f"The clock: {ch.clock_text}" in invitation.body
    path = re.search(r"https://cribbage\.example(/accounts/invitation/\S+/)", invitation.body).group(1)
    client.logout()
    response = client.post(
        path, {"display_name": "Newcomer", "password1": "a-Long-pass-9", "password2": "a-Long-pass-9"}
    )
    assert response["Location"] == ch.get_absolute_url()
    client.post(reverse("games:challenge_accept", args=[ch.pk]))
    ch.refresh_from_db()
    assert ch.game is not None and ch.game.seats.get(number=1).player == invited


# --- Three and four players ---------------------------------------------------------------


def test_a_four_player_challenge_starts_when_all_three_accept(client):
    alice, bob, carol, dave = (make_user(display_name=n) for n in ("Alice", "Bob", "Carol", "Dave"))
    client.force_login(alice)
    client.post(
        reverse("games:new_challenge"),
        challenge_form(variant="four", player1=bob.email, player2=carol.email, player3=dave.email),
    )
    ch = Challenge.objects.get()
    assert len(mail.outbox) == 3
    for _n, player in enumerate((bob, carol, dave)):
        client.force_login(player)
        assert not Game.objects.exists()
        client.post(reverse("games:challenge_accept", args=[ch.pk]))
    ch.refresh_from_db()
    seats = {s.number: (s.player, s.team) for s in ch.game.seats.all()}
    # Carol, named second, is Alice's partner across the table.
    assert seats == {0: (alice, 0), 1: (bob, 1), 2: (carol, 0), 3: (dave, 1)}


# --- Seeks ----------------------------------------------------------------------------------


def test_an_open_seek_is_taken_by_anyone_and_the_game_starts(client):
    alice, bob = make_user(display_name="Alice"), make_user()
    client.force_login(alice)
    client.post(reverse("games:seeks"), challenge_form(target="61"))
    seek = Challenge.objects.get(is_seek=True)
    # Not your own seek.
    response = client.post(reverse("games:challenge_accept", args=[seek.pk]))
    assert response.status_code == 400
    assert messages_of(response)[-1] == "This is your own open challenge: wait for someone to take it, or cancel it."
    client.force_login(bob)
    board = client.get(reverse("games:seeks")).content.decode()
    assert "Alice" in board and "Take it" in board
    response = client.post(reverse("games:challenge_accept", args=[seek.pk]))
    seek.refresh_from_db()
    assert seek.status == "accepted" and response["Location"] == seek.game.get_absolute_url()
    assert seek.game.target == 61
    assert "Alice" not in client.get(reverse("games:seeks")).content.decode()
    # A seek cannot be declined.
    with pytest.raises(
        challenges.ChallengeError,
        match=r"^An open challenge is not addressed to anyone: there is nothing to decline\.$",
    ):
        challenges.decline(seek, bob)


def test_a_three_player_seek_waits_for_two_takers(client):
    alice, bob, carol = make_user(), make_user(), make_user()
    seek = challenges.create_seek(alice, variant="three")
    client.force_login(bob)
    client.post(reverse("games:challenge_accept", args=[seek.pk]))
    response = client.post(reverse("games:challenge_accept", args=[seek.pk]))  # the button pressed twice
    assert response.status_code == 409
    assert messages_of(response)[-1] == "You have already taken a place in this open challenge."
    assert not Game.objects.exists()
    client.force_login(carol)
    client.post(reverse("games:challenge_accept", args=[seek.pk]))
    seek.refresh_from_db()
    assert [s.player for s in seek.game.seats.order_by("number")] == [alice, bob, carol]


def test_a_bad_seek_form(client):
    client.force_login(make_user())
    response = client.post(reverse("games:seeks"), challenge_form(days_per_move="-1"))
    assert response.status_code == 400 and not Challenge.objects.exists()
    assert messages_of(response) == ["Nothing was posted: please correct the fields marked below."]
    assert response.context["form"].errors == {"days_per_move": ["Ensure this value is greater than or equal to 1."]}
    assert "Ensure this value is greater than or equal to 1." in response.content.decode()


# --- My games ---------------------------------------------------------------------------------


def test_my_games_lists_my_turn_first_then_waiting_then_finished_with_results(client):
    me = make_user(allow_forced_moves=False)
    waiting = start_two_player_game(players=[me, make_user(display_name="Waiter")], rng=random.Random(1))
    services.submit_move(
        waiting, 0, {"kind": "discard", "cards": services.cribbage.view(services.engine_state(waiting), 0)["hand"][:2]}
    )
    start_two_player_game(players=[me, make_user(display_name="Turner")], rng=random.Random(2))
    won = start_two_player_game(players=[me, make_user(display_name="Loser")], rng=random.Random(3))
    services.submit_move(won, 1, {"kind": "resign"})
    client.force_login(me)
    html = client.get(reverse("games:my_games")).content.decode()
    turn, wait, done = html.index("Your turn ("), html.index("Waiting for the others ("), html.index("Finished (")
    assert turn < html.index("Turner") < wait < html.index("Waiter") < done < html.index("Loser")
    assert "<strong>Won</strong>" in html and "resigned" in html


@pytest.mark.parametrize("skunk,tag", [("skunk", "skunk"), ("double_skunk", "double skunk"), ("", None)])
def test_my_games_shows_a_skunk(client, skunk, tag):
    me, other = make_user(allow_forced_moves=False), make_user(allow_forced_moves=False)
    game = finish_game(start_two_player_game(players=[me, other]), 0, skunk)
    client.force_login(me)
    html = client.get(reverse("games:my_games")).content.decode()
    assert "<strong>Won</strong>" in html and "Lost" not in html
    if tag:
        assert f'<span class="tag">{tag}</span>' in html
        assert f"with a {tag}" in html  # the result line says so too
    else:
        assert not game.skunk and "skunk" not in html.lower()
