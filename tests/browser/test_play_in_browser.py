"""Two players sign up, challenge, accept and play a whole game in real Chromium.

Everything goes through the pages as a person would: the sign-up form, the
confirmation link from the mail, the challenge form, Accept, then the move
forms read off each player's game page until the game is over. A screenshot
of the board is saved to test-artifacts/board.png (and the whole game page at
desktop and phone widths beside it).
"""

import re
from urllib.parse import urlsplit

import pytest
from django.core import mail

from games.models import Game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def person(browser):
    """A player's browser. The page's poll (state.json every 15 s, then a reload when the game
    moved) is held off: this test reloads the page itself, and a reload of the poll's in the
    middle of one of the test's aborts it."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.route(
        "**/state.json", lambda route: route.fulfill(status=200, content_type="application/json", body="null")
    )
    return context


def sign_up(context, base, email, name):
    """A new player through the sign-up page and the emailed confirmation link."""
    page = context.new_page()
    page.goto(f"{base}/accounts/signup/")
    page.fill("#id_email", email)
    page.fill("#id_display_name", name)
    page.fill("#id_password1", "a-Long-secret-42")
    page.fill("#id_password2", "a-Long-secret-42")
    page.click("button[type=submit] >> text=Create my account")
    page.wait_for_load_state()
    confirm = [m for m in mail.outbox if m.to == [email]][-1]
    link = re.search(r"https?://\S+/accounts/confirm/\S+/", confirm.body).group(0)
    page.goto(base + urlsplit(link).path)
    page.click("main button[type=submit]")
    page.wait_for_load_state()
    assert "is confirmed" in page.content()
    return page


def act(page):
    """Make one move from the forms on this player's game page; False if none is offered."""
    page.reload()
    discard = page.locator("form.discard-form")
    if discard.count():
        pick = int(discard.get_attribute("data-pick"))
        boxes = discard.locator("input[name=cards]")
        for i in range(pick):
            boxes.nth(i).check()
        discard.locator("button[type=submit]").click()
        page.wait_for_load_state()
        return True
    play = page.locator("form.play-form button[name=card]:not([disabled])")
    if play.count():
        play.first.click()
        page.wait_for_load_state()
        return True
    return False


def test_two_players_sign_up_challenge_and_play_a_whole_game(live_server, browser, artifacts, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    base = live_server.url
    alice = sign_up(person(browser), base, "alice@example.com", "Alice")
    bob = sign_up(person(browser), base, "bob@example.com", "Bob")

    # Alice challenges Bob to a game to 61.
    alice.goto(f"{base}/")
    alice.click("nav >> text=Play")  # the header's menu
    alice.click("nav >> text=New game")
    alice.fill("#id_player1", "bob@example.com")
    alice.select_option("#id_target", "61")
    alice.click("text=Send the challenge")
    alice.wait_for_load_state()
    assert "Your challenge is sent" in alice.content()

    # Bob finds it on My games and accepts.
    bob.goto(f"{base}/")
    bob.click("nav >> text=My games")
    bob.screenshot(path=str(artifacts / "my-games-challenged.png"), full_page=True)
    bob.click("text=Alice challenges you")
    bob.click("button:has-text('Accept')")
    bob.wait_for_load_state()
    game = Game.objects.get()
    assert bob.url.rstrip("/").endswith(f"/games/{game.pk}")
    alice.goto(f"{base}/games/{game.pk}/")

    # They play to the end, each making whatever move their page offers.
    bob.goto(f"{base}/games/{game.pk}/")
    bob.screenshot(path=str(artifacts / "game-discard.png"), full_page=True)
    pictured = False
    for _ in range(600):
        if not pictured and alice.locator("form.play-form").count():
            alice.screenshot(path=str(artifacts / "game-play.png"), full_page=True)
            pictured = True
        game.refresh_from_db()
        if game.is_finished:
            break
        moved = [act(alice), act(bob)]
        if not any(moved):
            game.refresh_from_db()
            assert game.is_finished, "no player was offered a move in a game still on"
    game.refresh_from_db()
    assert game.is_finished and game.finish == "target"

    alice.reload()
    text = alice.content()
    assert " won (reached 61)" in text and 'name="action"' not in text
    alice.locator("svg.cribbage-board >> visible=true").screenshot(path=str(artifacts / "board.png"))
    alice.screenshot(path=str(artifacts / "game-desktop.png"), full_page=True)
    alice.set_viewport_size({"width": 390, "height": 844})
    alice.reload()
    alice.screenshot(path=str(artifacts / "game-phone.png"), full_page=True)
    alice.goto(f"{base}/games/")
    alice.screenshot(path=str(artifacts / "my-games-phone.png"), full_page=True)
    alice.goto(f"{base}/games/{game.pk}/record/")
    assert "Hand 1" in alice.content()
    alice.screenshot(path=str(artifacts / "record-phone.png"), full_page=True)
    alice.goto(f"{base}/challenges/new/")
    alice.screenshot(path=str(artifacts / "new-game-phone.png"), full_page=True)
    assert (artifacts / "board.png").stat().st_size > 1000
