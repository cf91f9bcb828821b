"""A new club organiser runs a league in the admin with nothing but its pages, in Chromium: creates
it, adds four entrants by address on the league's own page, starts it there and finds round 1
under way, then follows the league to its page on the site and a game of round 1. One address is
typed (the admin's), every other page is reached by a click, and no bulk action is used.

Each step is saved at 1366 and 390 px to var/screenshots/organiser-<n>-<step>-<width>.png (or
SCREENSHOTS_DIR) for a person to look at."""

import pytest
from django.contrib.auth.models import Permission

from tests.browser.fit import MEASURE
from tests.browser.test_table_screens import screenshots
from tests.factories import make_user
from tournaments.models import Round, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-Long-secret-42"


def test_a_new_organiser_runs_a_league_by_clicking(live_server, browser):
    olive = make_user("olive@example.com", "Olive", password=PASSWORD, is_staff=True)
    olive.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    players = [make_user(f"{name.lower()}@example.com", name) for name in ("Alice", "Bob", "Carol", "Dave")]
    tab = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    folder, steps = screenshots(), []
    typed = []  # every address typed into the browser: only the admin's
    posted = []  # every form sent: none to a list of events (where the bulk actions are)
    tab.on("request", lambda r: r.method == "POST" and posted.append(r.url.removeprefix(live_server.url)))

    def step(name):
        """The page as it stands, at both widths; the page never scrolls sideways."""
        for width in (1366, 390):
            tab.set_viewport_size({"width": width, "height": 900})
            measured = tab.evaluate(MEASURE)
            assert measured["scrollWidth"] <= measured["width"], f"{name} at {width}px: {measured['culprits']}"
            tab.screenshot(path=str(folder / f"organiser-{len(steps) + 1}-{name}-{width}.png"), full_page=True)
        tab.set_viewport_size({"width": 1366, "height": 900})
        steps.append(name)

    def click(target):
        with tab.expect_navigation():
            tab.click(target)

    typed.append(live_server.url + "/admin/")
    tab.goto(typed[-1])
    step("login")
    tab.fill("#id_username", olive.email)
    tab.fill("#id_password", PASSWORD)
    click("input[type=submit]")
    assert "You run no event yet." in tab.inner_text(".your-events")
    step("index")

    click(".your-events >> text=a league")  # "Start one: a league · a knockout · ..."
    assert tab.input_value("#id_kind") == "league"
    tab.fill("#id_name", "Winter League")
    tab.uncheck("#id_all_rounds_at_start")  # a round at a time, as clubs play
    step("new-league")
    click("input[name=_save]")
    league = Tournament.objects.get(name="Winter League")
    assert tab.inner_text("#event-state") == "Taking entries: 0 entered"
    step("league-saved")

    tab.fill("textarea[name=add-emails]", "\n".join(p.email for p in players))
    click("text=Add these entrants")
    assert tab.inner_text("#event-state") == "Taking entries: 4 entered"
    assert "Entered 4 player(s)" in tab.inner_text(".messagelist")
    step("entrants-added")

    click("button:has-text('Start the league')")
    assert tab.inner_text("#event-state") == "Under way: round 1 being played"
    assert tab.is_visible("button:has-text('Open round 2')")
    step("league-started")
    league.refresh_from_db()
    assert league.status == Tournament.Status.RUNNING
    assert list(league.rounds.values_list("number", "status")) == [
        (1, Round.Status.OPEN),
        (2, Round.Status.SCHEDULED),
        (3, Round.Status.SCHEDULED),
    ]
    assert league.rounds.get(number=1).pairings.filter(games__isnull=False).count() == 2

    click(".event-pages >> text=The league's page on the site")
    step("league-page")
    # The standings fit the page on a desktop: nothing scrolled out of sight at the right.
    scroller = tab.eval_on_selector(
        ".event-standings", "t => [t.parentElement.scrollWidth, t.parentElement.clientWidth]"
    )
    assert scroller[0] <= scroller[1], scroller
    first = tab.locator("a[title='Round 1, table 1 · game 1']")
    assert first.inner_text() == "game 1"
    click("a[title='Round 1, table 1 · game 1']")
    assert tab.inner_text("h1").startswith("Round 1, table 1 · game 1: ")
    assert tab.title().startswith("Round 1, table 1 · game 1, Winter League")
    step("game-of-round-1")

    # No bulk action was used: no list of events was ever posted to; one address typed.
    assert typed == [live_server.url + "/admin/"]
    act = f"/admin/tournaments/tournament/{league.pk}/act/"
    assert posted == ["/admin/login/?next=/admin/", "/admin/tournaments/tournament/add/?kind=league", act, act]
    assert steps == [
        "login",
        "index",
        "new-league",
        "league-saved",
        "entrants-added",
        "league-started",
        "league-page",
        "game-of-round-1",
    ]
