"""Move links (GET shows, POST moves once) and one-click unsubscribe."""

import random
import re
import zlib
from datetime import timedelta

import pytest
import time_machine
from django.core import mail, signing
from django.utils import timezone

from games import services
from games.models import Event
from games.presentation import card_name, cards_text
from games.selectors import view_for
from mail import links
from mail.models import OfferedMove
from mail.rendering import turn_message
from tests.factories import make_user, start_two_player_game

CUT_SHORT = "This link is not valid (it may have been cut short by your mail program)."


def link_path(url):
    return re.sub(r"^https?://[^/]+", "", url)


def problem_page(response, status, problem):
    """The "This link cannot be used" page with exactly `problem` said."""
    page = response.content.decode()
    assert response.status_code == status
    assert "This link cannot be used" in page and f'<p role="alert">{problem}</p>' in page
    return page


def discard_links(game, seat):
    game.refresh_from_db()
    view = view_for(game, seat)
    return [(m, link_path(links.move_url(game.pk, seat, view.seq, m))) for m in view.legal_moves]


def test_opening_a_link_changes_nothing_and_shows_one_button(client, game):
    move, path = discard_links(game, 0)[0]
    seq = game.seq
    for method in (client.get, client.head):
        assert method(path).status_code == 200
    page = client.get(path).content.decode()
    game.refresh_from_db()
    assert game.seq == seq and not Event.objects.filter(source=Event.Source.LINK).exists()
    main = page.split("<main", 1)[1].split("</main>", 1)[0]  # the page's own, not the header's or foot's
    assert main.count('<form method="post"') == 1 and "Lay away" in main
    for code in view_for(game, 1).hand:  # Bob's cards never shown to Alice
        assert not re.search(rf"\b{code}\b", re.sub(r'href="[^"]*"', "", page))


def test_the_button_makes_the_move_once(client, game):
    move, path = discard_links(game, 0)[0]
    response = client.post(path)
    assert response.status_code == 200 and "Done" in response.content.decode()
    again = client.post(path)
    assert "Already done" in again.content.decode()
    events = Event.objects.filter(game=game, source=Event.Source.LINK)
    assert events.count() == 1 and events.get().data["cards"] == move["cards"]


def test_a_discard_link_stays_good_while_the_opponent_throws(client, game):
    _, path = discard_links(game, 0)[0]
    services.submit_move(game, 1, view_for(game, 1).legal_moves[0])
    assert client.post(path).status_code == 200
    assert Event.objects.filter(game=game, source=Event.Source.LINK).count() == 1


def test_a_stale_link_says_so_and_offers_fresh_links(client, game):
    (_, first), (_, second) = discard_links(game, 0)[:2]
    client.post(first)
    for seat in (1,):
        services.submit_move(game, seat, view_for(game, seat).legal_moves[0])
    game.refresh_from_db()
    page = client.get(second)
    assert "out of date" in page.content.decode()
    response = client.post(second)
    assert response.status_code == 409 and "Nothing was changed" in response.content.decode()
    assert Event.objects.filter(game=game, source=Event.Source.LINK).count() == 1
    view = view_for(game, 0)
    if view.legal_moves:  # Alice is to play: the page links her cards at the current state
        assert "/m/move/" in response.content.decode()


def test_a_link_whose_move_was_made_another_way_says_already_done(client, game):
    move, path = discard_links(game, 0)[0]
    services.submit_move(game, 0, move)  # made on the site (or by reply), not by the link
    services.submit_move(game, 1, view_for(game, 1).legal_moves[0])  # the play begins
    for response in (client.get(path), client.post(path)):
        page = response.content.decode()
        assert "Already done" in page and "already done." in page and "out of date" not in page
    assert not Event.objects.filter(game=game, source=Event.Source.LINK).exists()


@pytest.mark.parametrize("mangle", [lambda t: t[:-3] + "abc", lambda t: t[:20], lambda t: "nonsense"])
def test_a_damaged_or_forged_link_is_refused(client, game, mangle):
    _, path = discard_links(game, 0)[0]
    token = path.rstrip("/").rsplit("/", 1)[1]
    seq = game.seq
    for method in (client.get, client.post):
        problem_page(method(f"/m/move/{mangle(token)}/"), 400, CUT_SHORT)
    game.refresh_from_db()
    assert game.seq == seq and not Event.objects.filter(source=Event.Source.LINK).exists()


def test_a_link_for_another_purpose_is_refused(client, game):
    token = links.unsubscribe_token(game.seats.get(number=0).player)
    problem_page(client.post(f"/m/move/{token}/"), 400, CUT_SHORT)
    assert not Event.objects.filter(source=Event.Source.LINK).exists()


def test_a_well_signed_link_without_a_move_is_refused(client, game):
    token = signing.dumps({"g": game.pk, "s": 0}, salt=links.MOVE_SALT, compress=True)
    problem_page(client.post(f"/m/move/{token}/"), 400, "This link is not valid.")
    assert not Event.objects.filter(source=Event.Source.LINK).exists()


@pytest.mark.parametrize("game_offset, seat", [(1000, 0), (0, 7)], ids=["no-such-game", "no-such-seat"])
def test_a_link_to_a_game_that_is_gone_says_so(client, game, game_offset, seat):
    move = view_for(game, 0).legal_moves[0]
    token = links.move_token(game.pk + game_offset, seat, game.seq, move)
    for method in (client.get, client.post):
        problem_page(method(f"/m/move/{token}/"), 404, "This game no longer exists.")
    assert not Event.objects.filter(source=Event.Source.LINK).exists()


def test_a_link_to_a_computers_seat_says_the_game_is_gone(client, db):
    game = start_two_player_game(
        players=[make_user(password=None, allow_forced_moves=False), None], computer_level="easy", rng=random.Random(7)
    )
    token = links.move_token(game.pk, 1, game.seq, {"kind": "resign"})
    problem_page(client.post(f"/m/move/{token}/"), 404, "This game no longer exists.")
    game.refresh_from_db()
    assert not game.is_finished and not Event.objects.filter(source=Event.Source.LINK).exists()


def test_links_expire(client, game, settings):
    move = view_for(game, 0).legal_moves[0]
    token = links.move_token(game.pk, 0, game.seq, move)
    with time_machine.travel(timezone.now() + links.MOVE_LINK_MAX_AGE + timedelta(minutes=1)):
        for method in (client.get, client.post):
            problem_page(method(f"/m/move/{token}/"), 410, "This link has expired.")
    assert not Event.objects.filter(source=Event.Source.LINK).exists()


def test_a_finished_game_link_says_so(client, game):
    _, path = discard_links(game, 0)[0]
    services.submit_move(game, 1, {"kind": "resign"})
    assert "This game is over" in client.get(path).content.decode()
    assert client.post(path).status_code == 409


def test_a_link_cannot_move_for_another_seat(client, game):
    move = view_for(game, 0).legal_moves[0]  # Alice's cards in a link for Bob's seat
    token = links.move_token(game.pk, 1, game.seq, move)
    assert client.post(f"/m/move/{token}/").status_code == 409
    assert not Event.objects.filter(source=Event.Source.LINK).exists()


def test_unsubscribe_get_asks_and_the_one_click_post_turns_emails_off(client, game):
    alice = game.seats.get(number=0).player
    path = link_path(links.unsubscribe_url(alice))
    page = client.get(path)
    alice.refresh_from_db()
    assert page.status_code == 200 and alice.notify == "every_turn" and '<form method="post"' in page.content.decode()
    response = client.post(path, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded")
    alice.refresh_from_db()
    assert response.status_code == 200 and alice.notify == "none"
    mail.outbox.clear()
    services.submit_move(game, 0, view_for(game, 0).legal_moves[0])
    services.submit_move(game, 1, view_for(game, 1).legal_moves[0])
    assert all(m.to != [alice.email] for m in mail.outbox)


def test_a_forged_unsubscribe_link_is_refused(client, game):
    token = signing.dumps({"u": game.seats.get(number=0).player_id, "e": "alice@example.com"}, salt="other")
    for method in (client.get, client.post):
        problem_page(method(f"/m/unsubscribe/{token}/"), 400, "This unsubscribe link is not valid.")
    alice = game.seats.get(number=0).player
    alice.refresh_from_db()
    assert alice.notify == "every_turn"


def test_an_unsubscribe_link_for_an_old_address_is_refused(client, game):
    alice = game.seats.get(number=0).player
    path = link_path(links.unsubscribe_url(alice))
    alice.email = "alice.new@example.com"
    alice.save()
    for method in (client.get, client.post):
        problem_page(method(path), 400, "This unsubscribe link is not valid any more.")
    alice.refresh_from_db()
    assert alice.notify == "every_turn"


def test_an_unsubscribe_link_for_a_deleted_user_is_refused(client, db):
    user = make_user(password=None)
    path = link_path(links.unsubscribe_url(user))
    user.delete()
    problem_page(client.post(path), 400, "This unsubscribe link is not valid any more.")


def test_under_muggins_the_page_asks_what_is_claimed(client, db, on_commit):
    from tests.factories import make_user, start_two_player_game

    game = start_two_player_game(
        players=[
            make_user(password=None, allow_forced_moves=False),
            make_user(password=None, allow_forced_moves=False),
        ],
        muggins=True,
    )
    for seat in (0, 1):
        services.submit_move(game, seat, view_for(game, seat).legal_moves[0])
        game.refresh_from_db()
    turn = view_for(game, 0).turn
    view = view_for(game, turn)
    card = view.playable[0]
    path = link_path(links.move_url(game.pk, turn, view.seq, {"kind": "play", "card": card}))
    page = client.get(path).content.decode()
    assert 'name="claim"' in page
    for claim in ("x", ""):
        response = client.post(path, {"claim": claim})
        assert response.status_code == 400
        assert '<p class="errorlist" role="alert">Enter a number of points.</p>' in response.content.decode()
    assert not Event.objects.filter(game=game, source=Event.Source.LINK).exists()
    assert client.post(path, {"claim": "0"}).status_code == 200
    assert Event.objects.get(game=game, source=Event.Source.LINK).data == {
        "kind": "play",
        "card": card,
        "claim": 0,
        "seat": turn,
    }


def test_a_show_link_under_muggins_wants_a_number_of_points(client, db):
    game = start_two_player_game(
        players=[
            make_user(password=None, allow_forced_moves=False),
            make_user(password=None, allow_forced_moves=False),
        ],
        muggins=True,
        rng=random.Random(7),
    )
    for _ in range(40):  # to the first show
        game.refresh_from_db()
        view = view_for(game, 0)
        if view.phase == "show":
            break
        seat = view.to_act[0]
        services.submit_move(game, seat, next(m for m in view_for(game, seat).legal_moves if m["kind"] != "muggins"))
    seat = view.to_act[0]
    seq = game.seq
    path = link_path(links.move_url(game.pk, seat, seq, {"kind": "count"}))
    assert 'name="points"' in client.get(path).content.decode()
    for points in ("twelve", "", "3.5"):
        response = client.post(path, {"points": points})
        assert response.status_code == 400
        assert '<p class="errorlist" role="alert">Enter a number of points.</p>' in response.content.decode()
    game.refresh_from_db()
    assert game.seq == seq and not Event.objects.filter(game=game, source=Event.Source.LINK).exists()
    assert view_for(game, seat).phase == "show" and list(view_for(game, seat).to_act) == list(view.to_act)


def test_in_the_play_the_confirm_page_and_turn_email_say_each_kept_card_once(client, db):
    players = [make_user(password=None, allow_forced_moves=False) for _ in range(2)]
    game = start_two_player_game(players=players, rng=random.Random(3))
    for seat in (0, 1):
        services.submit_move(game, seat, view_for(game, seat).legal_moves[0])
        game.refresh_from_db()
    for _ in range(3):  # each player's first card, then a turn with cards kept both played and left
        turn = view_for(game, 0).turn
        services.submit_move(game, turn, view_for(game, turn).legal_moves[0])
        game.refresh_from_db()
    turn = view_for(game, 0).turn
    view = view_for(game, turn)
    played = [c for c in view.kept if c not in view.hand]
    assert view.phase == "play" and played and view.hand
    move = {"kind": "play", "card": view.playable[0]}
    page = client.get(link_path(links.move_url(game.pk, turn, view.seq, move))).content.decode()
    [hand_line] = re.findall(r"<dt>Your hand</dt><dd>(.*?)</dd>", page)
    for code in view.kept:
        assert hand_line.count(f'aria-label="{card_name(code)}"') == 1, (code, hand_line)
    assert "played:" in hand_line and "still counted in your show" in hand_line
    email = turn_message(game, turn, players[turn])
    [text_line] = [line for line in email.body.splitlines() if line.startswith("Your hand:")]
    for code in view.kept:
        assert text_line.count(cards_text([code])) == 1, (code, text_line)


def test_a_link_pressed_twice_answers_already_made_both_times_with_the_way_to_the_game(client, game):
    move, path = discard_links(game, 0)[0]
    first, second = client.post(path), client.post(path)
    assert first.status_code == 200 and "Done" in first.text
    assert second.status_code == 200 and "This move was already made" in second.text
    game_link = f'href="{links.absolute(game.get_absolute_url())}"'
    for response in (first, second):
        assert game_link in response.text
    assert Event.objects.filter(game=game, source=Event.Source.LINK).count() == 1


def test_the_same_move_from_another_emails_link_answers_already_done_not_a_conflict(client, game):
    move, path = discard_links(game, 0)[0]
    # The same move in an email sent before links were opaque: another token, another idempotency key.
    token = signing.dumps({"g": game.pk, "s": 0, "q": game.seq, "m": move}, salt=links.MOVE_SALT, compress=True)
    reminder_path = f"/m/move/{token}/"
    client.post(path)
    response = client.post(reminder_path)
    assert response.status_code == 200 and "Already done" in response.text and "out of date" not in response.text
    assert f'href="{links.absolute(game.get_absolute_url())}"' in response.text
    assert Event.objects.filter(game=game, source=Event.Source.LINK).count() == 1


def readable_without_the_key(token):
    """What anyone who sees the URL (an access log, a link scanner) reads from the token without
    the site's key: Django's signed payload is base64 JSON, zlib-compressed when it starts with "."."""
    payload = token.split(":", 1)[0]
    try:
        raw = signing.b64_decode(payload.lstrip(".").encode())
        return zlib.decompress(raw).decode() if payload.startswith(".") else raw.decode()
    except (ValueError, zlib.error, UnicodeDecodeError):
        return None


def test_a_move_link_carries_no_card_game_or_seat_anyone_can_read(game):
    view = view_for(game, 0)
    for move in view.legal_moves:
        token = links.move_token(game.pk, 0, view.seq, move)
        assert re.fullmatch(r"[A-Za-z0-9_-]{22}", token)
        assert readable_without_the_key(token) is None
    assert len({links.move_token(game.pk, 0, view.seq, m) for m in view.legal_moves}) == len(view.legal_moves)


def test_an_opaque_link_guessed_or_made_up_is_refused(client, game):
    for token in ("A" * 22, "abcdefghijklmnopqrstuv", "x" * 200):
        problem_page(client.post(f"/m/move/{token}/"), 400, CUT_SHORT)
    assert not Event.objects.filter(source=Event.Source.LINK).exists()


def test_a_link_sent_before_links_were_opaque_still_moves_once(client, game):
    move = view_for(game, 0).legal_moves[0]
    token = signing.dumps({"g": game.pk, "s": 0, "q": game.seq, "m": move}, salt=links.MOVE_SALT, compress=True)
    assert "cards" in readable_without_the_key(token)  # what they were
    assert client.post(f"/m/move/{token}/").status_code == 200
    assert "This move was already made" in client.post(f"/m/move/{token}/").text
    assert Event.objects.filter(game=game, source=Event.Source.LINK).count() == 1


def test_a_move_emailed_again_gets_the_same_link_living_a_month_from_then(client, game):
    move = view_for(game, 0).legal_moves[0]
    token = links.move_token(game.pk, 0, game.seq, move)
    with time_machine.travel(timezone.now() + timedelta(days=20)):  # a reminder of the same turn
        assert links.move_token(game.pk, 0, game.seq, move) == token
    with time_machine.travel(timezone.now() + timedelta(days=45)):
        assert client.post(f"/m/move/{token}/").status_code == 200


def test_a_turn_emails_links_are_read_and_made_together(game, django_assert_max_num_queries):
    """The fifteen discards of a turn email: their rows made in three queries, read again in one
    (a reminder), renewed in two; each link the one move_token gives for that move alone."""
    OfferedMove.objects.all().delete()  # the turn emails of the game's start made them
    view = view_for(game, 0)
    moves = list(view.legal_moves)
    assert len(moves) == 15
    with django_assert_max_num_queries(3):
        made = links.move_tokens(game.pk, 0, view.seq, moves)
    assert len(set(made)) == len(moves)
    with django_assert_max_num_queries(1):
        assert links.move_tokens(game.pk, 0, view.seq, moves) == made
    assert [links.move_token(game.pk, 0, view.seq, m) for m in moves] == made
    later = timezone.now() + timedelta(days=20)
    with time_machine.travel(later), django_assert_max_num_queries(2):
        assert links.move_tokens(game.pk, 0, view.seq, [*moves[3:], moves[0]]) == [*made[3:], made[0]]
    renewed = OfferedMove.objects.filter(game_id=game.pk, made_at__gte=later - timedelta(minutes=1))
    assert renewed.count() == len(moves) - 2
