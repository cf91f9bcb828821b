"""The organisers' admin for events, driven through its pages with the test client."""

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.admin.models import LogEntry
from django.core import mail
from django.urls import reverse

from games.models import Game
from ratings.models import Rating
from tournaments import selectors, services
from tournaments.models import Entrant, Pairing, PairingGame, Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_events(make_event, organisers):
    first, second = organisers
    return make_event(4, organiser=first, slug="event-a"), make_event(3, organiser=second, slug="event-b")


def _changed(event):
    """Everything an action on `event` could change."""
    return {
        "event": Tournament.objects.filter(pk=event.pk).values().get(),
        "entrants": list(Entrant.objects.filter(tournament=event).order_by("pk").values()),
        "rounds": list(Round.objects.filter(tournament=event).order_by("pk").values()),
        "pairings": list(Pairing.objects.filter(round__tournament=event).order_by("pk").values()),
        "games": PairingGame.objects.filter(pairing__round__tournament=event).count(),
    }


def _action(client, model, action, pks, **data):
    return client.post(
        reverse(f"admin:tournaments_{model}_changelist"), {"action": action, ACTION_CHECKBOX_NAME: pks, **data}
    )


def _form(event, **changes):
    data = {
        "kind": event.kind,
        "name": event.name,
        "slug": event.slug,
        "description": "",
        "starts_on": "2026-12-01",
        "ends_on": "",
        "variant": event.variant,
        "target": event.target,
        "days_per_move": 3,
        "timeout_policy": event.timeout_policy,
        "time_bank_days": 0,
        "vacation_allowed": "on",
        "vacation_days_cap": 21,
        "legs": 1,
        "all_rounds_at_start": "on",
        "scoring": event.scoring,
        "best_of": 1,
        "entrant_set-TOTAL_FORMS": "0",
        "entrant_set-INITIAL_FORMS": "0",
        "entrants-TOTAL_FORMS": "0",
        "entrants-INITIAL_FORMS": "0",
    }
    data.update(changes)
    return data


def test_an_organiser_of_event_a_is_refused_event_b_everywhere(client, organisers, two_events):
    (a, _), (b, _) = two_events
    client.force_login(organisers[0])
    listing = client.get(reverse("admin:tournaments_tournament_changelist"))
    assert listing.status_code == 200 and "Event-A" in listing.text and "Event-B" not in listing.text
    assert client.get(reverse("admin:tournaments_tournament_change", args=[a.pk])).status_code == 200
    before = _changed(b)
    assert client.get(reverse("admin:tournaments_tournament_change", args=[b.pk])).status_code == 403
    assert client.post(reverse("admin:tournaments_tournament_change", args=[b.pk]), _form(b)).status_code == 403
    assert client.get(reverse("admin:tournaments_tournament_entrants", args=[b.pk])).status_code == 403
    response = client.post(
        reverse("admin:tournaments_tournament_entrants", args=[b.pk]), {"form": "add", "add-emails": "x@example.com"}
    )
    assert response.status_code == 403
    assert _action(client, "tournament", "start_event", [b.pk]).status_code == 403
    assert _action(client, "tournament", "export_standings", [b.pk]).status_code == 403
    assert _changed(b) == before
    # Once B is under way, its rounds and pairings are refused too.
    services.start(b)
    before = _changed(b)
    rnd = b.rounds.get(number=2)
    pairing = b.rounds.get(number=1).pairings.exclude(status="bye").get()
    assert client.get(reverse("admin:tournaments_round_change", args=[rnd.pk])).status_code == 403
    assert _action(client, "round", "open_rounds", [rnd.pk]).status_code == 403
    assert client.get(reverse("admin:tournaments_pairing_change", args=[pairing.pk])).status_code == 403
    response = _action(client, "pairing", "record_forfeit", [pairing.pk], apply="1", loser="home", reason="mine")
    assert response.status_code == 403
    assert "Event-B" not in client.get(reverse("admin:tournaments_round_changelist")).text
    assert _changed(b) == before


def test_entering_players_on_the_entrants_page_and_a_player_entered_twice_is_refused(client, organisers, two_events):
    (a, entrants), _ = two_events
    client.force_login(organisers[0])
    url = reverse("admin:tournaments_tournament_entrants", args=[a.pk])
    response = client.post(url, {"form": "add", "add-emails": "new1@example.com\nnew2@example.com"}, follow=True)
    assert "Entered 2 player(s); invited 2 new address(es)." in response.text
    assert a.entrants.count() == 6
    before, log = _changed(a), LogEntry.objects.count()
    twice = entrants[0].player.email
    response = client.post(url, {"form": "add", "add-emails": f"new3@example.com\n{twice}"}, follow=True)
    assert "Already entered: A. Nothing was changed." in response.text
    response = client.post(url, {"form": "add", "add-emails": "dup@example.com dup@example.com"}, follow=True)
    assert "Listed twice: dup@example.com. Nothing was changed." in response.text
    response = client.post(url, {"form": "add", "add-emails": "not-an-address"}, follow=True)
    assert "Not email addresses: not-an-address" in response.text
    assert _changed(a) == before and LogEntry.objects.count() == log
    response = client.post(url, {"form": "withdraw", "withdraw-entrant": entrants[3].pk}, follow=True)
    assert f"Withdrew {entrants[3]}." in response.text and a.entrants.count() == 5


def test_dates_in_the_wrong_order_are_refused_and_nothing_changes(client, organisers, two_events):
    (a, _), _ = two_events
    client.force_login(organisers[0])
    before = _changed(a)
    response = client.post(
        reverse("admin:tournaments_tournament_change", args=[a.pk]),
        _form(a, name="Renamed", starts_on="2026-12-10", ends_on="2026-12-01"),
    )
    assert response.status_code == 200
    assert "The season ends (01 Dec 2026) before it starts (10 Dec 2026)" in response.text
    assert _changed(a) == before
    response = client.post(
        reverse("admin:tournaments_tournament_change", args=[a.pk]),
        _form(a, name="Renamed", starts_on="2026-12-01", ends_on="2027-03-01"),
    )
    assert response.status_code == 302
    a.refresh_from_db()
    assert a.name == "Renamed" and str(a.ends_on) == "2027-03-01"


def test_starting_and_opening_rounds_from_the_admin_and_a_round_opened_twice(client, organisers, two_events):
    (a, _), _ = two_events
    a.all_rounds_at_start = False
    a.save()
    client.force_login(organisers[0])
    response = _action(client, "tournament", "start_event", [a.pk])
    assert response.status_code == 302
    a.refresh_from_db()
    assert a.status == "running" and [r.status for r in a.rounds.order_by("number")] == ["open", "scheduled"] + [
        "scheduled"
    ]
    assert PairingGame.objects.filter(pairing__round__tournament=a).count() == 2
    before = _changed(a)
    response = _action(client, "tournament", "start_event", [a.pk])
    assert response.status_code == 302
    first = a.rounds.get(number=1)
    response = client.post(
        reverse("admin:tournaments_round_changelist"),
        {"action": "open_rounds", ACTION_CHECKBOX_NAME: [first.pk]},
        follow=True,
    )
    assert "Round 1 is already being played." in response.text
    assert _changed(a) == before
    # The organiser opens round 2 early: its games start.
    response = _action(client, "tournament", "open_next_round", [a.pk])
    assert a.rounds.get(number=2).status == "open"
    assert PairingGame.objects.filter(pairing__round__tournament=a).count() == 4
    # The format is fixed once the event is under way.
    page = client.get(reverse("admin:tournaments_tournament_change", args=[a.pk]))
    assert 'name="kind"' not in page.text and 'name="name"' in page.text


def test_a_knockout_with_one_entrant_is_refused_with_a_clear_message(client, organisers, make_event):
    event, _ = make_event(1, organiser=organisers[0], kind=Tournament.Kind.KNOCKOUT, slug="cup")
    client.force_login(organisers[0])
    before = _changed(event)
    response = _action(client, "tournament", "start_event", [event.pk])
    response = client.get(response.url)
    assert "A knockout needs at least two entrants; it has 1." in response.text
    assert _changed(event) == before


def test_a_forfeit_recorded_on_a_pairing_counts_and_the_csv_has_it(client, organisers, two_events):
    (a, entrants), _ = two_events
    services.start(a)
    client.force_login(organisers[0])
    pairing = a.rounds.get(number=1).pairings.order_by("table").first()
    form = _action(client, "pairing", "record_forfeit", [pairing.pk])
    assert form.status_code == 200 and "Record a forfeit" in form.text
    _action(client, "pairing", "record_forfeit", [pairing.pk], apply="1", loser="home", reason="")
    assert PairingGame.objects.get(pairing=pairing).counted is False
    _action(client, "pairing", "record_forfeit", [pairing.pk], apply="1", loser="home", reason="no move in three weeks")
    pg = PairingGame.objects.get(pairing=pairing)
    assert pg.counted and pg.kind == "forfeit" and pg.winner == pairing.away
    csv_response = _action(client, "tournament", "export_standings", [a.pk])
    assert csv_response["Content-Type"].startswith("text/csv")
    lines = csv_response.content.decode().splitlines()
    assert lines[1].startswith(f"1,{pairing.away},1,1,1,0,")  # 1 point, 1 played, 1 won, 0 lost
    change = client.get(reverse("admin:tournaments_pairing_change", args=[pairing.pk]))
    assert change.status_code == 200 and pg.game.get_absolute_url() in change.text


def test_an_organiser_writes_to_every_entrant_and_another_events_organiser_is_refused(
    client, organisers, two_events, django_capture_on_commit_callbacks
):
    (a, entrants), (b, _) = two_events
    first, second = organisers
    path = reverse("admin:tournaments_tournament_announce", args=[a.pk])
    client.force_login(second)
    assert client.post(path, {"subject": "Hi", "body": "Round two opens"}).status_code == 403
    client.force_login(first)
    assert client.post(path, {"subject": "", "body": ""}).status_code == 400
    assert not mail.outbox
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(path, {"subject": "Round two", "body": "Round two opens on Monday."})
    assert response.status_code == 302
    assert sorted(m.to[0] for m in mail.outbox) == sorted(e.player.email for e in entrants)
    assert all("Round two opens on Monday." in m.body and "unsubscribe" in m.body.lower() for m in mail.outbox)
    assert "Round two" in client.get(path).content.decode()


def test_a_club_night_result_counts_in_the_league_and_the_ratings(
    client, organisers, make_event, django_capture_on_commit_callbacks
):
    event, entrants = make_event(4, organiser=organisers[0], slug="club-nights", all_rounds_at_start=False)
    services.start(event)
    client.force_login(organisers[0])
    later = event.rounds.get(number=2).pairings.order_by("table").first()
    in_play = event.rounds.get(number=1).pairings.order_by("table").first()
    # A pairing being played here takes no result from the table; nor does an impossible board.
    _action(client, "pairing", "enter_table_game", [in_play.pk], apply="1", home_score=121, away_score=80)
    _action(client, "pairing", "enter_table_game", [later.pk], apply="1", home_score=121, away_score=121)
    assert not Game.objects.filter(played_at_table=True).exists()
    with django_capture_on_commit_callbacks(execute=True):
        _action(client, "pairing", "enter_table_game", [later.pk], apply="1", home_score=121, away_score=85)
    pg = PairingGame.objects.get(pairing=later)
    assert pg.game.played_at_table and pg.counted and pg.kind == "skunk" and pg.winner == later.home
    row = next(r for r in selectors.table(event) if r["player"] == str(later.home.player))
    assert (row["played"], row["won"], row["points"]) == (1, 1, 2)  # a skunk counts two
    assert Rating.objects.filter(player=later.home.player).exists()
    # The other event's organiser cannot reach this pairing at all.
    client.force_login(organisers[1])
    _action(client, "pairing", "enter_table_game", [later.pk], apply="1", home_score=121, away_score=1)
    assert Game.objects.filter(played_at_table=True).count() == 1


def _forfeit(client, pks, loser="home", reason="no move in three weeks"):
    """The forfeit action applied, and the messages the page then shows."""
    response = client.post(
        reverse("admin:tournaments_pairing_changelist"),
        {"action": "record_forfeit", ACTION_CHECKBOX_NAME: pks, "apply": "1", "loser": loser, "reason": reason},
        follow=True,
    )
    return [(m.level_tag, m.message) for m in response.context["messages"]]


def test_a_forfeit_is_recorded_on_one_pairing_with_a_game_in_play_and_logged(client, organisers, two_events):
    (a, _), (b, _) = two_events
    services.start(a)
    services.start(b)
    client.force_login(organisers[0])
    first, second = a.rounds.get(number=1).pairings.order_by("table")
    before, log = _changed(a), LogEntry.objects.count()
    assert _forfeit(client, [first.pk, second.pk]) == [("error", "Choose one pairing.")]
    assert (_changed(a), LogEntry.objects.count()) == (before, log)
    note = f"Recorded a forfeit by {first.away}: no move in three weeks"
    assert _forfeit(client, [first.pk], loser="away") == [("info", note)]
    assert LogEntry.objects.get(object_id=str(first.pk), content_type__model="pairing").change_message == note
    assert PairingGame.objects.get(pairing=first).winner == first.home
    before, log = _changed(a), LogEntry.objects.count()
    assert _forfeit(client, [first.pk]) == [("error", "This pairing has no game in play.")]
    assert (_changed(a), LogEntry.objects.count()) == (before, log)
    # A bye has nobody to forfeit and no game.
    client.force_login(organisers[1])
    bye = b.rounds.get(number=1).pairings.get(status="bye")
    before = _changed(b)
    for side in ("home", "away"):
        assert _forfeit(client, [bye.pk], loser=side) == [("error", "This pairing has no game in play.")]
    assert _changed(b) == before


def test_an_organisers_numbers_in_other_digits_are_refused_and_nothing_changes(client, organisers, two_events):
    (a, _), _ = two_events
    client.force_login(organisers[0])
    before = _changed(a)
    for field, value in (("min_rating", "١٢٠٠"), ("days_per_move", "３"), ("max_entrants", "८")):
        response = client.post(reverse("admin:tournaments_tournament_change", args=[a.pk]), _form(a, **{field: value}))
        assert response.status_code == 200 and "Write a whole number in the digits 0 to 9." in response.text, field
    assert _changed(a) == before
    response = client.post(reverse("admin:tournaments_tournament_change", args=[a.pk]), _form(a, min_rating="1200"))
    assert response.status_code == 302
    a.refresh_from_db()
    assert a.min_rating == 1200
