"""The organisers' admin, driven through its pages with the test client."""

import csv
import io
from datetime import timedelta

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.admin.models import LogEntry
from django.contrib.admin.utils import display_for_value
from django.core import mail
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from ladders import challenges, matches, selectors, services
from ladders.models import Challenge, Match, Season
from tests.factories import admin_form_data, make_user


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
    response = client.post(
        reverse("admin:ladders_ladder_changelist"), {"action": "export_standings", ACTION_CHECKBOX_NAME: [b.pk]}
    )
    assert response.status_code == 403
    # Ladder B's matches are refused too.
    match = challenges.start_match(b_entrants[2], b_entrants[1], actor=None)
    assert client.get(reverse("admin:ladders_match_change", args=[match.pk])).status_code == 403
    response = client.post(
        reverse("admin:ladders_match_changelist"),
        {"action": "undo_result", ACTION_CHECKBOX_NAME: [match.pk], "apply": "1", "reason": "mine now"},
    )
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
    assert [e.player.email for e in a.entrants.order_by("position")][-2:] == ["known@example.com", "new@example.com"]
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
    client.post(
        reverse("admin:ladders_ladder_on_behalf", args=[a.pk]),
        {"challenger": p4.pk, "defender": p2.pk, "start_now": "on"},
    )
    match = Match.objects.get(ladder=a)
    assert match.challenge.created_by == organisers[0] and match.games.count() == 1
    listing = client.get(reverse("admin:ladders_match_changelist"))
    assert "move due by" in listing.text.lower()
    changelist = reverse("admin:ladders_match_changelist")
    form = client.post(changelist, {"action": "record_forfeit", ACTION_CHECKBOX_NAME: [match.pk]})
    assert form.status_code == 200 and "Who forfeits" in form.text
    for _ in range(2):  # match to 2, forfeit worth 1: two forfeits by the defender
        client.post(
            changelist,
            {
                "action": "record_forfeit",
                ACTION_CHECKBOX_NAME: [match.pk],
                "apply": "1",
                "loser": "defender",
                "reason": "abandoned",
            },
        )
    match.refresh_from_db()
    assert (match.status, match.winner) == (Match.Status.FINISHED, p4)
    assert [e.player_id for e in a.entrants.order_by("position")] == [
        p1.player_id,
        p4.player_id,
        p2.player_id,
        p3.player_id,
    ]
    forfeit = match.games.first().game.events.get(kind="forfeit")
    assert forfeit.actor == organisers[0] and forfeit.data["reason"] == "abandoned"
    client.post(
        changelist,
        {"action": "undo_result", ACTION_CHECKBOX_NAME: [match.pk], "apply": "1", "reason": "wrong player recorded"},
    )
    match.refresh_from_db()
    assert match.status == Match.Status.VOID
    assert [e.player_id for e in a.entrants.order_by("position")] == [
        p1.player_id,
        p2.player_id,
        p3.player_id,
        p4.player_id,
    ]
    undo = a.history.get(kind="undo")
    assert undo.actor == organisers[0] and undo.undoes.kind == "result"


def test_challenges_accepted_for_the_defender_through_the_admin(client, organisers, two_ladders):
    (a, (p1, p2, p3, p4)), _ = two_ladders
    login(client, organisers[0])
    client.post(reverse("admin:ladders_ladder_on_behalf", args=[a.pk]), {"challenger": p3.pk, "defender": p1.pk})
    item = Challenge.objects.get(ladder=a)
    assert "respond by" in client.get(reverse("admin:ladders_challenge_changelist")).text.lower()
    client.post(
        reverse("admin:ladders_challenge_changelist"),
        {"action": "accept_for_defender", ACTION_CHECKBOX_NAME: [item.pk]},
    )
    item.refresh_from_db()
    assert item.status == Challenge.Status.ACCEPTED and item.match.games.count() == 1


def test_export_and_close_season_through_the_admin(client, organisers, two_ladders):
    (a, (p1, p2, p3, p4)), _ = two_ladders
    login(client, organisers[0])
    match = challenges.start_match(p4, p3, actor=None)
    matches.forfeit_game(match.games.get(), p3, reason="gone", actor=None)
    changelist = reverse("admin:ladders_ladder_changelist")
    response = client.post(changelist, {"action": "export_standings", ACTION_CHECKBOX_NAME: [a.pk]})
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:3] == ["Position", "Player", "Matches"]
    assert [r[1] for r in rows[1:]] == [str(p.player) for p in (p1, p2, p3, p4)]
    assert rows[4][4:7] == ["1", "1", "1"]  # the last row: one game, one win, one game point (a forfeit)
    page = client.post(changelist, {"action": "close_season", ACTION_CHECKBOX_NAME: [a.pk]})
    assert "Reseed" in page.text
    client.post(changelist, {"action": "close_season", ACTION_CHECKBOX_NAME: [a.pk], "apply": "1", "reseed": "table"})
    a.refresh_from_db()
    frozen = Season.objects.get(ladder=a, number=1)
    assert a.season == 2 and frozen.closed_by == organisers[0]
    assert [r["player"] for r in frozen.standings][3] == str(p4.player)
    assert a.entrants.get(pk=p4.pk).position == 1  # reseeded by the table: the only game point
    assert all(r["games"] == 0 for r in selectors.standings(a))  # the new season starts empty
    assert client.get(reverse("ladders:season", args=[a.slug, 1])).status_code == 200


# --- Refused requests: the organiser is told why and nothing changes -----------------------


def messages_of(response):
    """The messages shown on the page (level, text); each must be on the page as rendered."""
    shown = [(m.level_tag, m.message) for m in response.context["messages"]]
    for _, text in shown:
        assert escape(text) in response.text
    return shown


@pytest.mark.parametrize(
    "lines, message",
    [
        (
            lambda a, b: a + ["Stranger@Example.com", "other@example.com"],
            "Not on this ladder: stranger@example.com, other@example.com.",
        ),
        (
            lambda a, b: a[:2] + [b[0]] + a[2:],  # someone on the other ladder
            "Not on this ladder: {b0}.",
        ),
        (lambda a, b: a[:-1], "The new order must list every entrant on the ladder exactly once."),
        (lambda a, b: a + [a[0]], "The new order must list every entrant on the ladder exactly once."),
    ],
    ids=["unknown", "other ladder", "someone missing", "someone twice"],
)
def test_a_bad_new_order_is_refused(client, organisers, two_ladders, ladder_state, lines, message):
    (a, a_entrants), (b, b_entrants) = two_ladders
    emails = [e.player.email for e in reversed(a_entrants)]
    others = [e.player.email for e in b_entrants]
    before = ladder_state(a)
    login(client, organisers[0])
    response = client.post(
        reverse("admin:ladders_ladder_entrants", args=[a.pk]),
        {"form": "reorder", "reorder-order": "\n".join(lines(emails, others))},
    )
    assert response.status_code == 200
    assert messages_of(response) == [("error", message.format(b0=others[0]))]
    assert ladder_state(a) == before


def test_exporting_two_ladders_at_once_is_refused(client, organisers, make_ladder, ladder_state):
    first = make_ladder(2, organiser=organisers[0])[0]
    second = make_ladder(2, organiser=organisers[0])[0]
    before = ladder_state(first), ladder_state(second)
    login(client, organisers[0])
    response = client.post(
        reverse("admin:ladders_ladder_changelist"),
        {"action": "export_standings", ACTION_CHECKBOX_NAME: [first.pk, second.pk]},
        follow=True,
    )
    assert response.redirect_chain == [(reverse("admin:ladders_ladder_changelist"), 302)]
    assert response["Content-Type"].startswith("text/html")  # the list again, no CSV
    assert messages_of(response) == [("error", "Choose one ladder to export.")]
    assert (ladder_state(first), ladder_state(second)) == before


def forfeit_form(match_ids, **fields):
    return {
        "action": "record_forfeit",
        ACTION_CHECKBOX_NAME: match_ids,
        "apply": "1",
        "loser": "defender",
        "reason": "abandoned",
        **fields,
    }


def test_a_forfeit_for_two_matches_at_once_is_refused(client, organisers, two_ladders, ladder_state):
    (a, (p1, p2, p3, p4)), _ = two_ladders
    first = challenges.start_match(p2, p1, actor=None)
    second = challenges.start_match(p4, p3, actor=None)
    before = ladder_state(a)
    login(client, organisers[0])
    response = client.post(reverse("admin:ladders_match_changelist"), forfeit_form([first.pk, second.pk]), follow=True)
    assert messages_of(response) == [("error", "Choose one match.")]
    assert ladder_state(a) == before


@pytest.mark.parametrize("status", ["finished", "void"])
def test_a_forfeit_in_a_match_with_no_game_in_play_is_refused(client, organisers, make_ladder, ladder_state, status):
    ladder, (p1, p2) = make_ladder(2, organiser=organisers[0], match_length=1)
    match = challenges.start_match(p2, p1, actor=None)
    matches.forfeit_game(match.games.get(), p1, reason="no show", actor=None)
    if status == "void":
        matches.undo_result(match, actor=None, reason="wrong player")
    match.refresh_from_db()
    assert match.status == status
    before = ladder_state(ladder)
    login(client, organisers[0])
    response = client.post(reverse("admin:ladders_match_changelist"), forfeit_form([match.pk]), follow=True)
    assert messages_of(response) == [("error", "This match has no game in play.")]
    assert ladder_state(ladder) == before


@pytest.mark.parametrize("reason", ["", "   "])
def test_a_forfeit_without_a_reason_is_refused(client, organisers, two_ladders, ladder_state, reason):
    (a, (p1, p2, p3, p4)), _ = two_ladders
    match = challenges.start_match(p2, p1, actor=None)
    before = ladder_state(a)
    login(client, organisers[0])
    response = client.post(reverse("admin:ladders_match_changelist"), forfeit_form([match.pk], reason=reason))
    # The form asks again (the service's own "Give a reason for the forfeit." is behind it).
    assert response.status_code == 200 and "Who forfeits" in response.text
    assert response.context["form"].errors == {"reason": ["This field is required."]}
    assert list(response.context["messages"]) == []
    assert ladder_state(a) == before


def test_the_forfeit_service_wants_a_reason_too(two_ladders, ladder_state, organisers):
    (a, (p1, p2, p3, p4)), _ = two_ladders
    match = challenges.start_match(p2, p1, actor=None)
    before = ladder_state(a)
    with pytest.raises(services.LadderError) as refused:
        matches.forfeit_game(match.games.get(), p1, reason="  ", actor=organisers[0])
    assert refused.value.message == "Give a reason for the forfeit."
    assert ladder_state(a) == before


@pytest.mark.parametrize("status", ["playing", "void"])
def test_only_a_finished_result_can_be_undone(client, organisers, make_ladder, ladder_state, status):
    ladder, (p1, p2, p3) = make_ladder(3, organiser=organisers[0], match_length=1)
    match = challenges.start_match(p3, p1, actor=None)
    if status == "void":
        matches.forfeit_game(match.games.get(), p1, reason="no show", actor=None)
        matches.undo_result(match, actor=None, reason="wrong player")
    before = ladder_state(ladder)
    login(client, organisers[0])
    response = client.post(
        reverse("admin:ladders_match_changelist"),
        {"action": "undo_result", ACTION_CHECKBOX_NAME: [match.pk], "apply": "1", "reason": "typo"},
        follow=True,
    )
    assert messages_of(response) == [
        ("error", f"{p3.player.display_name} v {p1.player.display_name}: Only a finished match's result can be undone.")
    ]
    assert ladder_state(ladder) == before
    match.refresh_from_db()
    assert match.status == status


# --- The match page -------------------------------------------------------------------------


def test_an_organiser_sees_the_games_of_a_match_linked_to_their_public_pages(client, organisers, two_ladders):
    (a, (p1, p2, p3, p4)), _ = two_ladders
    match = challenges.start_match(p3, p1, actor=None)
    matches.forfeit_game(match.games.get(), p1, reason="no show", actor=None)
    first, second = (lg.game for lg in match.games.order_by("number"))
    due = second.seats.filter(to_act=True).order_by("deadline").first().deadline
    login(client, organisers[0])
    page = client.get(reverse("admin:ladders_match_change", args=[match.pk]))
    assert page.status_code == 200
    for game in (first, second):
        assert f'<a href="{game.get_absolute_url()}">{game.pk}</a>' in page.text
    # Never the game admin, which shows the players' hidden cards.
    assert reverse("admin:games_game_changelist") not in page.text
    assert f"{due:%Y-%m-%d %H:%M}" in page.text  # the move due by in the current game's row
    listing = client.get(reverse("admin:ladders_match_changelist"))
    assert display_for_value(due, "") in listing.text


def test_an_organiser_sees_the_entrants_on_the_ladder_page(client, organisers, two_ladders):
    (a, entrants), _ = two_ladders
    login(client, organisers[0])
    page = client.get(reverse("admin:ladders_ladder_change", args=[a.pk]))
    assert page.text.count('<td class="field-player">') == len(entrants)


def test_an_organiser_changes_the_rules_with_the_entrants_shown_below(client, organisers, two_ladders):
    (a, entrants), _ = two_ladders
    login(client, organisers[0])
    url = reverse("admin:ladders_ladder_change", args=[a.pk])
    data = admin_form_data(client.get(url), days_per_move=5)  # the entrants below are read-only
    response = client.post(url, data)
    assert response.status_code == 302
    a.refresh_from_db()
    assert a.days_per_move == 5 and a.entrants.filter(active=True).count() == len(entrants)
    assert a.history.get(kind="settings").text == f"{organisers[0]} changed the rules: days_per_move"


def test_an_organiser_never_sees_another_ladders_name_in_the_admin(client, organisers, make_ladder):
    a, a_entrants = make_ladder(4, organiser=organisers[0], slug="alpha-club")
    b, b_entrants = make_ladder(4, organiser=organisers[1], slug="bravo-secret")
    c, c_entrants = make_ladder(4, organiser=organisers[0], slug="charlie-club")
    superuser = make_user(is_staff=True, is_superuser=True)
    for entrants in (a_entrants, b_entrants, c_entrants):  # a challenge, a match and history on each ladder
        challenges.challenge(entrants[3], entrants[2], actor=None)
        challenges.start_match(entrants[1], entrants[0], actor=None)
    pages = [reverse("admin:index"), reverse("admin:app_list", args=["ladders"])]
    for model in ("ladder", "challenge", "match", "ladderhistory", "season"):
        changelist = reverse(f"admin:ladders_{model}_changelist")
        pages += [changelist, f"{changelist}?ladder__id__exact={b.pk}", f"{changelist}?ladder__id__exact={a.pk}"]
    pages += [
        reverse("admin:ladders_ladder_change", args=[a.pk]),
        reverse("admin:ladders_ladder_entrants", args=[a.pk]),
        reverse("admin:ladders_ladder_on_behalf", args=[a.pk]),
        reverse("admin:ladders_match_change", args=[a.matches.get().pk]),
        reverse("admin:ladders_challenge_change", args=[a.challenges.first().pk]),
    ]
    login(client, superuser)
    seen = client.get(reverse("admin:ladders_match_changelist")).text
    assert "Alpha-Club" in seen and "Bravo-Secret" in seen  # the names do show where they may
    login(client, organisers[0])
    for page in pages:
        response = client.get(page)
        assert response.status_code in (200, 302), page
        assert "Bravo-Secret" not in response.text and "bravo-secret" not in response.text, page
    match_list = client.get(reverse("admin:ladders_match_changelist")).text
    assert f"ladder__id__exact={a.pk}" in match_list and f"ladder__id__exact={c.pk}" in match_list
    assert f"ladder__id__exact={b.pk}" not in match_list  # the filter offers the organiser's own ladders


def test_an_organiser_marks_an_entrant_away_and_back(client, organisers, two_ladders):
    (a, entrants), (b, others) = two_ladders
    login(client, organisers[0])
    url = reverse("admin:ladders_ladder_entrants", args=[a.pk])
    until = timezone.localdate() + timedelta(days=5)
    page = client.post(
        url, {"form": "away", "away-entrant": entrants[1].pk, "away-until": until.isoformat()}, follow=True
    )
    entrants[1].refresh_from_db()
    assert entrants[1].away_until == until and entrants[1].away_days_used == 5
    assert f"{entrants[1]} is away until {until}." in page.text
    past = client.post(
        url, {"form": "away", "away-entrant": entrants[1].pk, "away-until": timezone.localdate().isoformat()}
    )
    assert "A vacation ends after today." in past.text
    elsewhere = client.post(url, {"form": "away", "away-entrant": others[0].pk, "away-until": until.isoformat()})
    assert elsewhere.status_code == 200 and "Select a valid choice" in elsewhere.text  # not this ladder's
    others[0].refresh_from_db()
    assert others[0].away_until is None
    client.post(url, {"form": "away", "away-entrant": entrants[1].pk, "away-until": ""})
    entrants[1].refresh_from_db()
    assert entrants[1].away_until is None
    assert sorted(a.history.filter(kind="vacation").values_list("text", flat=True)) == [
        f"{entrants[1]} is away until {until:%d %b %Y}",
        f"{entrants[1]} is back",
    ]
