"""Every kind of page loads under the Content-Security-Policy without a console error
(the browser fixture fails the test on any console error or uncaught script error)."""

import random
from urllib.parse import urlsplit

import pytest
from django.urls import reverse

from games.selectors import view_for
from ladders import membership, seasons
from ladders.models import Ladder
from mail import links
from tests.factories import make_user, start_two_player_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-Long-secret-42"


def test_the_pages_pass_the_content_security_policy(live_server, browser, console_errors):
    alice = make_user("alice@example.com", "Alice", password=PASSWORD, allow_forced_moves=False)
    bob = make_user("bob@example.com", "Bob", allow_forced_moves=False)
    game = start_two_player_game(players=[alice, bob], rng=random.Random(7))
    ladder = Ladder.objects.create(name="Club ladder", slug="club", rematch_days=0)
    seasons.current_season(ladder)
    membership.join(ladder, alice)
    membership.join(ladder, bob)
    move = view_for(game, 0).legal_moves[0]
    move_link = urlsplit(links.move_url(game.pk, 0, game.seq, move)).path

    page = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    headers = []
    page.on(
        "response",
        lambda r: (
            r.request.resource_type == "document" and headers.append(r.headers.get("content-security-policy", ""))
        ),
    )
    for path in ["/", "/accounts/signup/", "/accounts/login-link/", "/calculator/", move_link]:
        page.goto(live_server.url + path)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "alice@example.com")
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_load_state()
    for path in [
        reverse("games:my_games"),
        reverse("games:game", args=[game.pk]),
        reverse("games:record", args=[game.pk]),
        reverse("games:new_challenge"),
        reverse("games:practice"),
        reverse("accounts:profile"),
        reverse("ladders:detail", args=[ladder.slug]),
        move_link,
    ]:
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")
    assert len(headers) >= 13 and all("script-src 'self'" in h and "default-src 'self'" in h for h in headers)
    assert "Log out" in page.content()
    # The watch works: a refused inline style is reported (and then forgiven here).
    page.evaluate("document.body.insertAdjacentHTML('beforeend', '<p style=\"color:red\">x</p>')")
    page.wait_for_timeout(200)
    assert any("Content Security Policy" in e for e in console_errors)
    console_errors.clear()
