"""What the ladder pages and the eligibility rules cost in queries: a fixed number, however
many players are in reach or rows are listed."""

from datetime import timedelta
from functools import partial

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from ladders import challenges, matches, membership
from ladders.models import Entrant
from tests.factories import make_user


def queries(fetch):
    with CaptureQueriesContext(connection) as captured:
        fetch()
    return len(captured)


def test_eligible_defenders_fetches_the_facts_once_for_everyone_in_reach(make_ladder, django_assert_max_num_queries):
    ladder, (a, b, c, d, e, f, g, h) = make_ladder(
        8, challenge_range=7, rematch_days=14, match_length=1, max_open_challenges=2
    )
    defended = challenges.start_match(h, g, actor=None)
    matches.forfeit_game(defended.games.get(), h, reason="no show", actor=None)  # G defends: no move
    challenges.challenge(f, e, actor=None)
    challenges.start_match(f, c, actor=None)  # F: two commitments, C and E one each
    membership.set_away(b, timezone.localdate() + timedelta(days=3), actor=None)
    challenges.challenge(h, d, actor=None)  # H: one commitment
    me = Entrant.objects.select_related("ladder", "player").get(pk=h.pk)
    away = Entrant.objects.get(pk=b.pk).away_until
    assert [x.position for x in (a, b, c, d, e, f, g)] == [1, 2, 3, 4, 5, 6, 7]

    with django_assert_max_num_queries(3):  # those in reach, open challenges, matches
        eligible = challenges.eligible_defenders(me)
    assert [str(x) for x in eligible] == ["A", "C", "E"]
    # The same rules, one defender at a time.
    problems = {str(x): challenges.challenge_problem(me, Entrant.objects.get(pk=x.pk)) for x in (a, b, c, d, e, f, g)}
    assert problems == {
        "A": None,
        "C": None,
        "E": None,
        "B": f"B is on vacation until {away:%d %b}.",
        "D": "You two already have a challenge or match under way.",
        "F": "F already has 2 open challenges or matches.",
        "G": "You two met within the last 14 days.",
    }
    # A second commitment: H may challenge nobody.
    challenges.challenge(h, a, actor=None)
    with django_assert_max_num_queries(3):
        assert challenges.eligible_defenders(me) == []
    assert challenges.challenge_problem(me, c) == "H already has 2 open challenges or matches."


def test_the_ladder_page_costs_the_same_however_many_are_in_reach(client, make_ladder, django_assert_max_num_queries):
    small, (_, last) = make_ladder(2, rematch_days=14)
    big, entrants = make_ladder(10, challenge_range=9, rematch_days=14)
    client.force_login(last.player)
    client.get(small.get_absolute_url())  # the session and user are warm
    baseline = queries(lambda: client.get(small.get_absolute_url()))
    client.force_login(entrants[-1].player)
    client.get(big.get_absolute_url())
    with django_assert_max_num_queries(baseline):
        page = client.get(big.get_absolute_url())
    assert page.text.count(">Challenge</button>") == 9


@pytest.fixture
def superuser(db):
    return make_user(is_staff=True, is_superuser=True)


def test_the_ladder_list_costs_the_same_however_many_ladders(
    client, make_ladder, superuser, django_assert_max_num_queries
):
    make_ladder(3)
    client.force_login(superuser)
    url = reverse("admin:ladders_ladder_changelist")
    baseline = queries(lambda: client.get(url))
    for n in (2, 4, 5):
        make_ladder(n)
    with django_assert_max_num_queries(baseline):
        page = client.get(url)
    assert [int(x) for x in page.context["cl"].result_list.values_list("active_entrants", flat=True)] == [3, 2, 4, 5]
    assert page.text.count('<td class="field-entrant_count">') == 4


def test_the_match_list_costs_the_same_however_many_matches(
    client, make_ladder, superuser, django_assert_max_num_queries
):
    ladder, (a, b, c, d, e, f) = make_ladder(6)
    challenges.start_match(b, a, actor=None)
    client.force_login(superuser)
    url = reverse("admin:ladders_match_changelist")
    baseline = queries(lambda: client.get(url))
    challenges.start_match(d, c, actor=None)
    challenges.start_match(f, e, actor=None)
    with django_assert_max_num_queries(baseline):
        page = client.get(url)
    assert page.text.count('<td class="field-move_due_by nowrap">') == 3


def test_a_match_page_costs_the_same_however_many_games(client, make_ladder, superuser, django_assert_max_num_queries):
    ladder, (a, b) = make_ladder(2, match_length=3)
    match = challenges.start_match(b, a, actor=None)
    client.force_login(superuser)
    url = reverse("admin:ladders_match_change", args=[match.pk])
    baseline = queries(lambda: client.get(url))
    for number in (1, 2):
        matches.forfeit_game(match.games.get(number=number), a, reason="no show", actor=None)
    with django_assert_max_num_queries(baseline):
        page = client.get(url)
    assert page.text.count('<td class="field-deadline">') == 3


def test_the_ladder_and_season_pages_cost_the_same_with_1_10_and_100_entrants(client, make_ladder):
    from ladders import seasons

    counted = {}
    for n in (1, 10, 100):
        ladder, entrants = make_ladder(n, match_length=1)
        for k in range(n // 2):  # every other entrant played a finished match, the defender forfeiting
            match = challenges.start_match(entrants[2 * k + 1], entrants[2 * k], actor=None)
            matches.forfeit_game(match.games.get(), entrants[2 * k], reason="no show", actor=None)
        url, season = ladder.get_absolute_url(), reverse("ladders:season", args=[ladder.slug, 1])
        client.force_login(entrants[-1].player)
        client.get(url)  # the session and user are warm
        mine = queries(partial(client.get, url))
        client.logout()
        anyone = queries(partial(client.get, url))
        seasons.close_season(ladder, actor=None)
        closed = queries(partial(client.get, season))
        page = client.get(season)
        assert page.status_code == 200 and page.text.count("<tr") == n + 1
        counted[n] = (mine, anyone, closed)
    # An entrant's view (their challenges and matches, whom they may challenge), anyone's, a closed season's.
    assert counted[10] == counted[100] == (18, 7, 2), counted
    assert all(a <= b for a, b in zip(counted[1], counted[10], strict=True)), counted
