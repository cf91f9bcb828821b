"""The organisers' admin, driven through its pages with the test client."""
import csv
import io

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.admin.models import LogEntry
from django.core import mail
from django.urls import reverse

from ladders import services
from ladders.models import Challenge, Match, Season
from tests.factories import make_user


@pytest.fixture
def organisers(db):
    return make_user(is_staff=True), make_user(is_staff=True)


@pytest.fixture
def two_ladders(make_ladder, organisers):
    first, second = organisers
    return make_ladder(4, organiser=first, slug="ladder-a"), make_ladder(3, organiser=second, slug="ladder-b")


def login(client, user):
    client.force_login(user)
    return client


def test_an_organiser_of_ladder_a_is_refused_ladder_b_everywhere(client, organisers, two_ladders):
    (a, _), (b, b_entrants) = two_ladders
    login(client, organisers[0])
    changelist = client.get(reverse("admin:ladders_ladder_changelist"))
    assert changelist.status_code == 200
    assert "ladder-a".title() in changelist.text and "Ladder-B" not in changelist.text
    assert client.get(reverse("admin:ladders_ladder_change", args=[a.pk])).status_code == 200
    assert client.get(reverse("admin:ladders_ladder_change", args=[b.pk])).status_code == 403
    assert client.post(reverse("admin:ladders_ladder_change", args=[b.pk]), {"name": "Mine"}).status_code == 403
    assert client.get(reverse("admin:ladders_ladder_entrants", args=[b.pk])).status_code == 403
    assert client.post(reverse("admin:ladders_ladder_on_behalf", args=[b.pk]), {}).status_code == 403
    # An admin action posted with ladder B's id.
    response = client.post(reverse("admin:ladders_ladder_changelist"),
                           {"action": "export_standings", ACTION_CHECKBOX_NAME: [b.pk]})
    assert response.status_code == 403
    # Ladder B's matches are refused too.
    match = services.start_match(b_entrants[2], b_entrants[1], actor=None)
    assert client.get(reverse("admin:ladders_match_change", args=[match.pk])).status_code == 403
    response = client.post(reverse("admin:ladders_match_changelist"),
                           {"action": "undo_result", ACTION_CHECKBOX_NAME: [match.pk], "apply": "1",
                            "reason": "mine now"})
    assert response.status_code == 403
    assert Match.objects.get(pk=match.pk).status == Match.Status.PLAYING
    b.refresh_from_db()
    assert b.name == "Ladder-B"


def test_entrants_pasted_reordered_and_removed_through_the_admin(client, organisers, two_ladders, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    (a, entrants), _ = two_ladders
    login(client, organisers[0])
    url = reverse("admin:ladders_ladder_entrants", args=[a.pk])
    known = make_user(email="known@example.com")
    bad = client.post(url, {"form": "add", "add-emails": "new@example.com\nnot-an-address"})
    assert "Not email addresses: not-an-address" in bad.text
    assert a.entrants.count() == 4
    client.post(url, {"form": "add", "add-emails": "known@example.com, new@example.com"})
    assert [e.player.email for e in a.entrants.order_by("position")][-2:] == ["known@example.com",
                                                                               "new@example.com"]
    assert [m.to for m in mail.outbox] == [["new@example.com"]]  # only the unknown address is invited
    order = [e.player.email for e in a.entrants.order_by("-position")]
    client.post(url, {"form": "reorder", "reorder-order": "\n".join(order)})
    assert [e.player.email for e in a.entrants.order_by("position")] == order
    client.post(url, {"form": "remove", "remove-entrant": entrants[0].pk, "remove-reason": "moved away"})
    entrants[0].refresh_from_db()
    assert not entrants[0].active and entrants[0].position is None
    assert a.entrants.filter(active=True).count() == 5
    entry = a.history.get(kind="remove")
    assert entry.actor == organisers[0] and "moved away" in entry.text
    assert LogEntry.objects.filter(user=organisers[0], object_id=str(a.pk)).count() == 3
    assert known.ladder_entries.filter(ladder=a, active=True).exists()


def test_matches_started_forfeited_and_undone_through_the_admin(client, organisers, two_ladders):
    (a, (p1, p2, p3, p4)), _ = two_ladders
    login(client, organisers[0])
    client.post(reverse("admin:ladders_ladder_on_behalf", args=[a.pk]),
                {"challenger": p4.pk, "defender": p2.pk, "start_now": "on"})
    match = Match.objects.get(ladder=a)
    assert match.challenge.created_by == organisers[0] and match.games.count() == 1
    listing = client.get(reverse("admin:ladders_match_changelist"))
    assert "move due by" in listing.text.lower()
    changelist = reverse("admin:ladders_match_changelist")
    form = client.post(changelist, {"action": "record_forfeit", ACTION_CHECKBOX_NAME: [match.pk]})
    assert form.status_code == 200 and "Who forfeits" in form.text
    for _ in range(2):  # match to 2, forfeit worth 1: two forfeits by the defender
        client.post(changelist, {"action": "record_forfeit", ACTION_CHECKBOX_NAME: [match.pk], "apply": "1",
                                 "loser": "defender", "reason": "abandoned"})
    match.refresh_from_db()
    assert (match.status, match.winner) == (Match.Status.FINISHED, p4)
    assert [e.player_id for e in a.entrants.order_by("position")] == [p1.player_id, p4.player_id,
                                                                    p2.player_id, p3.player_id]
    forfeit = match.games.first().game.events.get(kind="forfeit")
    assert forfeit.actor == organisers[0] and forfeit.data["reason"] == "abandoned"
    client.post(changelist, {"action": "undo_result", ACTION_CHECKBOX_NAME: [match.pk], "apply": "1",
                             "reason": "wrong player recorded"})
    match.refresh_from_db()
    assert match.status == Match.Status.VOID
    assert [e.player_id for e in a.entrants.order_by("position")] == [p1.player_id, p2.player_id,
                                                                    p3.player_id, p4.player_id]
    undo = a.history.get(kind="undo")
    assert undo.actor == organisers[0] and undo.undoes.kind == "result"


def test_challenges_accepted_for_the_defender_through_the_admin(client, organisers, two_ladders):
    (a, (p1, p2, p3, p4)), _ = two_ladders
    login(client, organisers[0])
    client.post(reverse("admin:ladders_ladder_on_behalf", args=[a.pk]), {"challenger": p3.pk, "defender": p1.pk})
    item = Challenge.objects.get(ladder=a)
    assert "respond by" in client.get(reverse("admin:ladders_challenge_changelist")).text.lower()
    client.post(reverse("admin:ladders_challenge_changelist"),
                {"action": "accept_for_defender", ACTION_CHECKBOX_NAME: [item.pk]})
    item.refresh_from_db()
    assert item.status == Challenge.Status.ACCEPTED and item.match.games.count() == 1


def test_export_and_close_season_through_the_admin(client, organisers, two_ladders):
    (a, (p1, p2, p3, p4)), _ = two_ladders
    login(client, organisers[0])
    match = services.start_match(p4, p3, actor=None)
    services.forfeit_game(match.games.get(), p3, reason="gone", actor=None)
    changelist = reverse("admin:ladders_ladder_changelist")
    response = client.post(changelist, {"action": "export_standings", ACTION_CHECKBOX_NAME: [a.pk]})
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:3] == ["Position", "Player", "Matches"]
    assert [r[1] for r in rows[1:]] == [str(p.player) for p in (p1, p2, p3, p4)]
    assert rows[4][4:7] == ["1", "1", "1"]  # the last row: one game, one win, one game point (a forfeit)
    page = client.post(changelist, {"action": "close_season", ACTION_CHECKBOX_NAME: [a.pk]})
    assert "Reseed" in page.text
    client.post(changelist, {"action": "close_season", ACTION_CHECKBOX_NAME: [a.pk], "apply": "1",
                             "reseed": "table"})
    a.refresh_from_db()
    frozen = Season.objects.get(ladder=a, number=1)
    assert a.season == 2 and frozen.closed_by == organisers[0]
    assert [r["player"] for r in frozen.standings][3] == str(p4.player)
    assert a.entrants.get(pk=p4.pk).position == 1  # reseeded by the table: the only game point
    assert all(r["games"] == 0 for r in services.standings(a))  # the new season starts empty
    assert client.get(reverse("ladders:season", args=[a.slug, 1])).status_code == 200
