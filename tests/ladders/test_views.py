import csv
import io

import pytest
from django.urls import reverse
from django.utils.html import escape

from ladders import challenges, matches
from ladders.models import Challenge
from tests.factories import make_user


def messages_of(response):
    """The messages shown on the page (level, text); each must be on the page as rendered."""
    shown = [(m.level_tag, m.message) for m in response.context["messages"]]
    for _, text in shown:
        assert escape(text) in response.text
    return shown


def test_the_page_shows_the_rules_and_lets_a_player_join_and_challenge(client, make_ladder):
    ladder, (a, b, c) = make_ladder(3, challenge_range=1, match_length=3, scoring="acc")
    page = client.get(ladder.get_absolute_url())
    assert "up to 1 place above you" in page.text and "first player with 3 game points" in page.text
    newcomer = make_user()
    client.force_login(newcomer)
    client.post(reverse("ladders:join", args=[ladder.slug]))
    me = ladder.entrants.get(player=newcomer)
    assert me.position == 4
    page = client.get(ladder.get_absolute_url())
    assert page.text.count(">Challenge</button>") == 1  # only C, one place above
    bad = client.post(reverse("ladders:challenge", args=[ladder.slug]), {"defender": a.pk}, follow=True)
    assert messages_of(bad) == [("error", "You may challenge at most 1 place above you.")]
    assert not Challenge.objects.exists()
    client.post(reverse("ladders:challenge", args=[ladder.slug]), {"defender": c.pk})
    item = Challenge.objects.get()
    client.force_login(c.player)
    client.post(reverse("ladders:accept", args=[ladder.slug, item.pk]))
    item.refresh_from_db()
    assert item.status == Challenge.Status.ACCEPTED
    page = client.get(ladder.get_absolute_url())
    assert "game 1" in page.text


def test_csv_export_lists_the_standings(client, make_ladder):
    ladder, (a, b) = make_ladder(2, match_length=1)
    match = challenges.start_match(b, a, actor=None)
    matches.forfeit_game(match.games.get(), a, reason="no show", actor=None)
    rows = list(
        csv.reader(io.StringIO(client.get(reverse("ladders:standings_csv", args=[ladder.slug])).content.decode()))
    )
    assert [r[:4] for r in rows[1:]] == [["1", str(b.player), "1", "1"], ["2", str(a.player), "1", "0"]]


# --- Refused requests: the player is told why and nothing changes ------------------------


@pytest.mark.parametrize("defender", ["", "abc", "another ladder"])
def test_a_challenge_to_nobody_on_this_ladder_is_refused(
    client, make_ladder, ladder_state, defender, django_capture_on_commit_callbacks
):
    ladder, (a, b, c) = make_ladder(3)
    other, (x, y) = make_ladder(2)
    if defender == "another ladder":
        defender = x.pk  # on the other ladder, in reach by position
    before, other_before = ladder_state(ladder), ladder_state(other)
    client.force_login(c.player)
    with django_capture_on_commit_callbacks() as notices:
        response = client.post(reverse("ladders:challenge", args=[ladder.slug]), {"defender": defender}, follow=True)
    assert notices == []
    assert response.redirect_chain == [(ladder.get_absolute_url(), 302)]
    assert messages_of(response) == [("error", "Choose a player on this ladder to challenge.")]
    assert ladder_state(ladder) == before and ladder_state(other) == other_before


def test_joining_a_ladder_twice_is_refused(client, make_ladder, ladder_state, django_capture_on_commit_callbacks):
    ladder, (a, b) = make_ladder(2)
    client.force_login(b.player)
    before = ladder_state(ladder)
    with django_capture_on_commit_callbacks() as notices:
        response = client.post(reverse("ladders:join", args=[ladder.slug]), follow=True)
    assert notices == []
    assert messages_of(response) == [("error", f"{b.player.display_name} is already on this ladder.")]
    assert ladder_state(ladder) == before


@pytest.mark.parametrize("answer", ["withdrawn", "accepted"])
def test_only_an_open_challenge_can_be_withdrawn(
    client, make_ladder, ladder_state, answer, django_capture_on_commit_callbacks
):
    ladder, (a, b, c) = make_ladder(3)
    item = challenges.challenge(c, a, actor=c.player)
    if answer == "withdrawn":
        challenges.withdraw(item, actor=c.player)
    else:
        challenges.accept(item, actor=a.player)
    before = ladder_state(ladder)
    client.force_login(c.player)
    with django_capture_on_commit_callbacks() as notices:
        response = client.post(reverse("ladders:withdraw", args=[ladder.slug, item.pk]), follow=True)
    assert notices == []
    assert messages_of(response) == [("error", "Only an open challenge can be withdrawn.")]
    assert ladder_state(ladder) == before
    item.refresh_from_db()
    assert item.status == answer


@pytest.mark.parametrize(
    "limit, words",
    [(1, "At most 1 open challenge or match at once"), (3, "At most 3 open challenges or matches at once")],
)
def test_the_rules_count_in_good_english(client, make_ladder, limit, words):
    ladder, _ = make_ladder(n=2, max_open_challenges=limit, challenge_range=limit)
    page = client.get(reverse("ladders:detail", args=[ladder.slug])).content.decode()
    assert words in page
    assert f"up to {limit} place{'s' if limit > 1 else ''} above you" in page


@pytest.mark.parametrize("name", ['=HYPERLINK("http://evil.example","x")', "+1+1", "-2+3", "@SUM(A1)", "\tTab", "\rCR"])
def test_a_display_name_that_a_spreadsheet_would_run_is_text_in_the_csv(client, make_ladder, name):
    ladder, (a, b) = make_ladder(2)
    a.player.display_name = name
    a.player.save(update_fields=["display_name"])
    rows = list(
        csv.reader(io.StringIO(client.get(reverse("ladders:standings_csv", args=[ladder.slug])).content.decode()))
    )
    assert rows[1][1] == "'" + name and rows[2][1] == str(b.player)
