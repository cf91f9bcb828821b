"""The community's pages (the open challenges with their filters, the player page's reliability,
the leaderboards, the upcoming events, a duplicate round's comparison) fit a phone (390 px) and a
desktop (1366 px), measured as every other page is (test_every_page_fits); screenshots in
test-artifacts/community-<page>-<width>.png. The seek filters work on a phone without script."""

import random
from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import challenges
from ratings.models import Rating
from tests.browser.fit import WIDTHS, logged_in, misfits
from tests.factories import lose_on_time, make_user
from tournaments import entries
from tournaments import services as tournaments
from tournaments.management.commands.simulate_tournament_season import play_out
from tournaments.models import PairingGame, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def measured(tab, name, artifacts, problems):
    """Measure the open page at both widths and save its screenshots."""
    for width in WIDTHS:
        problems += misfits(tab, name, width)
        tab.screenshot(path=str(artifacts / f"community-{name}-{width}.png"), full_page=True)


def seek_board():
    """Open challenges by players of every kind: rated high and low, reliable or not, new."""
    people = {}
    for name, family, mu, lost, won, variant in [
        ("Annabel the steady and long-named", "two", 40, 0, 12, "two"),
        ("Bob", "two", 20, 2, 8, "five_card"),
        ("Carol", "three", 35, 0, 3, "three"),
        ("Dave", None, None, 0, 0, "four"),
        ("Erin", "two", 28, 2, 18, "two"),
    ]:
        player = make_user(display_name=name, notify="none")
        if family:
            Rating.objects.create(player=player, family=family, mu=mu, sigma=2.0, games=20, updated_at=timezone.now())
        lose_on_time(player, times=lost, wins=won)
        people[name] = player
        challenges.create_seek(player, variant=variant, rated=True, min_reliability=90 if name == "Erin" else None)
    return people


def test_the_seek_filters_work_on_a_phone_without_script(live_server, browser, artifacts):
    seek_board()
    viewer = make_user(display_name="Viewer")
    client = Client()
    client.force_login(viewer)
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    cookie = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": django_settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}])
    tab = context.new_page()
    tab.goto(live_server.url + reverse("games:seeks"))
    # The filters are in the phone's first screen, above the list.
    button = tab.get_by_role("button", name="Show", exact=True)
    assert button.bounding_box()["y"] + button.bounding_box()["height"] <= 844
    tab.select_option("#filter_variant", "two")
    tab.fill("#filter_rating_from", "1500")
    tab.select_option("#filter_reliability", "95")
    button.click()
    tab.wait_for_load_state()
    assert "variant=two" in tab.url and "rating_from=1500" in tab.url and "reliability=95" in tab.url
    names = tab.locator(".seek-list > li > a").all_inner_texts()
    assert names == ["Annabel the steady and long-named"]  # Bob plays five-card, Erin is 90% reliable
    assert tab.get_by_text("1 open challenge matches your filters.").is_visible()
    tab.screenshot(path=str(artifacts / "community-seeks-filtered-390.png"), full_page=True)
    tab.get_by_role("link", name="Show them all").first.click()
    tab.wait_for_load_state()
    assert len(tab.locator(".seek-list > li").all()) == 5


def test_community_pages_fit_a_phone_and_a_desktop(live_server, browser, artifacts, console_errors):
    people = seek_board()
    viewer = make_user(display_name="Viewer")
    for n, name in enumerate(["Fiona Featherstonehaugh-Cholmondeley", "Gus", "Hal", "Ivy", "Jo"]):
        newer = make_user(display_name=name, notify="none")
        Rating.objects.create(player=newer, family="two", mu=26 - n, sigma=4.5, games=n + 2, updated_at=timezone.now())
    today = timezone.localdate()
    olive = make_user("olive@example.com", "Olive the organiser", is_staff=True)
    for n, (name, every) in enumerate([("Friday five-card blitz for the whole club", 7), ("Daily duplicate", 1)]):
        event = Tournament.objects.create(
            name=name, slug=f"event-{n}", starts_on=today + timedelta(days=n + 1), repeat_every_days=every
        )
        event.organisers.add(olive)
    Tournament.objects.create(name="Winter league", slug="winter", starts_on=today, status="running")
    duplicate = Tournament.objects.create(name="Duplicate night at the club", slug="dup", kind="duplicate")
    entrants = [make_user(display_name=f"Duplicate player {n} of the club", notify="none") for n in range(4)]
    entries.add_entrants(duplicate, "\n".join(p.email for p in entrants), actor=olive)
    tournaments.start(duplicate)
    for n, pg in enumerate(PairingGame.objects.filter(pairing__round__number=1, pairing__round__tournament=duplicate)):
        play_out(pg.game, random.Random(n))
    pages = [
        ("events", reverse("tournaments:list"), viewer),
        ("event-repeating", reverse("tournaments:detail", args=["event-0"]), viewer),
        ("duplicate-event", duplicate.get_absolute_url(), viewer),
        ("round-hands", reverse("tournaments:round_hands", args=["dup", 1]), viewer),
        ("seeks", reverse("games:seeks"), viewer),
        ("seeks-bad-filter", reverse("games:seeks") + "?rating_from=2000&rating_to=1000", viewer),
        ("player-reliability", reverse("ratings:player", args=[people["Erin"].pk]), None),
        ("leaderboard", reverse("ratings:leaderboard", args=["two"]), viewer),
        ("leaderboard-three", reverse("ratings:leaderboard", args=["three"]), None),
    ]
    problems, tabs = [], {}
    for name, path, who in pages:
        if who not in tabs:
            tabs[who] = logged_in(browser, live_server.url, who)
        tab = tabs[who]
        tab.set_viewport_size({"width": WIDTHS[0], "height": 844})
        response = tab.goto(live_server.url + path)
        if response is None or response.status >= 400 and not name.endswith("bad-filter"):
            problems.append(f"{name}: HTTP {response.status if response else 0}")
        measured(tab, name, artifacts, problems)
        tab.set_viewport_size({"width": 390, "height": 844})
        tab.screenshot(path=str(artifacts / f"community-{name}-390-first-screen.png"))
        refused = name.endswith("bad-filter")  # answered 400 on purpose, which the browser reports
        problems += [f"{name}: console error {e}" for e in console_errors if not (refused and "status of 400" in e)]
        console_errors.clear()
    assert problems == [], "\n".join(problems)
