"""An event by email: "standings", "withdraw" and "help" sent to the event's own address, posted to
the inbound webhook in a provider's documented payload, with the sender checks of move replies."""

import re

import pytest
from django.core import mail

from mail.models import InboundEmail
from tests.factories import make_user
from tests.mail import payloads
from tournaments import entries, replies, services
from tournaments.models import Entrant

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def anymail_settings(settings):
    payloads.configure(settings)
    settings.SITE_URL = "https://cribbage.example"


def send(client, user, words, event, esp="postmark"):
    message = payloads.compose(
        sender=f"{user.display_name} <{user.email}>", to=replies.address(event), subject="Event", text=f"{words}\n"
    )
    mail.outbox.clear()
    assert payloads.post(client, esp, message).status_code == 200
    return InboundEmail.objects.order_by("-received_at", "-pk").first()


def answer_to(user):
    (message,) = [m for m in mail.outbox if m.to == [user.email]]
    return message


@pytest.mark.parametrize("esp", ["postmark", "mailgun"])
def test_standings_by_email(client, make_event, esp):
    event, entrants = make_event(4, slug="club-league")
    row = send(client, entrants[0].player, "standings", event, esp=esp)
    assert row.status == InboundEmail.Status.ANSWERED
    body = answer_to(entrants[0].player).body
    assert f"{event.name}, " in body and all(str(e.player) in body for e in entrants)


def code_in(message):
    return re.search(r"confirm ([0-9a-f]{12})", message.body).group(1)


def test_a_withdrawal_by_email_does_nothing_until_confirmed_then_happens_once(client, make_event):
    """Anyone may write to the event's public address in an entrant's name: "withdraw" only sends
    the entrant, at their own address, a code; the reply carrying it withdraws them, once."""
    event, entrants = make_event(4, slug="club-league")
    me = entrants[3].player
    row = send(client, me, "withdraw", event)
    assert row.status == InboundEmail.Status.ANSWERED and row.outcome.startswith("withdraw: You asked to withdraw")
    asked = answer_to(me)
    assert "Nothing was done yet." in asked.body and asked.reply_to == [replies.address(event)]
    assert Entrant.objects.filter(tournament=event, player=me).exists()
    code = code_in(asked)
    assert send(client, me, f"confirm {code}", event).status == InboundEmail.Status.APPLIED
    assert not Entrant.objects.filter(tournament=event, player=me).exists()
    assert "is withdrawn" in answer_to(me).body
    entries.register(event, me)  # entered again: the old code does not take the new entry back
    row = send(client, me, f"confirm {code}", event)
    assert row.status == InboundEmail.Status.ANSWERED and "That code confirms nothing now" in row.outcome
    assert Entrant.objects.filter(tournament=event, player=me).exists()


def test_one_entrants_code_does_not_withdraw_another(client, make_event):
    event, entrants = make_event(4, slug="club-league")
    mallory, victim = entrants[0].player, entrants[1].player
    send(client, mallory, "withdraw", event)
    code = code_in(answer_to(mallory))
    assert send(client, victim, f"confirm {code}", event).status == InboundEmail.Status.ANSWERED
    assert event.entrants.count() == 4


def test_withdraw_is_refused_after_the_start(client, make_event):
    event, entrants = make_event(4, slug="club-league")
    services.start(event)
    other = entrants[0].player
    assert send(client, other, "withdraw", event).status == InboundEmail.Status.ANSWERED
    assert Entrant.objects.filter(tournament=event, player=other).exists()
    assert "can no longer be taken off. Nothing was done." in answer_to(other).body


def test_unreadable_words_and_a_stranger_to_the_event_are_answered_and_change_nothing(client, make_event):
    event, entrants = make_event(3, slug="club-league")
    send(client, entrants[0].player, "hello there", event)
    body = answer_to(entrants[0].player).body
    assert 'We could not read what you want ("hello there")' in body and "standings" in body
    outsider = make_user(display_name="Olga")
    send(client, outsider, "withdraw", event)
    assert "You are not entered in" in answer_to(outsider).body
    assert event.entrants.count() == 3


def test_a_club_night_game_reported_by_email_is_confirmed_by_the_opponents_reply(client, make_event, organisers):
    from tests.factories import committed
    from tournaments import club_nights
    from tournaments.models import NightGame, Tournament

    event, (a, b, c) = make_event(3, slug="tuesday-club", kind=Tournament.Kind.CLUB_NIGHT, organiser=organisers[0])
    services.start(event)
    night = club_nights.open_night(event)
    with committed():
        row = send(client, b.player, "report C 121 97", event)
    assert row.status == InboundEmail.Status.APPLIED
    assert "Reported your game with C: you 121, C 97. It counts when they confirm it." in answer_to(b.player).body
    asked = answer_to(c.player)  # the opponent is asked, with the event's address to reply to
    assert asked.subject == "Confirm your game with B: Tuesday-Club, night 1"
    assert 'Reply with "confirm B"' in asked.body and asked.reply_to == [replies.address(event)]
    report = night.games.get()
    assert report.status == NightGame.Status.REPORTED

    row = send(client, a.player, "confirm B", event)  # not A's game to confirm
    assert (
        row.status == InboundEmail.Status.ANSWERED
        and "No reported game waits for your answer" in answer_to(a.player).body
    )
    row = send(client, c.player, "report B 121", event)  # one score: refused, said how
    assert 'Write "report NAME YOUR-SCORE THEIR-SCORE"' in answer_to(c.player).body
    row = send(client, c.player, "confirm B", event)
    assert row.status == InboundEmail.Status.APPLIED
    report.refresh_from_db()
    assert report.status == NightGame.Status.COUNTED and report.game.played_at_table
    assert "counts." in answer_to(c.player).body
    row = send(client, c.player, "help", event)
    assert "report NAME 121 95" in answer_to(c.player).body
    club_nights.close_night(night)
    send(client, c.player, "standings", event)
    assert "  1. B: 0 GRPs, 1 of 1, 2, +24" in answer_to(c.player).body
