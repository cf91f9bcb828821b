"""The season's end is kept: after it no event starts, no round opens and no table result played
after it is entered; games under way are played out and count. The event page says so."""

from datetime import timedelta

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from tests.factories import committed, finish_game, make_user
from tournaments import services
from tournaments.models import Pairing, Round, Tournament

pytestmark = pytest.mark.django_db

ENDED = "The season ended on {:%d %b %Y}"


def _yesterday():
    return timezone.localdate() - timedelta(days=1)


def _play(pg, winner):
    seat = pg.home_seat if winner.pk == pg.pairing.home_id else 1 - pg.home_seat
    with committed():
        finish_game(pg.game, seat)
    pg.refresh_from_db()


def _season_ends(event, day):
    Tournament.objects.filter(pk=event.pk).update(ends_on=day)
    event.refresh_from_db()


def test_an_event_whose_season_has_ended_does_not_start_and_nothing_changes(client, make_event):
    event, _ = make_event(4, starts_on=_yesterday() - timedelta(days=30), ends_on=_yesterday())
    with pytest.raises(services.TournamentError) as refused:
        services.start(event)
    assert refused.value.message.startswith(ENDED.format(_yesterday()) + ": the event can no longer start.")
    event.refresh_from_db()
    assert event.status == Tournament.Status.DRAFT and not event.rounds.exists() and not Game.objects.exists()
    page = client.get(event.get_absolute_url()).content.decode()
    day = _yesterday()
    assert f"The season ended on {day.day} {day:%b %Y}</strong>:\n  the event can no longer start." in page


def test_after_the_end_the_game_in_play_counts_but_the_next_round_waits_until_the_end_moves(client, make_event):
    event, _ = make_event(3, all_rounds_at_start=False, ends_on=timezone.localdate())
    services.start(event)
    first = event.rounds.get(number=1).pairings.exclude(status=Pairing.Status.BYE).get()
    _season_ends(event, _yesterday())  # the season ends with the first round's game in play

    _play(first.games.get(), first.home)
    first.refresh_from_db()
    assert first.games.get().counted and first.status == Pairing.Status.FINISHED and first.winner == first.home
    assert [r.status for r in event.rounds.order_by("number")] == ["complete", "scheduled", "scheduled"]
    assert Game.objects.count() == 1
    with pytest.raises(services.TournamentError, match=r"^The season ended on .*: round 2 cannot open\."):
        services.open_round(event.rounds.get(number=2))
    assert event.rounds.get(number=2).status == Round.Status.SCHEDULED and Game.objects.count() == 1
    page = client.get(event.get_absolute_url()).content.decode()
    assert "the games under way are played out and count, and no new round opens." in page

    _season_ends(event, timezone.localdate())  # the organisers move the end: the event plays on
    services.open_round(event.rounds.get(number=2))
    assert event.rounds.get(number=2).status == Round.Status.OPEN and Game.objects.count() == 2
    assert "no new round opens" not in client.get(event.get_absolute_url()).content.decode()


def test_after_the_end_a_knockout_pairing_under_way_plays_on_but_the_next_round_waits(make_event):
    event, (a, b, c, d) = make_event(4, kind=Tournament.Kind.KNOCKOUT, best_of=3, ends_on=timezone.localdate())
    services.start(event)
    semis = list(event.rounds.get(number=1).pairings.order_by("table"))
    _season_ends(event, _yesterday())
    for pairing in semis:
        for _ in range(2):  # a best of three begun in the season ends as it began
            _play(pairing.games.order_by("-number").first(), pairing.home)
    assert all(p.games.count() == 2 for p in semis)
    final = event.rounds.get(number=2)
    assert final.status == Round.Status.SCHEDULED and not final.pairings.get().games.exists()
    with pytest.raises(services.TournamentError, match="round 2 cannot open"):
        services.open_round(final)


def test_a_result_from_the_table_played_after_the_end_is_refused(make_event):
    organiser = make_user(is_staff=True)
    event, _ = make_event(4, organiser=organiser, all_rounds_at_start=False, ends_on=timezone.localdate())
    services.start(event)
    later = event.rounds.get(number=2).pairings.first()
    with pytest.raises(services.TournamentError, match=r"a game played after it does not count\. Nothing was entered"):
        services.record_table_game(later, 121, 90, actor=organiser, played_on=timezone.localdate() + timedelta(days=1))
    later.refresh_from_db()
    assert later.status == Pairing.Status.SCHEDULED and not later.games.exists()
    # Played on the last day, entered after it: it counts.
    _season_ends(event, _yesterday())
    services.record_table_game(later, 121, 90, actor=organiser, played_on=_yesterday())
    assert later.games.count() == 1


def test_the_organisers_admin_says_why_the_next_round_does_not_open(client, make_event):
    organiser = make_user(is_staff=True)
    event, _ = make_event(4, organiser=organiser, all_rounds_at_start=False, ends_on=timezone.localdate())
    services.start(event)
    _season_ends(event, _yesterday())
    client.force_login(organiser)
    response = client.post(
        reverse("admin:tournaments_tournament_changelist"),
        {"action": "open_next_round", ACTION_CHECKBOX_NAME: [event.pk]},
        follow=True,
    )
    assert f"{event}: The season ended on {_yesterday():%d %b %Y}: round 2 cannot open." in response.text
    assert event.rounds.get(number=2).status == Round.Status.SCHEDULED
