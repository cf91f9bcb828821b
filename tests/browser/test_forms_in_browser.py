"""The forms' small scripts in real Chromium: the time zone guessed from the browser, and the
challenge form asking for as many players as the game chosen seats."""

import pytest
from django.conf import settings as django_settings
from django.test import Client

from games.models import Challenge
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_sign_up_chooses_the_browser_s_time_zone(live_server, browser):
    page = browser.new_context(timezone_id="Australia/Sydney").new_page()
    page.goto(f"{live_server.url}/accounts/signup/")
    assert page.locator("select#id_time_zone").input_value() == "Australia/Sydney"
    assert "your browser's time zone, Sydney" in page.locator("#id_time_zone_guess").inner_text()


def test_the_challenge_form_shows_the_boxes_the_game_needs(live_server, browser):
    alice = make_user("alice@example.com", "Alice")
    bob, carol = make_user("bob@example.com", "Bob Brown"), make_user("carol@example.com", "Carol")
    client = Client()
    client.force_login(alice)
    context = browser.new_context()
    name = django_settings.SESSION_COOKIE_NAME
    context.add_cookies([{"name": name, "value": client.cookies[name].value, "url": live_server.url}])
    page = context.new_page()
    page.goto(f"{live_server.url}/challenges/new/")
    assert page.locator("#id_player1").is_visible() and not page.locator("#more-players").is_visible()
    page.select_option("#id_variant", "three")
    assert page.locator("#id_player2").is_visible() and not page.locator("#id_player3").is_visible()
    page.select_option("#id_variant", "four")
    assert page.locator("#id_player3").is_visible()
    page.fill("#id_player3", "left over")
    page.select_option("#id_variant", "two")  # a box hidden again is not sent
    page.fill("#id_player1", "bob brown")
    page.click("text=Send the challenge")
    page.wait_for_load_state()
    assert "Your challenge is sent" in page.content()
    assert [p.player for p in Challenge.objects.get().places.all()] == [bob]
    assert carol.challenge_places.count() == 0
