"""Players enter and withdraw on their own, on the event page and by email, under the event's
rules: a closing date, a cap, a rating floor, a reliability floor, the organiser's approval."""

from datetime import date

import pytest
from django.urls import reverse

from games import reliability
from games import services as game_services
from games.models import Event
from tests.factories import lose_on_time, make_user, start_two_player_game
from tournaments import entries, replies, services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _page(client, event):
    return client.get(reverse("tournaments:detail", args=[event.slug])).text


def test_a_player_enters_and_withdraws_on_the_event_page(client, make_event):
    event, _ = make_event(2, name="Spring League")
    player = make_user(display_name="Zoe")
    client.force_login(player)
    assert "Enter Spring League</button>" in _page(client, event)
    page = client.post(reverse("tournaments:enter", args=[event.slug]), follow=True).text
    assert "You are entered in Spring League." in page and "Withdraw my entry" in page
    assert event.entrants.filter(player=player, approved=True).exists()
    page = client.post(reverse("tournaments:enter", args=[event.slug]), follow=True).text
    assert "You are entered in Spring League already." in page and event.entrants.count() == 3
    page = client.post(reverse("tournaments:withdraw", args=[event.slug]), follow=True).text
    assert "Your entry in Spring League is withdrawn." in page and not event.entrants.filter(player=player).exists()
    page = client.post(reverse("tournaments:withdraw", args=[event.slug]), follow=True).text
    assert "You are not entered in Spring League." in page
    services.start(event)
    assert "Enter Spring League" not in _page(client, event)
    page = client.post(reverse("tournaments:enter", args=[event.slug]), follow=True).text
    assert "The event has started: entries are closed." in page
    client.logout()
    assert client.post(reverse("tournaments:enter", args=[event.slug])).status_code == 302  # to the login
    assert event.entrants.count() == 2


def test_a_player_under_the_reliability_floor_is_refused_with_the_reason_on_both_channels(client, make_event):
    event, _ = make_event(0, name="Steady Cup", min_reliability=90)
    late = make_user(display_name="Late")
    lose_on_time(late, times=1, wins=3)  # 1 of 4 games lost on time: 75%
    assert reliability.reliability_of(late) == 75
    why = "It asks for a reliability of at least 90%: yours is 75% (1 of your 4 games finished in the last 90 days were lost on time)."
    client.force_login(late)
    assert f"You cannot enter: {why}" in _page(client, event)
    page = client.post(reverse("tournaments:enter", args=[event.slug]), follow=True).text
    assert why in page and not event.entrants.exists()
    entered, said = replies.enter(event, late)
    assert not entered and said == [f"{why} Nothing was done."]
    # A newcomer (no finished game) and a steady player enter.
    steady = make_user()
    lose_on_time(steady, times=0, wins=2)
    for player in (make_user(), steady):
        assert entries.register(event, player).approved


def test_a_closing_date_a_cap_a_rating_floor_and_approval(client, make_event):
    event, _ = make_event(1, name="Tight", max_entrants=2, entries_close_on=date(2026, 1, 31))
    first, second = make_user(), make_user()
    entries.register(event, first, now=_on(2026, 1, 31))
    with pytest.raises(services.TournamentError, match="The event is full: it takes 2 entrants."):
        entries.register(event, second, now=_on(2026, 1, 30))
    event.max_entrants = None
    event.save()
    with pytest.raises(services.TournamentError, match="Entries closed on 31 Jan 2026."):
        entries.register(event, second, now=_on(2026, 2, 1))
    rated = Tournament.objects.create(name="Strong", slug="strong", min_rating=1200)
    with pytest.raises(services.TournamentError, match="a rating of at least 1200 in this game: yours is"):
        entries.register(rated, second)
    vetted = Tournament.objects.create(name="Vetted", slug="vetted", approval_required=True)
    organiser = make_user(is_staff=True, is_superuser=True)
    client.force_login(second)
    page = client.post(reverse("tournaments:enter", args=["vetted"]), follow=True).text
    assert "Your entry waits for the organiser&#x27;s approval." in page
    entry = vetted.entrants.get()
    assert not entry.approved and "(awaiting approval)" in page
    entered, said = replies.enter(vetted, first)  # by email: the same rules, the same waiting
    assert entered and "waits for the organiser's approval" in said[0]
    client.force_login(organiser)
    url = reverse("admin:tournaments_tournament_entrants", args=[vetted.pk])
    assert f"Approve {second}" in client.get(url).text
    client.post(url, {"form": "approve", "entrant": entry.pk})
    entry.refresh_from_db()
    assert entry.approved
    third = entries.enter(vetted, make_user(), actor=organiser).player  # the organiser's entries need no approval
    services.start(vetted)  # the entry still waiting is not taken
    assert {e.player for e in vetted.entrants.all()} == {second, third}


def _on(year, month, day):
    from datetime import datetime

    from django.utils import timezone

    return timezone.make_aware(datetime(year, month, day, 12))


def test_only_a_forfeit_for_a_timeout_counts_against_reliability():
    player = make_user()
    game = start_two_player_game(players=[player, make_user()])
    game_services.record_forfeit(game, 0, reason="abandoned")
    assert Event.objects.filter(game=game, kind="forfeit").exists()
    assert reliability.reliability_of(player) == 100 and reliability.reliability_of(make_user()) is None
