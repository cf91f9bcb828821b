"""An event's page asks the database the same number of questions with 8 entrants or 64."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import make_user
from tournaments import entries, services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def started(kind, entrants):
    event = Tournament.objects.create(slug=f"{kind}-{entrants}", name=f"{kind} of {entrants}", kind=kind)
    players = [make_user(allow_forced_moves=False) for _ in range(entrants)]
    entries.add_entrants(event, "\n".join(p.email for p in players), actor=None)
    return services.start(event), players


@pytest.mark.parametrize("kind", [Tournament.Kind.LEAGUE, Tournament.Kind.KNOCKOUT])
def test_the_event_page_costs_the_same_with_8_and_64_entrants(client, kind):
    counted = {}
    for entrants in (8, 64):
        event, players = started(kind, entrants)
        client.force_login(players[-1])
        with CaptureQueriesContext(connection) as queries:
            response = client.get(reverse("tournaments:detail", args=[event.slug]))
        assert response.status_code == 200
        counted[entrants] = len(queries)
        assert response.content.decode().count('class="table-number"') == (entrants - 1 if kind == "league" else 1) * (
            entrants // 2
        )
    # Session, player, event, entrants' ratings, the schedule in three, ...: 9 where a league's took 28
    # with 8 entrants and 196 with 64 (a round's pairings and games asked round by round).
    assert counted[8] == counted[64] <= 9, counted
