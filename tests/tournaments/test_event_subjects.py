"""An event's game is named with the event in its emails' subjects: "... — A v B, Winter League, round 1"."""

import pytest
from django.core import mail

from tests.factories import committed
from tournaments import services
from tournaments.models import PairingGame, Tournament

pytestmark = pytest.mark.django_db


def test_a_league_games_turn_email_names_the_event_and_round(make_event):
    event, _ = make_event(2, kind=Tournament.Kind.LEAGUE, name="Winter League")
    with committed():
        services.start(event)
    pg = PairingGame.objects.get(pairing__round__tournament=event)
    turns = [m for m in mail.outbox if m.tags == ["turn"]]
    assert turns
    for message in turns:
        assert message.subject.startswith("Your discard — ")
        assert message.subject.endswith(f", Winter League, round 1, hand 1 (game {pg.game_id})")
