"""An event by email: "standings", "withdraw" and "help" sent to the event's own address, posted to
the inbound webhook in a provider's documented payload, with the sender checks of move replies."""

import pytest
from django.core import mail

from mail.models import InboundEmail
from tests.factories import make_user
from tests.mail import payloads
from tournaments import replies, services
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


def test_withdraw_before_the_start_and_refused_after(client, make_event):
    event, entrants = make_event(4, slug="club-league")
    me = entrants[3].player
    assert send(client, me, "withdraw", event).status == InboundEmail.Status.APPLIED
    assert not Entrant.objects.filter(tournament=event, player=me).exists()
    assert "is withdrawn" in answer_to(me).body
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
