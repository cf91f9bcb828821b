"""A new organiser runs an ACC club night in the admin, in Chromium, every page reached by a click:
creates the season, adds four members by address, starts the season, opens a night, enters nine
games for a player, closes the night and reads the season's table. Each page is saved at 1366 and
390 px wide to var/screenshots/ (or SCREENSHOTS_DIR) as club-night-<step>-<width>.png."""

import re

import pytest
from django.contrib.auth.models import Permission

from tests.browser.fit import logged_in, misfits
from tests.browser.test_table_screens import screenshots
from tests.factories import make_user
from tournaments.models import Award, ClubNight, NightGame, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _saved(tab, step, problems):
    """The page at both widths: saved, and measured (nothing wider than the screen)."""
    for width in (1366, 390):
        problems += misfits(tab, step, width)
        tab.screenshot(path=str(screenshots() / f"club-night-{step}-{width}.png"), full_page=True)
    tab.set_viewport_size({"width": 1366, "height": 844})


def test_a_new_organiser_runs_a_club_night_from_the_admin_by_clicking(live_server, browser):
    organiser = make_user("olive@example.com", "Olive", is_staff=True)
    organiser.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    members = [make_user(f"{name.lower()}@example.com", name, notify="none") for name in ("Ann", "Bob", "Cy", "Di")]
    tab = logged_in(browser, live_server.url, organiser)
    tab.set_viewport_size({"width": 1366, "height": 844})
    problems = []

    tab.goto(live_server.url + "/admin/")
    _saved(tab, "1-admin-index", problems)
    tab.click(".your-events a:text('a club night')")
    assert tab.input_value("#id_kind") == "club_night"
    tab.fill("#id_name", "Tuesday club")
    _saved(tab, "2-add-season", problems)
    tab.click("input[name=_save]")  # to the season's own page: its state and next step
    season = Tournament.objects.get(name="Tuesday club")
    assert season.kind == Tournament.Kind.CLUB_NIGHT and season.is_organiser(organiser)
    assert season.scoring == Tournament.Scoring.ACC and tab.locator("#id_legs, #id_scoring").count() == 0
    tab.wait_for_selector("text=A club night season starts with two entrants or more")
    _saved(tab, "3-season-saved", problems)

    tab.fill("#id_add-emails", "\n".join(m.email for m in members))
    tab.click("button:text('Add these entrants')")
    tab.wait_for_selector("text=Taking entries: 4 entered")
    assert season.entrants.count() == 4
    _saved(tab, "4-entrants-added", problems)
    tab.click("button:text('Start the season')")
    tab.wait_for_selector("text=Under way: 0 nights played")
    season.refresh_from_db()
    assert season.status == Tournament.Status.RUNNING
    _saved(tab, "5-season-started", problems)

    tab.click("button:text('Open a night')")
    tab.wait_for_selector("text=Under way: night 1 open")
    night = ClubNight.objects.get(tournament=season)
    tab.click("text=Enter the games of night 1")
    assert tab.url.endswith(f"/nights/{night.pk}/")
    _saved(tab, "6-night-opened", problems)

    ann, bob, cy, di = season.entrants.order_by("entered_at", "pk")
    opponents = [bob, cy, di] * 3
    for row, opponent in enumerate(opponents):
        tab.select_option(f"#id_games-{row}-first", str(ann.pk))
        tab.fill(f"#id_games-{row}-first_score", "121")
        tab.select_option(f"#id_games-{row}-second", str(opponent.pk))
        tab.fill(f"#id_games-{row}-second_score", "80" if row == 0 else "100")
    _saved(tab, "7-nine-games-filled", problems)
    tab.click("input[value='Enter these games']")
    assert night.games.filter(status=NightGame.Status.COUNTED).count() == 9
    tab.wait_for_selector("text=Entered 9 game(s) of night 1.")
    _saved(tab, "8-games-entered", problems)

    tab.click("input[value='Close night 1']")
    tab.wait_for_selector("text=Closed night 1")
    night.refresh_from_db()
    assert night.status == ClubNight.Status.CLOSED
    assert Award.objects.filter(kind=Award.Kind.GRAND_SLAM, entrant=ann).exists()
    _saved(tab, "9-night-closed", problems)

    tab.click("text=Back to the season")
    tab.wait_for_selector("text=The season's table")
    table = tab.inner_text("#content table")
    # Ann: eight wins and a skunk, 19 game points: 69 Grass Roots Points.
    assert re.search(r"1\s+Ann\s+69\s+19\s+1\s+9\s+9\s+0", table), table
    _saved(tab, "10-season-table", problems)

    # The season's public page, as Ann sees it: the table and the night, and her Grand Slam on her page.
    page = logged_in(browser, live_server.url, members[0])
    page.goto(live_server.url + season.get_absolute_url())
    page.wait_for_selector("text=Night 1, ")
    _saved(page, "11-public-season", problems)
    page.click("th.player a:text('Ann')")
    page.wait_for_selector("text=Club night awards")
    _saved(page, "12-player-page-awards", problems)
    assert problems == []
