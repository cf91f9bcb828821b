"""The game page and its move forms: rendered from view_for, moves through the service.

Every refused move must say why and leave the game exactly as it was (same
event count, same seq).
"""

import json
import random
import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import challenges, computer_games, cribbage, lifecycle, selectors, services
from games.models import Game
from tests.factories import make_user, play_random_move, start_two_player_game

pytestmark = pytest.mark.django_db


def page(client, game):
    response = client.get(reverse("games:game", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def form_fields(html, action):
    """The hidden fields of the move form for `action`, as rendered."""
    forms = re.findall(r"<form\b.*?</form>", html, re.S)
    form = next((f for f in forms if f'name="action" value="{action}"' in f), None)
    assert form, f"no {action} form on the page"
    return {
        "action": action,
        "expected_seq": re.search(r'name="expected_seq" value="(\d+)"', form).group(1),
        "token": re.search(r'name="token" value="([0-9a-f]+)"', form).group(1),
    }


def post(client, game, fields, follow=True):
    return client.post(reverse("games:move", args=[game.pk]), fields, follow=follow)


def messages_of(response):
    return [str(m) for m in response.context["messages"]] if response.context else []


def hand_of(game, seat):
    return selectors.view_for(game, seat).hand


def events(game):
    return game.events.count()


def names(html, code):
    """Does the page name this card (by code, as a word: not inside a token)?"""
    return re.search(rf"(?<![A-Za-z0-9]){code}(?![A-Za-z0-9])", html) is not None


@pytest.fixture
def game():
    return start_two_player_game(rng=random.Random(7))


@pytest.fixture
def players(game):
    return [s.player for s in game.seats.order_by("number")]


def play_until(game, predicate, rng, limit=400):
    for _ in range(limit):
        game.refresh_from_db()
        if predicate(game):
            return game
        state = services.engine_state(game)
        seat = cribbage.to_act(state)[0]
        play_random_move(game, seat, rng=rng)
    raise AssertionError("state not reached")


# --- What the page shows ------------------------------------------------------


def test_a_player_sees_their_hand_the_board_and_a_crib_form(client, game, players):
    client.force_login(players[0])
    html = page(client, game)
    for code in hand_of(game, 0):
        assert f'name="cards" value="{code}"' in html
    assert "cribbage-board" in html and 'role="img"' in html
    view = selectors.view_for(game, 0)
    names = {p.seat: p.name for p in view.players}
    crib = "your" if view.crib_owner == 0 else f"{names[view.crib_owner]}’s"
    status = re.search(r'id="turn-status" role="status">\s*<strong>(.*?)</strong>', html, re.S).group(1)
    assert status == f"Lay away two cards to {crib} crib. {names[1]} is choosing too."
    assert "Lay away 2 cards" in html
    assert "not turned yet" in html


def test_a_spectator_sees_no_hand_and_no_move_forms(client, game):
    client.force_login(make_user())
    html = page(client, game)
    assert "You are watching this game" in html
    assert 'name="action"' not in html
    for seat in (0, 1):
        for code in hand_of(game, seat):
            assert not names(html, code)
    client.logout()
    html = page(client, game)
    assert "You are watching this game" in html and 'name="action"' not in html


def test_the_deadline_is_shown_in_the_viewers_time_zone(client, game, players):
    players[0].time_zone = "America/New_York"
    players[0].save()
    client.force_login(players[0])
    html = page(client, game)
    deadline = game.seats.get(number=0).deadline
    local = timezone.localtime(deadline, players[0].zone)
    assert f"{local:%a} {local.day} {local:%b}" in html and f"{local:%H:%M}" in html
    assert f"{deadline:%H:%M} UTC" not in html or local.utcoffset().total_seconds() == 0


# --- Moves through the forms -------------------------------------------------------


def test_laying_away_through_the_form(client, game, players):
    client.force_login(players[0])
    html = page(client, game)
    hand = hand_of(game, 0)
    response = post(client, game, {**form_fields(html, "discard"), "cards": hand[:2]})
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.events.filter(kind="discard", seat=0).exists()
    text = response.content.decode()
    assert "You laid away" in text and "Waiting for" in text


def test_only_playable_cards_are_active_and_a_card_is_played(client, game, players):
    rng = random.Random(3)
    play_until(game, lambda g: services.engine_state(g).phase == "play" and services.engine_state(g).count > 21, rng)
    view_seat = cribbage.to_act(services.engine_state(game))[0]
    client.force_login(players[view_seat])
    html = page(client, game)
    view = selectors.view_for(game, view_seat)
    for code in view.hand:
        button = re.search(rf'<button[^>]*name="card" value="{code}"[^>]*>', html).group(0)
        assert ("disabled" in button) == (code not in view.playable)
    assert view.playable  # a seat to act in the play always has a card that fits
    assert len(view.playable) < len(view.hand)  # ... and here one that does not (count > 21)
    card = view.playable[0]
    before = events(game)
    response = post(client, game, {**form_fields(html, "play"), "card": card})
    game.refresh_from_db()
    assert response.context is not None and messages_of(response) == []
    assert events(game) == before + 1
    last = game.events.order_by("-seq").first()
    assert (last.kind, last.seat, last.data["card"], last.source) == ("play", view_seat, card, "web")


def test_resigning_needs_the_confirmation_then_ends_the_game(client, game, players):
    client.force_login(players[1])
    fields = form_fields(page(client, game), "resign")
    before = events(game)
    response = post(client, game, fields)
    assert any("Tick the box" in m for m in messages_of(response))
    assert events(game) == before
    response = post(client, game, {**fields, "confirm": "1"})
    game.refresh_from_db()
    assert game.is_finished and game.finish == "resign" and game.winner_side == 0
    assert "Player" in response.content.decode() and "resigned" in response.content.decode()


# --- Bad input: a clear message and nothing changed ----------------------------------


def test_a_forged_card_you_do_not_hold(client, game, players):
    client.force_login(players[0])
    fields = form_fields(page(client, game), "discard")
    theirs = hand_of(game, 1)
    before = events(game)
    response = post(client, game, {**fields, "cards": [hand_of(game, 0)[0], theirs[0]]})
    assert any(
        m.startswith(f"You do not hold {theirs[0]}. Choose 2 of these for the crib: ") for m in messages_of(response)
    )
    assert events(game) == before
    # The refusal names no card of the other hand beyond the one typed.
    html = response.content.decode()
    assert not any(names(html, code) for code in theirs[1:])


def test_an_error_never_lists_the_other_players_legal_moves(client, game, players):
    """The engine's message lists every seat's legal moves; the page must not repeat them."""
    client.force_login(players[0])
    fields = form_fields(page(client, game), "discard")
    response = post(client, game, {**fields, "action": "play", "card": hand_of(game, 0)[0]})
    shown = messages_of(response)
    assert shown and "Legal moves" not in " ".join(shown)
    html = response.content.decode()
    assert not any(names(html, code) for code in hand_of(game, 1))
    assert events(game) == 2


def test_someone_elses_game_is_refused(client, game):
    client.force_login(make_user())
    response = post(
        client, game, {"action": "resign", "confirm": "1", "expected_seq": game.seq, "token": "ab" * 16}, follow=False
    )
    assert response.status_code == 403
    assert "You do not play in game" in response.content.decode()
    game.refresh_from_db()
    assert not game.is_finished and events(game) == 2


def test_moves_need_a_login(client, game):
    response = post(client, game, {"action": "resign", "confirm": "1"}, follow=False)
    assert response.status_code == 302 and "login" in response["Location"]
    assert events(game) == 2


def test_a_finished_game_takes_no_move(client, game, players):
    client.force_login(players[0])
    fields = form_fields(page(client, game), "discard")
    services.submit_move(game, 1, {"kind": "resign"})
    before = events(game)
    response = post(client, game, {**fields, "cards": hand_of(game, 0)[:2]})
    assert "This game is over." in messages_of(response)
    assert events(game) == before
    html = response.content.decode()
    assert 'name="action"' not in html and "resigned" in html


def test_a_stale_form_is_refused(client, game, players):
    rng = random.Random(5)
    play_until(game, lambda g: services.engine_state(g).phase == "play", rng)
    seat = cribbage.to_act(services.engine_state(game))[0]
    client.force_login(players[seat])
    html = page(client, game)
    fields = form_fields(html, "resign")
    # The game moves on (a play) after the page was rendered.
    play_random_move(game, seat, rng=rng)
    game.refresh_from_db()
    before = events(game)
    response = post(client, game, {**fields, "confirm": "1"})
    assert response.status_code == 409  # the page as it stands, not a redirect
    assert any("moved on" in m for m in messages_of(response))
    assert "moved on" in response.content.decode()
    game.refresh_from_db()
    assert events(game) == before and not game.is_finished


def test_the_same_form_sent_twice_counts_once(client, game, players):
    client.force_login(players[0])
    fields = {**form_fields(page(client, game), "discard"), "cards": hand_of(game, 0)[:2]}
    post(client, game, fields)
    after_first = events(game)
    assert after_first == 3
    response = post(client, game, fields)
    assert any("already made" in m for m in messages_of(response))
    assert events(game) == after_first


GARBLED = "That form was incomplete or out of date: nothing was changed. Please try again from this page."


@pytest.mark.parametrize(
    "broken,message",
    [
        ({"token": ""}, GARBLED),
        ({"token": "not a token!"}, GARBLED),
        ({"expected_seq": ""}, GARBLED),
        ({"expected_seq": "x"}, GARBLED),
        ({"action": "cheat"}, GARBLED),
        ({"cards": []}, "Choose the cards to lay away to the crib."),
        ({"action": "play"}, "Choose a card to play."),
        ({"action": "play", "card": ""}, "Choose a card to play."),
        ({"action": "count"}, "Say how many points you count."),
        ({"action": "count", "points": ""}, "Say how many points you count."),
    ],
)
def test_an_incomplete_or_garbled_form(client, game, players, broken, message):
    client.force_login(players[0])
    fields = {**form_fields(page(client, game), "discard"), "cards": hand_of(game, 0)[:2], **broken}
    seq = game.seq
    response = post(client, game, fields)
    assert messages_of(response) == [message]
    game.refresh_from_db()
    assert events(game) == 2 and game.seq == seq


def test_a_get_cannot_move(client, game, players):
    client.force_login(players[0])
    response = client.get(reverse("games:move", args=[game.pk]))
    assert response.status_code == 405
    assert events(game) == 2


def test_an_unknown_game_is_404(client):
    assert client.get(reverse("games:game", args=[999999])).status_code == 404


# --- Muggins -------------------------------------------------------------------------


def test_under_muggins_the_play_form_asks_for_a_claim_and_the_count_form_appears():
    # Exercised through a client on a muggins game: claim field, count form, muggins button.
    from django.test import Client

    game = start_two_player_game(rng=random.Random(11), muggins=True)
    players = [s.player for s in game.seats.order_by("number")]
    rng = random.Random(2)
    play_until(game, lambda g: services.engine_state(g).phase == "play", rng)
    seat = cribbage.to_act(services.engine_state(game))[0]
    client = Client()
    client.force_login(players[seat])
    html = page(client, game)
    assert 'name="claim"' in html
    play_until(game, lambda g: services.engine_state(g).phase == "show", rng)
    seat = cribbage.to_act(services.engine_state(game))[0]
    client.force_login(players[seat])
    html = page(client, game)
    fields = form_fields(html, "count")
    before = events(game)
    response = post(client, game, {**fields, "points": "0"})
    game.refresh_from_db()
    assert events(game) == before + 1
    # The other side may now call muggins (whether or not anything was missed).
    other = players[1 - seat]
    client.force_login(other)
    html = page(client, game)
    assert "Call muggins" in html
    fields = form_fields(html, "muggins")
    before = events(game)
    response = post(client, game, fields)
    game.refresh_from_db()
    assert response.context is not None and messages_of(response) == []  # taken: no error
    assert events(game) == before + 1
    last = game.events.order_by("-seq").first()
    assert (last.kind, last.seat, last.source) == ("muggins", 1 - seat, "web")


# --- JSON state and the record ---------------------------------------------------------


def test_state_json_tells_the_seq_and_no_cards(client, game, players):
    client.force_login(players[0])
    data = client.get(reverse("games:state", args=[game.pk])).json()
    assert data["seq"] == game.seq and data["your_turn"] is True
    text = json.dumps(data)
    assert not any(names(text, code) for seat in (0, 1) for code in hand_of(game, seat))


def test_the_record_of_a_finished_game_and_its_downloads(client):
    game = start_two_player_game(rng=random.Random(4), players=players_for_record(), target=61)
    rng = random.Random(9)
    while not game.is_finished:
        seat = cribbage.to_act(services.engine_state(game))[0]
        play_random_move(game, seat, rng=rng)
        game.refresh_from_db()
    seats = [s.player for s in game.seats.order_by("number")]
    client.force_login(seats[0])
    html = client.get(reverse("games:record", args=[game.pk])).content.decode()
    assert "Hand 1" in html and " won " in html
    text = client.get(reverse("games:record_txt", args=[game.pk]))
    assert text["Content-Disposition"] == f'attachment; filename="cribbage-game-{game.pk}.txt"'
    assert text.content.decode() == selectors.record_text(selectors.record_for(game, 0))
    data = client.get(reverse("games:record_json", args=[game.pk]))
    assert data["Content-Type"].startswith("application/json")
    assert json.loads(data.content) == json.loads(json.dumps(selectors.record_for(game, 0)))
    # A spectator's download holds nobody's dealt cards.
    client.logout()
    spectator = json.loads(client.get(reverse("games:record_json", args=[game.pk])).content)
    assert all(not hand["dealt"] for hand in spectator["hands"])


def players_for_record():
    return [make_user(allow_forced_moves=False), make_user(allow_forced_moves=False)]


def test_the_finished_game_page_shows_the_result_and_the_last_show(client):
    game = start_two_player_game(rng=random.Random(21), target=61)
    rng = random.Random(22)
    while not game.is_finished:
        seat = cribbage.to_act(services.engine_state(game))[0]
        legal = cribbage.legal_moves(services.engine_state(game), seat)
        services.submit_move(game, seat, rng.choice(legal), rng=rng)
        game.refresh_from_db()
    player = game.seats.get(number=0).player
    client.force_login(player)
    html = page(client, game)
    assert "won (reached 61)" in html
    assert 'name="action"' not in html
    assert "record" in html


# --- Practice against the computer ------------------------------------------------------------


def test_practice_starts_at_once_and_the_computer_replies_within_the_request(
    client, django_capture_on_commit_callbacks
):
    user = make_user(allow_forced_moves=False)
    client.force_login(user)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("games:practice"), {"level": "easy", "variant": "two", "target": "121"})
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    assert game.practice and game.seats.get(number=1).computer_level == "easy"
    html = page(client, game)
    assert "Advice (practice game)" in html
    fields = form_fields(html, "discard")
    with django_capture_on_commit_callbacks(execute=True):
        response = post(client, game, {**fields, "cards": hand_of(game, 0)[:2]})
    game.refresh_from_db()
    # The computer has laid away too: the starter is turned (or it is already its turn to play).
    assert game.events.filter(kind="discard").count() == 2
    assert "not turned yet" not in response.content.decode()


def test_practice_with_a_bad_level_is_refused(client):
    client.force_login(make_user())
    response = client.post(reverse("games:practice"), {"level": "grandmaster", "variant": "two", "target": "121"})
    assert response.status_code == 400
    assert messages_of(response) == ["No game was started: please correct the fields marked below."]
    error = "Select a valid choice. grandmaster is not one of the available choices."
    assert response.context["form"].errors == {"level": [error]}
    assert error in response.content.decode()
    assert not Game.objects.exists()


def test_practice_the_service_refuses_is_a_400_with_its_reason(client, monkeypatch):
    def refuse(*args):
        raise challenges.ChallengeError("Play to 121 or to 61.")

    monkeypatch.setattr(computer_games, "start_practice", refuse)
    client.force_login(make_user())
    response = client.post(reverse("games:practice"), {"level": "easy", "variant": "two", "target": "121"})
    assert response.status_code == 400 and "Play to 121 or to 61." in response.content.decode()
    assert not Game.objects.exists()


def test_the_deadline_moves_with_time(client, game, players):
    """No wall clock: the rendered deadline is the seat's own deadline."""
    client.force_login(players[0])
    html = page(client, game)
    deadline = game.seats.get(number=0).deadline
    assert deadline - timezone.now() <= timedelta(days=game.days_per_move)
    assert deadline.isoformat() in html


@pytest.mark.parametrize(
    "variant,seats,lay_away",
    [("three", 3, "Lay away 1 card to"), ("four", 4, "Lay away 1 card to"), ("five_card", 2, "Lay away 2 cards to")],
)
def test_practice_in_other_variants_fills_every_other_seat_with_the_computer(client, variant, seats, lay_away):
    user = make_user()
    client.force_login(user)
    response = client.post(reverse("games:practice"), {"level": "expert", "variant": variant, "target": "61"})
    game = Game.objects.get()
    assert response["Location"] == game.get_absolute_url()
    assert [(s.player, s.computer_level) for s in game.seats.order_by("number")] == [(user, "")] + [
        (None, "expert")
    ] * (seats - 1)
    html = page(client, game)
    assert lay_away in html
    assert len(re.findall(r"Lay away \d+ cards? to", html)) == 1


def test_laying_away_the_wrong_number_of_cards(client, game, players):
    client.force_login(players[0])
    fields = form_fields(page(client, game), "discard")
    response = post(client, game, {**fields, "cards": hand_of(game, 0)[:1]})
    assert response.status_code == 400
    assert any("exactly 2" in m for m in messages_of(response)) and "exactly 2" in response.content.decode()
    # Without JavaScript the refusal lists the hand to choose from, not the 15 pairs in email notation.
    (said,) = [m for m in messages_of(response) if "exactly 2" in m]
    assert said.startswith("Lay away exactly 2 cards to the crib, not 1. Choose 2 of these for the crib: ")
    listed = said.partition("for the crib: ")[2]
    assert "crib" not in listed and "," not in listed and len(listed.rstrip(".").split()) == 6
    assert events(game) == 2


def test_a_forged_play_of_a_card_too_high_for_the_count(client, game, players):
    rng = random.Random(3)
    play_until(
        game,
        lambda g: (
            services.engine_state(g).phase == "play"
            and len(selectors.view_for(g, cribbage.to_act(services.engine_state(g))[0]).playable)
            < len(selectors.view_for(g, cribbage.to_act(services.engine_state(g))[0]).hand)
        ),
        rng,
    )
    seat = cribbage.to_act(services.engine_state(game))[0]
    view = selectors.view_for(game, seat)
    too_high = next(c for c in view.hand if c not in view.playable)
    client.force_login(players[seat])
    fields = form_fields(page(client, game), "play")
    before = events(game)
    response = post(client, game, {**fields, "card": too_high})
    assert any("past 31" in m for m in messages_of(response))
    assert events(game) == before


def test_under_muggins_the_dealer_counts_the_crib_with_its_cards_in_view(client):
    import random

    from games import cribbage, services
    from tests.factories import start_two_player_game

    rng = random.Random(8)
    game = start_two_player_game(rng=rng, muggins=True)
    while True:
        state = services.engine_state(game)
        counting = cribbage.view(state, None)["counting"]
        if counting and counting["what"] == "crib":
            break
        seat = cribbage.to_act(state)[0]
        services.submit_move(game, seat, cribbage.legal_moves(state, seat)[-1], rng=rng)
        game.refresh_from_db()
        assert not game.is_finished
    dealer = game.seats.get(number=counting["seat"])
    client.force_login(dealer.player)
    html = client.get(reverse("games:game", args=[game.pk])).content.decode()
    form = html[html.index("count-form") :]
    form = form[: form.index("</form>")]
    assert "Count your crib" in form
    assert len(state.crib) == 4 and all(card_name_in(form, c.code) for c in state.crib)


def card_name_in(html, code):
    from games.cribbage import card_from_code
    from games.presentation import card_name

    return card_name(card_from_code(code)) in html


def test_the_coach_judges_a_discard_after_it_and_advises_before_only_in_practice(client):
    import random

    from games import cribbage, services
    from games.cribbage.strategy.analysis import discard_options
    from tests.factories import make_user, start_two_player_game

    me = make_user()
    practice = lifecycle.start_game(players=[me, None], practice=True, rng=random.Random(2))
    client.force_login(me)
    html = client.get(reverse("games:game", args=[practice.pk])).content.decode()
    state = services.engine_state(practice)
    hand = [cribbage.card_from_code(c) for c in cribbage.view(state, 0)["hand"]]
    best = discard_options(hand, state.dealer == 0)[0]
    assert "Advice (practice game)" in html and f"{float(best.total_ev):.2f}" in html

    people = start_two_player_game(players=[me, make_user()], rng=random.Random(2), help_on=True)
    page = client.get(reverse("games:game", args=[people.pk])).content.decode()
    assert "Advice" not in page and "Coach" not in page  # nothing before the move between people
    worst = discard_options(
        [cribbage.card_from_code(c) for c in cribbage.view(services.engine_state(people), 0)["hand"]],
        services.engine_state(people).dealer == 0,
    )[-1]
    services.submit_move(people, 0, {"kind": "discard", "cards": [c.code for c in worst.discard]})
    page = client.get(reverse("games:game", args=[people.pk])).content.decode()
    assert "Coach" in page and ("mistake" in page or "inaccuracy" in page)


def test_looking_at_the_game_page_is_noted_for_the_clock(client, game, players):
    from games.models import Seat

    client.force_login(players[0])
    assert Seat.objects.get(game=game, number=0).last_seen_at is None
    client.get(reverse("games:game", args=[game.pk]))
    assert Seat.objects.get(game=game, number=0).last_seen_at is not None
    assert Seat.objects.get(game=game, number=1).last_seen_at is None  # only the viewer's seat


def test_a_move_by_the_web_reads_the_game_once_and_costs_a_fixed_number_of_statements(game, players):
    """The POST reads the session and the player, then the service locks the game and reads its
    seats once (in one trip on PostgreSQL), writes the event(s), the game row, one UPDATE of the
    seats the move changed and the turn email's outbox row (one trip): six trips to the database
    at most at any point of a whole game, where it took 14, then 11, 10, then 7; the last move
    too (its result emails and the finished game's follow-ups go in the same trip). The test's
    own atomic block makes the move's transaction a savepoint: two of them. A client that leaves
    what is queued after commit (the email's sending) to the worker, as production does."""
    client, rng, counts = Client(), random.Random(11), []
    while not game.is_finished:
        state = services.engine_state(game)
        seat = cribbage.to_act(state)[0]
        move = rng.choice([m for m in cribbage.legal_moves(state, seat) if m["kind"] != "resign"])
        fields = {"action": move["kind"], "expected_seq": game.seq, "token": f"{game.seq:032x}"}
        fields.update(cards=move.get("cards", []), card=move.get("card", ""), points=move.get("points", ""))
        client.force_login(players[seat])
        with CaptureQueriesContext(connection) as queries:
            response = post(client, game, fields, follow=False)
        assert response.status_code == 302, messages_of(response)
        counts.append(len(queries))
        assert sum('FROM "games_game"' in q["sql"] for q in queries.captured_queries) == 1
        game.refresh_from_db()
    # (SQLite: each statement its own trip, and the last move's result emails and follow-ups two)
    apart, last = (4, 5) if connection.vendor != "postgresql" else (0, 0)
    assert game.seq > 100 and max(counts[:-1]) <= 6 + apart and counts[-1] <= 6 + last, counts


@pytest.mark.parametrize("help_on", [False, True])
def test_the_game_page_reads_the_table_once_in_a_fixed_number_of_statements(help_on):
    """Session, player, the game and its seats (one view of the table for the page and the coach),
    the player's mutes, blocks and note and the table talk (one statement), and the few the coach
    reads: the same bounded count from the first deal to the last hand, however long the log."""
    game = start_two_player_game(rng=random.Random(5), help_on=help_on)
    player = game.seats.get(number=0).player
    client, rng, counts = Client(), random.Random(5), []
    client.force_login(player)
    client.get(reverse("games:game", args=[game.pk]))  # the first look of the minute writes "seen"
    while not game.is_finished:
        if game.seq % 7 == 0:
            with CaptureQueriesContext(connection) as queries:
                assert client.get(reverse("games:game", args=[game.pk])).status_code == 200
            counts.append(len(queries))
            assert sum('FROM "games_game"' in q["sql"] for q in queries.captured_queries) == 1
        state = services.engine_state(game)
        seat = cribbage.to_act(state)[0]
        move = rng.choice([m for m in cribbage.legal_moves(state, seat) if m["kind"] != "resign"])
        game = services.submit_move(game, seat, move).game
    # Five statements (seven with the coach), one more should a minute pass and "seen" be written.
    assert len(counts) > 5 and max(counts) <= (7 if help_on else 5) + 1, counts


def test_the_hand_is_shown_in_card_order_and_the_state_keeps_the_deal(client, game, players):
    """The page lists the hand low to high (suit order ♠ ♥ ♦ ♣), as the emails do; the engine's
    hand keeps its dealt order, and each tick box still posts its own card."""
    client.force_login(players[0])
    dealt = hand_of(game, 0)
    in_order = [c.code for c in sorted(cribbage.card_from_code(c) for c in dealt)]
    assert dealt != in_order  # this deal is not already sorted: the test would prove nothing
    html = page(client, game)
    assert re.findall(r'name="cards" value="(\w+)"', html) == in_order
    assert re.findall(r'<label class="card-pick" data-card="(\w+)"', html) == in_order
    assert hand_of(game, 0) == dealt

    fields = form_fields(html, "discard")
    post(client, game, {**fields, "cards": in_order[:2]})
    game.refresh_from_db()
    assert sorted(selectors.view_for(game, 0).my_discards) == sorted(in_order[:2])
