"""Repeating events: an event set to repeat every N days opens the next like it when it starts
(the beat's "events-repeat"), once; players see it under Events and enter it there."""

import io
from datetime import date, datetime, timedelta

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from events import repeats
from tests.factories import at, lose_on_time, make_user
from tournaments import services
from tournaments.models import Tournament
from tournaments.repeats import repeat, repeat_due

pytestmark = pytest.mark.django_db


def _noon(day):
    return timezone.make_aware(datetime(day.year, day.month, day.day, 12))


def test_the_next_start_name_and_address():
    friday = date(2026, 12, 4)
    assert repeats.next_start(friday, 7, today=friday) == date(2026, 12, 11)
    assert repeats.next_start(friday, 7, today=date(2026, 12, 10)) == date(2026, 12, 11)
    # Not run for a while: the first day on the rhythm still to come, never one in the past.
    assert repeats.next_start(friday, 7, today=date(2026, 12, 25)) == date(2027, 1, 1)
    assert repeats.next_name("Friday blitz", date(2026, 12, 11)) == "Friday blitz · 11 Dec 2026"
    assert repeats.next_name("Friday blitz · 4 Dec 2026", date(2026, 12, 11)) == "Friday blitz · 11 Dec 2026"
    assert repeats.next_slug("friday-blitz-2026-12-04", date(2026, 12, 11)) == "friday-blitz-2026-12-11"
    assert len(repeats.next_slug("x" * 50, date(2026, 12, 11))) == 50


def test_a_repeating_event_opens_the_next_like_it_when_it_starts_and_only_once(make_event, organisers):
    olive = organisers[0]
    friday = date(2026, 12, 4)
    event, _ = make_event(
        4,
        organiser=olive,
        name="Friday blitz",
        slug="friday-blitz",
        kind=Tournament.Kind.DUPLICATE,
        variant="five_card",
        target=61,
        days_per_move=2,
        min_reliability=90,
        max_entrants=8,
        starts_on=friday,
        ends_on=friday + timedelta(days=5),
        entries_close_on=friday - timedelta(days=1),
        repeat_every_days=7,
    )
    with at(_noon(friday - timedelta(days=1))):
        assert repeat_due() == []  # not started yet: nothing is due
    with at(_noon(friday)):
        services.start(event)
        [follow] = repeat_due()
        assert repeat_due() == [] and repeat(event) is None  # once
    assert (follow.name, follow.slug, follow.status) == (
        "Friday blitz · 11 Dec 2026",
        "friday-blitz-2026-12-11",
        "draft",
    )
    assert (follow.starts_on, follow.ends_on, follow.entries_close_on) == (
        date(2026, 12, 11),
        date(2026, 12, 16),
        date(2026, 12, 10),
    )
    same = ["kind", "variant", "target", "days_per_move", "min_reliability", "max_entrants", "repeat_every_days"]
    assert [getattr(follow, f) for f in same] == [getattr(event, f) for f in same]
    assert list(follow.organisers.all()) == [olive] and follow.entrants.count() == 0
    assert follow.repeated_from == event and Tournament.objects.count() == 2

    # A week on, the copy starts, and opens the next in its turn; the organiser can stop the run.
    with at(_noon(date(2026, 12, 11))):
        [third] = repeat_due()
    assert third.name == "Friday blitz · 18 Dec 2026" and third.repeated_from == follow
    third.repeat_every_days = None
    third.save()
    with at(_noon(date(2026, 12, 30))):
        assert repeat_due() == []


def test_the_beat_entry_runs_it(make_event):
    event, _ = make_event(0, name="Daily", slug="daily", starts_on=date(2026, 12, 4), repeat_every_days=1)
    out = io.StringIO()
    with at(_noon(date(2026, 12, 4))):
        call_command("run_periodic", "--only", "events-repeat", stdout=out)
    assert "events-repeat: 1" in out.getvalue()
    assert Tournament.objects.get(repeated_from=event).starts_on == date(2026, 12, 5)


def test_players_see_the_events_taking_entries_and_enter_them_from_the_list(client, make_event):
    today = timezone.localdate()
    soon, _ = make_event(
        0, name="Weekly league", slug="weekly", starts_on=today + timedelta(days=3), repeat_every_days=7
    )
    steady, _ = make_event(0, name="Steady cup", slug="steady", starts_on=today + timedelta(days=1), min_reliability=90)
    done, _ = make_event(2, name="Old cup", slug="old")
    services.start(done)
    page = client.get(reverse("tournaments:list")).content.decode()
    assert page.index("Steady cup") < page.index("Weekly league") < page.index("Old cup")  # soonest first
    assert "Repeats every 7 days." in page and "Log in</a> to enter." in page

    player = make_user(display_name="Zoe")
    client.force_login(player)
    page = client.get(reverse("tournaments:list")).content.decode()
    assert page.count(">Enter</button>") == 2
    page = client.post(reverse("tournaments:enter", args=[soon.slug]), follow=True).content.decode()
    assert "You are entered in Weekly league." in page and soon.entrants.filter(player=player).exists()
    page = client.get(reverse("tournaments:list")).content.decode()
    assert page.count(">Enter</button>") == 1 and "You are entered" in page

    late = make_user(display_name="Late")
    lose_on_time(late, times=1, wins=3)
    client.force_login(late)
    page = client.post(reverse("tournaments:enter", args=[steady.slug]), follow=True).content.decode()
    assert "It asks for a reliability of at least 90%: yours is 75%" in page
    assert not steady.entrants.filter(player=late).exists()


def test_the_list_costs_the_same_queries_for_many_events(client, make_event, django_assert_max_num_queries):
    client.force_login(make_user())
    make_event(0, name="One", slug="one")
    with django_assert_max_num_queries(8) as few:
        client.get(reverse("tournaments:list"))
    for n in range(8):
        make_event(0, name=f"More {n}", slug=f"more-{n}", repeat_every_days=n + 1)
    with django_assert_max_num_queries(len(few.captured_queries)):
        client.get(reverse("tournaments:list"))


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_runs_at_once_open_the_next_event_once():
    from tests.factories import at_once, failures

    event = Tournament.objects.create(name="Daily", slug="daily", starts_on=date(2026, 12, 4), repeat_every_days=1)

    def run():
        with at(_noon(date(2026, 12, 4))):
            return repeat_due()

    outcomes = at_once(run, run)
    assert not failures(outcomes)
    assert sorted(len(opened) for opened in outcomes) == [0, 1]
    assert Tournament.objects.filter(repeated_from=event).count() == 1 and Tournament.objects.count() == 2
