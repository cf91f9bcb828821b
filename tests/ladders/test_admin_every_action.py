"""Every organiser page and action of the ladder admin, through the test client: each refused to an
organiser of another ladder (403, nothing changed), and the actions test_admin.py does not drive
(the idle rule, overdue challenges, withdrawing, the history and seasons) done by their own."""

from datetime import timedelta

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.admin.models import LogEntry
from django.urls import reverse
from django.utils import timezone

from ladders import challenges, seasons
from ladders.models import Challenge, Entrant, Ladder, LadderHistory, Match, Season

pytestmark = pytest.mark.django_db


@pytest.fixture
def other_ladder(make_ladder, organisers):
    """Olive runs "mine"; Oscar runs "theirs", with an open challenge, a match in play and a
    closed season. Olive is logged in."""
    olive, oscar = organisers
    make_ladder(3, organiser=olive, slug="mine")
    ladder, entrants = make_ladder(5, organiser=oscar, slug="theirs")
    seasons.close_season(ladder, actor=oscar)
    challenges.challenge(entrants[4], entrants[3], actor=None)
    match = challenges.start_match(entrants[2], entrants[1], actor=None)
    return ladder, entrants, match


def ladder_url(name, ladder):
    return reverse(f"admin:ladders_ladder_{name}", args=[ladder.pk])


def refused_requests(ladder, entrants, match):
    """Every page and action of the organisers' admin, aimed at `ladder`'s objects."""
    challenge = Challenge.objects.get(ladder=ladder, status=Challenge.Status.OPEN)
    season = ladder.seasons.get(number=1)
    history = ladder.history.first()
    ladders, challenges, matches = (reverse(f"admin:ladders_{m}_changelist") for m in ("ladder", "challenge", "match"))
    until = (timezone.localdate() + timedelta(days=3)).isoformat()

    def action(name, ids, **data):
        return {"action": name, ACTION_CHECKBOX_NAME: ids, **data}

    return [
        ("get", ladder_url("change", ladder), None),
        ("post", ladder_url("change", ladder), {"name": "Mine now", "slug": "theirs"}),
        ("get", ladder_url("entrants", ladder), None),
        ("post", ladder_url("entrants", ladder), {"form": "add", "add-emails": "me@example.com"}),
        ("post", ladder_url("entrants", ladder), {"form": "remove", "remove-entrant": entrants[0].pk}),
        ("post", ladder_url("entrants", ladder), {"form": "away", "away-entrant": entrants[0].pk, "away-until": until}),
        (
            "post",
            ladder_url("entrants", ladder),
            {"form": "reorder", "reorder-order": "\n".join(e.player.email for e in reversed(entrants))},
        ),
        ("get", ladder_url("on_behalf", ladder), None),
        ("post", ladder_url("on_behalf", ladder), {"challenger": entrants[4].pk, "defender": entrants[2].pk}),
        ("get", ladder_url("announce", ladder), None),
        ("post", ladder_url("announce", ladder), {"subject": "Hi", "body": "Hello"}),
        ("get", ladder_url("club_night", ladder), None),
        ("post", ladder_url("club_night", ladder), {}),
        ("post", ladders, action("export_standings", [ladder.pk])),
        ("post", ladders, action("close_season", [ladder.pk], apply="1", reseed="keep")),
        ("post", ladders, action("apply_idle_rule", [ladder.pk])),
        ("post", ladders, action("lapse_overdue_challenges", [ladder.pk])),
        ("get", reverse("admin:ladders_challenge_change", args=[challenge.pk]), None),
        ("post", challenges, action("accept_for_defender", [challenge.pk])),
        ("post", challenges, action("withdraw", [challenge.pk])),
        ("get", reverse("admin:ladders_match_change", args=[match.pk]), None),
        ("post", matches, action("record_forfeit", [match.pk], apply="1", loser="defender", reason="gone")),
        ("post", matches, action("undo_result", [match.pk], apply="1", reason="mine")),
        ("get", reverse("admin:ladders_ladderhistory_change", args=[history.pk]), None),
        ("get", reverse("admin:ladders_season_change", args=[season.pk]), None),
    ]


def test_an_organiser_of_another_ladder_is_refused_every_page_and_action(
    client, organisers, other_ladder, ladder_state, database_dump
):
    ladder, entrants, match = other_ladder
    client.force_login(organisers[0])
    before, state = database_dump(), ladder_state(ladder)
    for method, url, data in refused_requests(ladder, entrants, match):
        response = getattr(client, method)(url, data) if data is not None else getattr(client, method)(url)
        assert response.status_code == 403, (method, url, data)
        assert "Theirs" not in response.text, url
    assert ladder_state(ladder) == state and database_dump() == before


def test_the_lists_show_only_the_organisers_own_ladders(client, organisers, other_ladder):
    ladder, entrants, match = other_ladder
    mine = Ladder.objects.get(slug="mine")
    challenges.challenge(mine.entrants.get(position=3), mine.entrants.get(position=1), actor=None)
    challenges.start_match(mine.entrants.get(position=2), mine.entrants.get(position=1), actor=None)
    client.force_login(organisers[0])
    for model, rows in [
        ("ladder", Ladder.objects.filter(pk=mine.pk)),
        ("challenge", Challenge.objects.filter(ladder=mine)),
        ("match", Match.objects.filter(ladder=mine)),
        ("ladderhistory", LadderHistory.objects.filter(ladder=mine)),
        ("season", Season.objects.filter(ladder=mine)),
    ]:
        listing = client.get(reverse(f"admin:ladders_{model}_changelist"))
        assert listing.status_code == 200 and "Theirs" not in listing.text, model
        assert listing.context["cl"].result_count == rows.count() > 0, model


# --- The actions test_admin.py leaves out, by the ladder's own organiser ----------------------


def post_action(client, model, name, ids, **data):
    return client.post(
        reverse(f"admin:ladders_{model}_changelist"), {"action": name, ACTION_CHECKBOX_NAME: ids, **data}, follow=True
    )


def shown(response):
    return [m.message for m in response.context["messages"]]


def test_the_idle_rule_applied_from_the_admin_drops_the_idle(client, organisers, make_ladder):
    ladder, (a, b, c, d, e) = make_ladder(5, organiser=organisers[0], idle_days=10, idle_drop_places=2)
    Entrant.objects.filter(pk=a.pk).update(last_active_at=timezone.now() - timedelta(days=11))
    client.force_login(organisers[0])
    response = post_action(client, "ladder", "apply_idle_rule", [ladder.pk])
    assert f"{ladder}: the idle rule moved 1 entrant(s)." in shown(response)
    assert [x.player.display_name for x in ladder.entrants.order_by("position")] == ["B", "C", "A", "D", "E"]
    assert ladder.history.get(kind="idle").actor == organisers[0]
    assert LogEntry.objects.filter(user=organisers[0], object_id=str(ladder.pk)).exists()


def test_overdue_challenges_counted_from_the_admin(client, organisers, make_ladder):
    ladder, (a, b, c) = make_ladder(3, organiser=organisers[0])
    item = challenges.challenge(c, a, actor=None)
    Challenge.objects.filter(pk=item.pk).update(respond_by=timezone.now() - timedelta(minutes=1))
    challenges.challenge(b, a, actor=None)  # not overdue: it stays open
    client.force_login(organisers[0])
    response = post_action(client, "ladder", "lapse_overdue_challenges", [ladder.pk])
    assert f"{ladder}: 1 overdue challenge(s) counted as forfeits." in shown(response)
    match = Match.objects.get(challenge=item)
    assert (match.winner, match.decided_by) == (c, Match.DecidedBy.FORFEIT)
    assert ladder.entrants.get(pk=c.pk).position == 1
    assert Challenge.objects.get(challenger=b).status == Challenge.Status.OPEN


def test_a_challenge_withdrawn_from_the_admin_and_a_second_withdrawal_refused(client, organisers, make_ladder):
    ladder, (a, b, c) = make_ladder(3, organiser=organisers[0])
    item = challenges.challenge(c, b, actor=None)
    client.force_login(organisers[0])
    response = post_action(client, "challenge", "withdraw", [item.pk])
    assert f"{item}: withdrawn." in shown(response)
    item.refresh_from_db()
    assert item.status == Challenge.Status.WITHDRAWN
    assert ladder.history.get(kind="withdraw").actor == organisers[0]
    again = post_action(client, "challenge", "withdraw", [item.pk])
    assert f"{item}: Only an open challenge can be withdrawn." in shown(again)
    accept = post_action(client, "challenge", "accept_for_defender", [item.pk])
    assert f"{item}: This challenge is no longer open (withdrawn)." in shown(accept)
    assert not Match.objects.exists()


def test_the_history_and_seasons_pages_are_read_only(client, organisers, make_ladder):
    ladder, (a, b) = make_ladder(2, organiser=organisers[0])
    seasons.close_season(ladder, actor=organisers[0])
    client.force_login(organisers[0])
    entry = ladder.history.get(kind="season_close")
    page = client.get(reverse("admin:ladders_ladderhistory_change", args=[entry.pk]))
    assert page.status_code == 200 and f"{organisers[0]} closed season 1" in page.text
    changed = client.post(reverse("admin:ladders_ladderhistory_change", args=[entry.pk]), {"text": "rewritten"})
    assert changed.status_code == 403
    entry.refresh_from_db()
    assert entry.text == f"{organisers[0]} closed season 1"
    listed = client.get(reverse("admin:ladders_season_changelist"))
    assert reverse("ladders:season", args=[ladder.slug, 1]) in listed.text  # the frozen standings
    season = ladder.seasons.get(number=1)
    assert client.post(reverse("admin:ladders_season_change", args=[season.pk]), {}).status_code == 403


def test_the_entrants_page_has_each_form_once(client, organisers, make_ladder):
    ladder, _ = make_ladder(2, organiser=organisers[0])
    client.force_login(organisers[0])
    page = client.get(reverse("admin:ladders_ladder_entrants", args=[ladder.pk]))
    for form in ("add", "reorder", "remove", "away"):
        assert page.text.count(f'name="form" value="{form}"') == 1, form
