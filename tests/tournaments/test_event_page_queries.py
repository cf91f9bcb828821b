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


def test_the_events_list_costs_the_same_with_1_10_and_100_finished_events_and_pages_them(client):
    from tournaments.selectors import FINISHED_PER_PAGE

    client.force_login(make_user())
    counted, made = {}, 0
    for events in (1, 10, 100):
        for n in range(made, events):
            Tournament.objects.create(slug=f"old-{n}", name=f"Old {n:03}", status=Tournament.Status.FINISHED)
        made = events
        Tournament.objects.create(slug=f"open-{events}", name=f"Open {events}")  # taking entries
        with CaptureQueriesContext(connection) as queries:
            html = client.get(reverse("tournaments:list")).content.decode()
        counted[events] = len(queries)
        assert html.count('href="/events/old-') == min(events, FINISHED_PER_PAGE)
        assert html.count(">Enter</button>") == len(counted)  # what takes entries is never paged
    assert counted[1] == counted[10] == counted[100] <= 6, counted
    assert "Finished (100)" in html and "Page 1 of 4" in html and 'rel="next"' in html and "Old 099" in html
    last = client.get(reverse("tournaments:list"), {"page": 4}).content.decode()
    assert "Old 000" in last and "Old 099" not in last and 'rel="prev"' in last and "Open 100" in last
    assert client.get(reverse("tournaments:list"), {"page": 5}).status_code == 404


def test_the_schedule_shows_the_rounds_being_played_and_folds_the_others(client):
    from tournaments.models import Round

    event, players = started(Tournament.Kind.LEAGUE, 6)
    Round.objects.filter(tournament=event, number=1).update(status=Round.Status.COMPLETE)
    Round.objects.filter(tournament=event, number=2).update(status=Round.Status.OPEN)
    html = client.get(reverse("tournaments:detail", args=[event.slug])).content.decode()
    # Every round's tables are on the page, only the round being played unfolded.
    assert html.count('<details class="round"') == 5 and html.count('<details class="round" open>') == 1
    assert html.count('class="table-number"') == 5 * 3
    assert 'Round 2 <span class="muted">(being played, 3 tables)' in html
