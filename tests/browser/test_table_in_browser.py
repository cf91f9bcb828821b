"""The card table in Chromium: what a phone shows without scrolling, choosing then confirming a card,
playing by keys, the confirm page's button, the dark colours, and tick boxes clear of the cards."""

import random
from urllib.parse import urlsplit

import pytest
from django.conf import settings as django_settings
from django.test import Client

from games import cribbage, services
from games.selectors import view_for
from mail import links
from tests.factories import finish_game, make_user, moved_until, start_two_player_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1366, "height": 768}}


def alice_to_play(**alice):
    """A game in the play, three cards laid and Alice (seat 0) to lay one."""
    alice = make_user("alice@example.com", "Alice", allow_forced_moves=False, notify="none", **alice)
    bob = make_user("bob@example.com", "Bob", allow_forced_moves=False, notify="none")
    rng = random.Random(11)
    game = moved_until(
        start_two_player_game(players=[alice, bob], rng=rng),
        lambda s: s.phase == "play" and len(s.count_cards) >= 2 and s.turn == 0 and len(cribbage.legal_moves(s, 0)) > 1,
        rng,
    )
    return alice, game


def tab(browser, base, user, **context):
    context = browser.new_context(**context)
    client = Client()
    client.force_login(user)
    cookie = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": django_settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])
    context.route("**/state.json", lambda r: r.fulfill(status=200, content_type="application/json", body="null"))
    return context.new_page()


def in_first_screen(page, selector):
    box = page.locator(selector).bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def test_on_a_phone_the_count_the_cards_laid_and_the_hand_are_in_the_first_screen(live_server, browser):
    alice, game = alice_to_play()
    page = tab(browser, live_server.url, alice, **PHONE)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert page.evaluate("window.scrollY") == 0
    laid = view_for(game, 0).count_cards
    assert laid and page.locator(".pile svg.face").count() == len(laid)
    assert in_first_screen(page, "#running-count")
    assert page.locator("#running-count").inner_text() == str(view_for(game, 0).count)
    for selector in [".pile", "form.play-form .hand"]:
        assert in_first_screen(page, selector), selector
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_tapped_card_is_chosen_and_only_the_confirm_button_plays_it(live_server, browser):
    alice, game = alice_to_play(confirm_moves="always")
    page = tab(browser, live_server.url, alice, **PHONE)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    card = page.locator("form.play-form .card-button:not([disabled])").first
    code = card.get_attribute("value")
    card.tap()
    game.refresh_from_db()
    assert game.seq == view_for(game, 0).seq and 0 in cribbage.to_act(services.engine_state(game))
    assert card.get_attribute("aria-pressed") == "true"
    confirm = page.locator(".play-confirm-button")
    assert confirm.is_visible() and confirm.get_attribute("value") == code
    with page.expect_navigation():
        confirm.tap()
    game.refresh_from_db()
    assert code in [p["card"] for p in view_for(game, 0).plays]


def test_keys_choose_a_card_and_enter_plays_it(live_server, browser):
    alice, game = alice_to_play()
    seq = game.seq
    page = tab(browser, live_server.url, alice, **DESKTOP)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    playable = list(view_for(game, 0).playable)
    code = playable[0]
    page.keyboard.press(code[:-1].replace("10", "T"))
    chosen = page.locator("form.play-form .card-button.chosen")
    assert chosen.count() == 1 and chosen.get_attribute("value")[:-1] == code[:-1]
    code = chosen.get_attribute("value")
    game.refresh_from_db()
    assert game.seq == seq  # a key only chooses
    with page.expect_navigation():
        page.keyboard.press("Enter")
    game.refresh_from_db()
    assert game.seq > seq and code in [p["card"] for p in view_for(game, 0).plays]


def test_a_click_plays_at_once_where_moves_are_not_confirmed(live_server, browser):
    alice, game = alice_to_play(confirm_moves="never")
    seq = game.seq
    page = tab(browser, live_server.url, alice, **DESKTOP)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    with page.expect_navigation():
        page.locator("form.play-form .card-button:not([disabled])").first.click()
    game.refresh_from_db()
    assert game.seq > seq


def test_the_confirm_page_asks_in_words_and_cards_with_its_button_in_a_phones_first_screen(live_server, browser):
    alice = make_user("alice@example.com", "Alice", notify="none")
    game = start_two_player_game(players=[alice, make_user(notify="none")], rng=random.Random(3))
    move = view_for(game, 0).legal_moves[0]
    page = browser.new_context(**PHONE).new_page()
    page.goto(live_server.url + urlsplit(links.move_url(game.pk, 0, game.seq, move)).path)
    question = page.locator("h1").inner_text()
    labels = [cribbage.card_from_code(c).label for c in move["cards"]]
    assert question.startswith("Lay away") and all(label in question for label in labels), question
    assert question.endswith("crib?")
    assert page.locator(".confirm-cards svg.face").count() == 2
    assert in_first_screen(page, "button.confirm-button")


def background(page):
    """The page's background colour as (r, g, b)."""
    rgb = page.evaluate("getComputedStyle(document.body).backgroundColor")
    return tuple(int(x) for x in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3])


def dark(rgb):
    return sum(rgb) / 3 < 80


def test_dark_colours_follow_the_device_and_the_switch(live_server, browser):
    alice, game = alice_to_play()
    night = tab(browser, live_server.url, alice, color_scheme="dark", **DESKTOP)
    night.goto(f"{live_server.url}/games/{game.pk}/")
    assert dark(background(night))

    day = tab(browser, live_server.url, alice, color_scheme="light", **DESKTOP)
    day.goto(f"{live_server.url}/games/{game.pk}/")
    assert not dark(background(day))
    with day.expect_navigation():
        day.click("#theme-dark")
    assert day.url.endswith(f"/games/{game.pk}/") and dark(background(day))
    alice.refresh_from_db()
    assert alice.theme == "dark"

    visitor = browser.new_context(color_scheme="light", **DESKTOP).new_page()
    visitor.goto(f"{live_server.url}/calculator/")
    assert not dark(background(visitor))
    with visitor.expect_navigation():
        visitor.click("#theme-dark")
    visitor.goto(f"{live_server.url}/")
    assert dark(background(visitor))  # kept in a cookie


def test_a_finished_game_is_stepped_through_hand_by_hand_on_the_board(live_server, browser):
    alice = make_user("alice@example.com", "Alice", allow_forced_moves=False, notify="none")
    game = finish_game(start_two_player_game(players=[alice, make_user(notify="none")]), winner=0)
    page = tab(browser, live_server.url, alice, **DESKTOP)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    hands = page.locator(".steps-list li")
    assert hands.count() >= 2
    board = page.locator("svg.board-long")
    front = board.locator('[data-peg="front"][data-track="0"]')
    final = front.bounding_box()
    page.click("text=First hand")
    assert hands.first.get_attribute("aria-current") == "step"
    first = [int(n) for n in hands.first.get_attribute("data-scores").split(",")]
    page.wait_for_timeout(500)  # the pegs glide
    moved = front.bounding_box()
    assert moved != final and first[0] < game.target
    assert not board.locator(".last-points").first.is_visible()
    page.click("text=The end")
    page.wait_for_timeout(500)
    assert front.bounding_box() == final
    assert hands.last.get_attribute("aria-current") == "step"


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["390", "1366"])
def test_no_tick_box_covers_a_card_when_laying_away(live_server, browser, size):
    """The discard's tick boxes sit clear of the card faces, whose corners carry the index."""
    alice = make_user("alice@example.com", "Alice", allow_forced_moves=False, notify="none")
    game = start_two_player_game(players=[alice, make_user()], rng=random.Random(3))
    page = tab(browser, live_server.url, alice, **size)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    picks = page.locator("form.discard-form .card-pick")
    assert picks.count() == 6
    for i in range(6):
        face = picks.nth(i).locator("svg.face").bounding_box()
        tick = picks.nth(i).locator("input[type=checkbox]").bounding_box()
        assert face and tick
        apart = tick["y"] >= face["y"] + face["height"] or tick["x"] >= face["x"] + face["width"]
        apart = apart or tick["y"] + tick["height"] <= face["y"] or tick["x"] + tick["width"] <= face["x"]
        assert apart, (i, face, tick)
