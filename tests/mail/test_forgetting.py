"""Replies are kept whole for MAIL_KEEP_DAYS once read, then forgotten; the moves they made stay."""

from datetime import timedelta

import time_machine
from django.utils import timezone

from games.models import Event
from games.selectors import view_for
from mail import reception, services, tasks
from mail.models import AnswerSent, InboundEmail

from .conftest import reply


def test_read_replies_older_than_the_keeping_time_are_forgotten_and_their_moves_stay(game, on_commit, settings):
    settings.MAIL_KEEP_DAYS = 30
    hand = list(view_for(game, 0).hand)
    old_move = reply(game, 0, f"crib {hand[0]} {hand[1]}", message_id="<old@mail.example.com>")
    with time_machine.travel(timezone.now() - timedelta(days=31), tick=False):
        with on_commit():
            reception.receive(old_move, esp_name="test")
        unread = reception.receive(reply(game, 1, "status"), esp_name="test")  # its task was lost
    recent = reply(game, 1, "help")
    with time_machine.travel(timezone.now() - timedelta(days=29), tick=False), on_commit():
        reception.receive(recent, esp_name="test")
    assert InboundEmail.objects.count() == 3 and AnswerSent.objects.exists()

    assert tasks.forget_old_mail.delay().get() == 1
    kept = InboundEmail.objects.values_list("message_id", flat=True)
    assert sorted(kept) == sorted([unread.message_id, recent["Message-ID"]])
    assert not AnswerSent.objects.exists()  # the limiter's windows are long spent
    assert services.forget_old_mail() == (0, 0)  # nothing more the second time

    # A late redelivery of the forgotten reply is stored again but moves nothing twice.
    with on_commit():
        reception.receive(old_move, esp_name="test")
    assert Event.objects.filter(game=game, source=Event.Source.EMAIL).count() == 1
