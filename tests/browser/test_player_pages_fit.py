"""The player page (with its rating chart), the club-night form and a game from the table fit a
phone (390 px) and a desktop (1366 px), measured as every other page is (test_every_page_fits);
screenshots in test-artifacts/players-<page>-<width>.png."""

import pytest
from django.urls import reverse

from games import lifecycle, table_results
from ladders import membership, seasons
from ladders.models import Ladder
from tests.browser.fit import WIDTHS, logged_in, misfits
from tests.factories import committed, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_player_pages_fit_a_phone_and_a_desktop(live_server, browser, artifacts, console_errors):
    organiser = make_user("olive@example.com", "Olive the organiser", is_staff=True)
    names = ["Alice with a rather long name", "Bob", "Carol", "Dave"]
    a, b, c, d = (make_user(display_name=name, notify="none") for name in names)
    with committed():
        for n in range(8):
            table_results.record_table_result([a, b], [121, 80 + 5 * n], entered_by=organiser)
            table_results.record_table_result([a, b, c], [100, 121, 60 + n], entered_by=organiser, variant="three")
            table_results.record_table_result(
                [a, b, c, d], [121 - 30 * (n % 2), 121 - 30 * ((n + 1) % 2)], entered_by=organiser, variant="four"
            )
    game = table_results.record_table_result([c, a], [121, 118], entered_by=organiser)
    lifecycle.start_game(players=[a, d], rated=True)
    ladder = Ladder.objects.create(name="The Tuesday club ladder", slug="club", rematch_days=0)
    ladder.organisers.add(organiser)
    seasons.current_season(ladder)
    for player in (a, b, c, d):
        membership.join(ladder, player)
    d.profile_public = False
    d.save()
    pages = [
        ("player", reverse("ratings:player", args=[a.pk]), None),
        ("player-own", reverse("ratings:player", args=[a.pk]), a),
        ("player-private", reverse("ratings:player", args=[d.pk]), None),
        ("table-game", reverse("games:game", args=[game.pk]), a),
        ("ladder", reverse("ladders:detail", args=[ladder.slug]), a),
        ("club-night", reverse("admin:ladders_ladder_club_night", args=[ladder.pk]), organiser),
    ]
    problems, tabs = [], {}
    for name, path, who in pages:
        if who not in tabs:
            tabs[who] = logged_in(browser, live_server.url, who)
        tab = tabs[who]
        tab.set_viewport_size({"width": WIDTHS[0], "height": 844})
        response = tab.goto(live_server.url + path)
        if response is None or response.status >= 400:
            problems.append(f"{name}: HTTP {response.status if response else 0}")
        for width in WIDTHS:
            problems += misfits(tab, name, width)
            tab.screenshot(path=str(artifacts / f"players-{name}-{width}.png"), full_page=True)
        problems += [f"{name}: console error {error}" for error in console_errors]
        console_errors.clear()
    # The chart is drawn and readable on a phone: as wide as the page, not a postage stamp.
    tab = tabs[None]
    tab.goto(live_server.url + reverse("ratings:player", args=[a.pk]))
    tab.set_viewport_size({"width": 390, "height": 844})
    width = tab.eval_on_selector("svg.rating-chart", "svg => svg.getBoundingClientRect().width")
    assert width > 300
    assert problems == [], "\n".join(problems)


def test_blocking_from_the_player_page_and_the_profiles_list_fit(live_server, browser, artifacts, console_errors):
    """Block from a player's page (the button), then the page saying so and the profile's list, at
    both widths; screenshots in test-artifacts/blocks-<page>-<width>.png."""
    alice = make_user(display_name="Alice")
    bob = make_user(display_name="Bob with a rather long name indeed")
    tab = logged_in(browser, live_server.url, alice)
    tab.goto(live_server.url + reverse("ratings:player", args=[bob.pk]))
    problems = []

    def look(name):
        for width in WIDTHS:
            problems.extend(misfits(tab, name, width))
            tab.screenshot(path=str(artifacts / f"blocks-{name}-{width}.png"), full_page=True)

    look("player")
    tab.click(f"text=Block {bob.display_name}")
    tab.wait_for_selector("text=You have blocked")
    look("player-blocked")
    tab.goto(live_server.url + reverse("accounts:profile") + "#blocked")
    look("profile")
    tab.click("#blocked button:has-text('Unblock')")
    tab.wait_for_selector("text=You have unblocked")
    assert problems == [] and console_errors == [], problems + console_errors
