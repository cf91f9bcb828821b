"""An event's own admin page says where it stands and offers its next step as a button
(events.progress): entrants pasted on the page, Start, Open round N; a new event's Save leads
there; another organiser's event refuses every button."""

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Permission
from django.urls import reverse

from tests.factories import make_user
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db


def _act(client, event, action, **data):
    return client.post(reverse("admin:tournaments_tournament_act", args=[event.pk]), {"action": action, **data})


def _page(client, event):
    return client.get(reverse("admin:tournaments_tournament_change", args=[event.pk])).text


@pytest.fixture
def creator(db):
    """A new club organiser: staff who may create events, running none yet."""
    user = make_user("olive@example.com", "Olive", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return user


def test_a_new_league_saved_leads_to_its_own_page_which_asks_for_entrants(client, creator):
    client.force_login(creator)
    index = client.get(reverse("admin:index")).text
    assert "Your events" in index and "You run no event yet." in index
    assert f'href="{reverse("admin:tournaments_tournament_add")}?kind=league"' in index
    form = client.get(reverse("admin:tournaments_tournament_add") + "?kind=league").text
    assert 'name="_continue"' in form  # "Save and continue editing" is offered to a creator
    data = {
        "kind": "league",
        "name": "Winter League",
        "slug": "winter-league",
        "starts_on": "2026-12-02",
        "variant": "two",
        "target": 121,
        "days_per_move": 3,
        "timeout_policy": "forfeit",
        "time_bank_days": 0,
        "vacation_days_cap": 21,
        "legs": 1,
        "scoring": "games",
        "best_of": 1,
    }
    response = client.post(reverse("admin:tournaments_tournament_add"), data)
    league = Tournament.objects.get(slug="winter-league")
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:tournaments_tournament_change", args=[league.pk])
    page = _page(client, league)
    assert "Taking entries: 0 entered" in page and "A league starts with 2 entrants or more" in page
    assert 'value="start"' not in page  # no Start button until there are entrants enough
    assert 'name="add-emails"' in page
    assert "2 Dec 2026" in client.get(reverse("admin:tournaments_tournament_changelist")).text
    assert "Winter League" in client.get(reverse("admin:index")).text


def test_entrants_added_started_and_the_next_round_opened_from_the_events_page(client, organisers):
    organiser = organisers[0]
    league = Tournament.objects.create(name="Spring", slug="spring", all_rounds_at_start=False)
    league.organisers.add(organiser)
    players = [make_user(display_name=name) for name in "ABCD"]
    client.force_login(organiser)
    response = _act(client, league, "add_entrants", **{"add-emails": "\n".join(p.email for p in players)})
    assert response.status_code == 302
    assert league.entrants.count() == 4
    page = _page(client, league)
    assert "Taking entries: 4 entered" in page and 'value="start"' in page and "Start the league" in page
    _act(client, league, "start")
    league.refresh_from_db()
    assert league.status == Tournament.Status.RUNNING
    assert list(league.rounds.values_list("number", "status")) == [(1, "open"), (2, "scheduled"), (3, "scheduled")]
    page = _page(client, league)
    assert "Under way: round 1 being played" in page and "Open round 2" in page
    _act(client, league, "open_next_round")
    assert league.rounds.get(number=2).status == Round.Status.OPEN
    assert "Under way: rounds 1 and 2 being played" in _page(client, league)
    notes = list(LogEntry.objects.filter(object_id=str(league.pk)).values_list("change_message", flat=True))
    assert any(n.startswith("Entered 4 player(s)") for n in notes) and any(
        n.startswith("Opened round 2") for n in notes
    )


def test_a_button_of_a_page_that_moved_on_changes_nothing(client, organisers):
    league = Tournament.objects.create(name="Spring", slug="spring")
    league.organisers.add(organisers[0])
    client.force_login(organisers[0])
    _act(client, league, "start")  # no entrants: no Start on the page, so nothing happens
    _act(client, league, "open_next_round")
    _act(client, league, "drop_tables")
    league.refresh_from_db()
    assert league.status == Tournament.Status.DRAFT and not league.rounds.exists()
    assert client.get(reverse("admin:tournaments_tournament_act", args=[league.pk])).status_code == 405


def test_another_organisers_event_refuses_every_button(client, organisers):
    league = Tournament.objects.create(name="Theirs", slug="theirs")
    league.organisers.add(organisers[1])
    client.force_login(organisers[0])
    assert _act(client, league, "add_entrants", **{"add-emails": "x@example.com"}).status_code == 403
    assert _act(client, league, "start").status_code == 403
    assert not league.entrants.exists()


def test_a_member_is_picked_by_name_on_the_events_page(client, organisers):
    league = Tournament.objects.create(name="Spring", slug="spring")
    league.organisers.add(organisers[0])
    ann = make_user(display_name="Ann Jones")
    make_user(display_name="Bob Smith")
    make_user(display_name="Bob Smithers")
    client.force_login(organisers[0])
    _act(client, league, "add_member", member="ann jones")
    assert list(league.entrants.values_list("player", flat=True)) == [ann.pk]
    _act(client, league, "add_member", member="Bob Smith")  # the exact name: one member
    assert league.entrants.count() == 2
    for name in ("Smith", "Nobody Here"):
        response = client.post(
            reverse("admin:tournaments_tournament_act", args=[league.pk]),
            {"action": "add_member", "member": name},
            follow=True,
        )
        assert league.entrants.count() == 2  # refused, nothing changed
    assert "No member plays under the name &quot;Nobody Here&quot;" in response.text
    page = client.post(
        reverse("admin:tournaments_tournament_act", args=[league.pk]),
        {"action": "add_member", "member": "Smith"},
        follow=True,
    ).text
    assert "2 members go by that name: Bob Smith (p…@e….com), Bob Smithers (p…@e….com)" in page
