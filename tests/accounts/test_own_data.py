"""A player's own data: the JSON download; deleting the account (confirmed by email) leaves every
game verifiable and no trace of the address; a change of address confirmed at the new one."""

import json
import random

import pytest
from django.apps import apps
from django.core import mail
from django.core.management import call_command
from django.db import models
from django.db.models.functions import Cast
from django.urls import reverse

from accounts import blocks
from accounts.models import User
from games import challenges, talk
from games.models import Event, Note, Seat, TableMessage
from games.selectors import view_for
from mail import links, reception
from tests.factories import committed, genuine, make_user, play_random_move

from .conftest import link_in

pytestmark = pytest.mark.django_db
ADDRESS = "dora.leaving@example.org"


def rows_holding(text):
    """(model, field) of every stored text (JSON included) in the database that holds `text`."""
    found = []
    for model in apps.get_models():
        for field in model._meta.concrete_fields:
            if isinstance(field, (models.CharField, models.TextField)):
                query = {f"{field.attname}__icontains": text}
                if model._default_manager.filter(**query).exists():
                    found.append((model.__name__, field.attname))
            elif isinstance(field, models.JSONField):
                if (
                    model._default_manager.annotate(_t=Cast(field.attname, models.TextField()))
                    .filter(_t__icontains=text)
                    .exists()
                ):
                    found.append((model.__name__, field.attname))
    return found


def a_reply(game, seat, body, sender):
    from anymail.inbound import AnymailInboundMessage

    return AnymailInboundMessage.construct(
        from_email=f"Dora <{sender}>",
        to=links.reply_address(game.pk, seat),
        subject=f"Re: game {game.pk}",
        text=body,
        headers={"Message-ID": f"<{random.getrandbits(64):x}@example.org>", **genuine(sender)},
    )


@pytest.fixture
def dora_game(client):
    """Alice challenged Dora by address (an invitation); they play; Dora wrote a note, said a word,
    replied by email, mistyped her password once."""
    alice = make_user("alice@example.com", "Alice", allow_forced_moves=False)
    with committed():
        challenge = challenges.create_challenge(alice, [ADDRESS])
    dora = User.objects.get(email=ADDRESS)
    dora.display_name, dora.allow_forced_moves = "Dora", False
    dora.set_password("pw-Secret-123")
    dora.save()
    with committed():
        game = challenges.accept(challenge, dora).game
    hand = list(view_for(game, 1).hand)
    with committed():
        reception.receive(a_reply(game, 1, f"crib {hand[0]} {hand[1]}", ADDRESS), esp_name="test")
    with committed():
        play_random_move(game, 0, rng=random.Random(2))
    talk.save_note(game, dora, "Alice counts fast")
    talk.say(game, dora, "Nice crib!")
    talk.save_note(game, alice, "Dora throws fives")
    client.post(reverse("accounts:login"), {"username": ADDRESS, "password": "wrong"})
    assert Event.objects.filter(game=game, source=Event.Source.EMAIL, seat=1).exists()
    assert rows_holding(ADDRESS)  # the address is in many places before
    return game, alice, User.objects.get(pk=dora.pk)


def test_the_download_has_my_games_records_notes_and_talk_and_nothing_of_others(client, dora_game):
    game, alice, dora = dora_game
    blocks.block(dora, alice)
    client.force_login(dora)
    response = client.get(reverse("accounts:own_data"))
    assert response["Content-Disposition"] == 'attachment; filename="cribbage-my-data.json"'
    data = json.loads(response.content)
    assert data["profile"]["email"] == ADDRESS and data["profile"]["display_name"] == "Dora"
    [mine] = data["games"]
    assert (mine["game"], mine["seat"], mine["players"]) == (game.pk, 1, ["Alice", "Dora"])
    assert mine["record"]  # the record as Dora's seat saw it
    assert data["notes"] == [
        {"game": game.pk, "text": "Alice counts fast", "updated_at": data["notes"][0]["updated_at"]}
    ]
    assert [m["text"] for m in data["table_talk"]] == ["Nice crib!"]
    assert [b["player"] for b in data["blocked"]] == ["Alice"]
    assert "Dora throws fives" not in response.content.decode()  # Alice's note is hers alone


def test_deleting_my_account_keeps_the_games_whole_and_leaves_no_trace_of_the_address(client, dora_game):
    game, alice, dora = dora_game
    client.force_login(dora)
    mail.outbox.clear()
    response = client.post(reverse("accounts:delete_request"), follow=True)
    assert f"We sent a link to {ADDRESS}" in response.content.decode()
    assert User.objects.get(pk=dora.pk).is_active  # nothing changes before the link is followed
    [message] = mail.outbox
    assert message.to == [ADDRESS]
    path = link_in(message)
    assert "Delete my account" in client.get(path).content.decode()
    response = client.post(path)
    assert response.status_code == 200 and "Your account is deleted" in response.content.decode()

    gone = User.objects.get(pk=dora.pk)
    assert (gone.display_name, gone.is_active, gone.has_usable_password()) == ("a former player", False, False)
    assert rows_holding(ADDRESS) == []
    assert not Note.objects.filter(player=gone).exists() and not TableMessage.objects.filter(author=gone).exists()
    assert Note.objects.filter(player=alice).exists()  # Alice's own note stays hers
    seat = Seat.objects.get(game=game, number=1)
    assert seat.player_id == gone.pk and str(seat) == "a former player"
    assert Event.objects.filter(game=game, actor=gone).exists()
    call_command("verify_games", game.pk)  # raises if the log no longer replays to the snapshot
    client.force_login(alice)
    assert "a former player" in client.get(game.get_absolute_url()).content.decode()

    # The link again: refused in words, nothing changes.
    before = User.objects.values().get(pk=dora.pk)
    client.logout()
    response = client.post(path)
    assert response.status_code == 400 and "This account has already been deleted" in response.content.decode()
    assert User.objects.values().get(pk=dora.pk) == before
    assert client.get(path).status_code == 400


def test_a_new_address_is_confirmed_at_the_new_address(client):
    user = make_user("old@example.com", "Olga")
    other = make_user("taken@example.com")
    client.force_login(user)
    for bad, words in (
        ("not an address", "is not an email address."),
        ("old@example.com", "already your address"),
    ):
        response = client.post(
            reverse("accounts:change_email"), {"email": bad, "password": "pw-Secret-123"}, follow=True
        )
        assert words in response.content.decode()
    assert not mail.outbox and User.objects.get(pk=user.pk).email == "old@example.com"

    client.post(reverse("accounts:change_email"), {"email": "New@Example.com", "password": "pw-Secret-123"})
    [message] = mail.outbox
    assert message.to == ["new@example.com"]
    assert User.objects.get(pk=user.pk).email == "old@example.com"  # not yet
    path = link_in(message)
    assert "Use new@example.com" in client.get(path).content.decode()
    response = client.post(path, follow=True)
    assert "Your address is now new@example.com." in response.content.decode()
    changed = User.objects.get(pk=user.pk)
    assert (changed.email, changed.email_confirmed) == ("new@example.com", True)
    response = client.post(path)
    assert (
        response.status_code == 400
        and "The address has already been changed with this link" in response.content.decode()
    )
    assert User.objects.get(pk=user.pk).email == "new@example.com" and other.email == "taken@example.com"
