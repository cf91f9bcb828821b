"""In real Chromium: the plan for every hand kept on the profile, and a slow game against the
computer by email started from the practice page."""

from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.test import Client

from games.models import Game
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _logged_in(browser, live_server, user):
    client = Client()
    client.force_login(user)
    context = browser.new_context()
    name = django_settings.SESSION_COOKIE_NAME
    context.add_cookies([{"name": name, "value": client.cookies[name].value, "url": live_server.url}])
    return context.new_page()


def test_the_plan_for_every_hand_on_the_profile_and_a_computer_game_by_email(live_server, browser, artifacts):
    alice = make_user("alice@example.com", "Alice")
    page = _logged_in(browser, live_server, alice)
    page.goto(f"{live_server.url}/accounts/profile/")
    page.fill("#id_standing_plan", "score first, low first")
    page.click("text=Save")
    page.wait_for_load_state()
    assert page.locator("#id_standing_plan").input_value() == "score first, low first"
    page.locator("#id_standing_plan").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "profile-standing-plan.png"))
    alice.refresh_from_db()
    assert alice.standing_plan == [{"rule": "score_first"}, {"rule": "low_first"}]

    page.goto(f"{live_server.url}/practice/")
    page.select_option("#id_level", "expert")
    page.select_option("#id_by_email", "7200")
    page.screenshot(path=str(artifacts / "practice-by-email.png"), full_page=True)
    page.click("text=Start the game")
    page.wait_for_load_state()
    game = Game.objects.get()
    assert game.computer_delay == timedelta(hours=2) and not game.practice
    assert page.url.endswith(game.get_absolute_url())
    assert "A plan for every hand" in page.content() and "(yours is set)" in page.content()
