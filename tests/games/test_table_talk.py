"""The note and table talk on the game page: a note is its writer's alone; talk shows to the
other players unless muted; a reported message reaches the admin; bad input changes nothing."""

from datetime import timedelta

import pytest
from django.urls import reverse

from games.models import Note, TableMessage
from tests.factories import make_user, start_two_player_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(client):
    alice, bob = make_user(display_name="Alice"), make_user(display_name="Bob")
    game = start_two_player_game(players=[alice, bob])
    return game, alice, bob


def messages_of(response):
    return [str(m) for m in response.context["messages"]]


def page(client, user, game):
    client.force_login(user)
    return client.get(game.get_absolute_url()).content.decode()


def test_a_note_is_seen_by_its_writer_only(client, table):
    game, alice, bob = table
    client.force_login(alice)
    response = client.post(reverse("games:note", args=[game.pk]), {"text": "Bob holds fives back"}, follow=True)
    assert messages_of(response) == ["Your note is saved: nobody else sees it."]
    assert "Bob holds fives back" in page(client, alice, game)
    assert "Bob holds fives back" not in page(client, bob, game)
    client.force_login(alice)
    response = client.post(reverse("games:note", args=[game.pk]), {"text": "z" * 2001})
    # The game page itself, refusing: the reason, and the note as written, to shorten and save again.
    assert response.status_code == 400 and "games/game.html" in [t.name for t in response.templates]
    assert messages_of(response) == ["A note is at most 2000 characters; yours has 2001. Nothing was saved."]
    assert f">{'z' * 2001}</textarea>" in response.content.decode()
    assert Note.objects.get().text == "Bob holds fives back"


def test_talk_shows_to_the_table_unless_muted_and_a_report_reaches_the_admin(client, table, admin_client):
    game, alice, bob = table
    client.force_login(alice)
    response = client.post(reverse("games:say", args=[game.pk]), {"text": "Good luck, Bob"}, follow=True)
    assert messages_of(response) == ["Said to the table."]
    assert "Good luck, Bob" in page(client, bob, game)
    message = TableMessage.objects.get()
    assert "Good luck, Bob" not in admin_client.get(reverse("admin:games_tablemessage_changelist")).content.decode()

    client.force_login(bob)
    client.post(reverse("games:report", args=[game.pk, message.pk]))
    assert "Good luck, Bob" in admin_client.get(reverse("admin:games_tablemessage_changelist")).content.decode()
    client.post(reverse("games:mute", args=[game.pk, alice.pk]))
    assert "Good luck, Bob" not in page(client, bob, game)
    assert "Good luck, Bob" in page(client, alice, game)
    client.force_login(bob)
    client.post(reverse("games:mute", args=[game.pk, alice.pk]), {"undo": "1"})
    assert "Good luck, Bob" in page(client, bob, game)


def test_only_players_may_talk_and_nothing_changes_otherwise(client, table):
    game, alice, bob = table
    carol = make_user(display_name="Carol")
    client.force_login(carol)
    for name in ("games:say", "games:note"):
        response = client.post(reverse(name, args=[game.pk]), {"text": "hi"})
        assert response.status_code == 403 and "games/not_your_game.html" in [t.name for t in response.templates]
        assert messages_of(response) == ["Only the players of this game can do that."]
        assert "Only the players of this game can do that." in response.content.decode()
    assert not TableMessage.objects.exists() and not Note.objects.exists()
    assert "At the table" not in page(client, carol, game)


def test_saying_too_much_or_too_often_is_refused_on_the_page_with_the_words_kept(client, table):
    game, alice, bob = table
    client.force_login(alice)
    response = client.post(reverse("games:say", args=[game.pk]), {"text": "x" * 301})
    assert response.status_code == 400
    assert messages_of(response) == [
        "A message to the table is at most 300 characters; yours has 301. Nothing was sent."
    ]
    assert f'value="{"x" * 301}"' in response.content.decode()  # to shorten, not to type again
    for n in range(5):
        client.post(reverse("games:say", args=[game.pk]), {"text": f"hello {n}"})
    response = client.post(reverse("games:say", args=[game.pk]), {"text": "once more"})
    assert response.status_code == 429 and "games/game.html" in [t.name for t in response.templates]
    assert messages_of(response)[-1].startswith("You have said 5 things at this table in the last hour")
    assert TableMessage.objects.count() == 5
    response = client.post(reverse("games:mute", args=[game.pk, alice.pk]))
    assert response.status_code == 400 and messages_of(response)[-1] == "You cannot mute yourself."
    message = TableMessage.objects.first()
    response = client.post(reverse("games:report", args=[game.pk, message.pk]))
    assert response.status_code == 400 and messages_of(response) == ["You cannot report your own message."]
    assert not TableMessage.objects.filter(reported_at__isnull=False).exists()


def test_the_panel_reads_the_players_mutes_once_and_still_hides_the_muted(table):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games import talk

    game, alice, bob = table
    talk.say(game, bob, "Good luck")
    talk.mute(alice, bob)
    with CaptureQueriesContext(connection) as queries:
        panel = talk.panel_for(alice, game, game.seats.get(player=alice))
    assert sum('"games_mute"' in q["sql"] for q in queries) == 1  # it was read twice
    assert panel["talk"] == [] and panel["talk_players"] == [{"user": bob, "muted": True}]


def test_the_panel_reads_the_players_mutes_blocks_note_and_the_talk_in_one_statement(table):
    """What the panel reads (muted_by, blocks.blocked_by, note_of, the messages) is one statement;
    the authors of the talk are the game's players, not read again with the messages."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from accounts import blocks
    from games import talk
    from games.selectors import with_seats

    game, alice, bob = table
    talk.say(game, bob, "Good luck")
    talk.say(game, alice, "And to you")
    talk.save_note(game, alice, "Bob leads low")
    seat = game.seats.get(player=alice)
    game = with_seats(type(game).objects.all()).get(pk=game.pk)
    with CaptureQueriesContext(connection) as queries:
        panel = talk.panel_for(alice, game, seat)
    assert len(queries) == 1  # the player's mutes, blocks and note, and the messages
    assert panel["note"] == "Bob leads low"
    assert [(m.author, m.text) for m in panel["talk"]] == [(bob, "Good luck"), (alice, "And to you")]
    assert panel["talk_players"] == [{"user": bob, "muted": False}]

    blocks.block(alice, bob)
    panel = talk.panel_for(alice, game, seat)
    assert [m.text for m in panel["talk"]] == ["And to you"] and panel["talk_players"] == [
        {"user": bob, "muted": False}
    ]
    blocks.unblock(alice, bob)
    talk.mute(alice, bob)
    panel = talk.panel_for(alice, game, seat)
    assert [m.text for m in panel["talk"]] == ["And to you"] and panel["talk_players"] == [{"user": bob, "muted": True}]
    assert talk.panel_for(bob, game, game.seats.get(player=bob))["note"] == ""


def test_the_panels_talk_is_talk_for_s_the_same_messages_in_the_same_order(table):
    from django.utils import timezone

    from games import talk
    from games.selectors import game_with_seats

    game, alice, bob = table
    now = timezone.now()
    for i, (who, words) in enumerate([(bob, "one"), (alice, "two"), (bob, "three")]):
        talk.say(game, who, words, now=now if i else now - timedelta(minutes=1))  # two said at one moment
    talk.report(talk.talk_for(game, alice)[0], alice, now=now)
    panel = talk.panel_for(alice, game_with_seats(game.pk), game.seats.get(player=alice))

    def fields_of(message):
        return {f.attname: getattr(message, f.attname) for f in type(message)._meta.concrete_fields}

    expected = talk.talk_for(game, alice)
    assert [m.text for m in expected] == ["one", "two", "three"]
    assert [fields_of(m) for m in panel["talk"]] == [fields_of(m) for m in expected]
    assert [m.author for m in panel["talk"]] == [bob, alice, bob]
