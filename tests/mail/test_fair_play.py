"""Fair play: a game between people has no engine help in any email, page, state JSON or
record until it ends, and then every player gets the full review (by reply, "review", too).

Each game is played wholly by email: every turn email is answered once, in the order it
came, with one of the move lines it lists, through the inbound reader as a provider's
webhook hands it over.
"""

import json
import random
import re
from collections import deque

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from games import challenges
from games.cribbage import card_from_code
from games.models import Game
from mail import links, reception
from tests.factories import make_user, start_two_player_game

from .conftest import reply

MOVE_LINE = re.compile(
    r"^(?P<words>(crib|play|count|muggins)\b.*?)(\s{3}\(.*\))?\s{3}(?P<url>https?://\S+/m/move/\S+/)$", re.MULTILINE
)
# What engine help looks like wherever it appears: an expected value, a verdict, the coach, advice.
HELP = re.compile(
    r"expected -?\d|\b-?\d+\.\d\d\b|The coach|Coach<|Best was|best throw|inaccura|mistake|"
    r"Advice|verdict|lost against the best|calculator/\?|win chance|chance to win",
    re.IGNORECASE,
)


def helpless(text, where):
    found = HELP.search(re.sub(r"https?://\S+", "", text))
    assert found is None, f"engine help in {where}: …{text[max(0, found.start() - 120) : found.end() + 80]}…"


def deliver(message, on_commit):
    with on_commit():
        reception.receive(message, esp_name="test")


def look_at_everything(game, players, seat_clients):
    """Every player's page, state JSON and record (page, text, JSON): no help anywhere."""
    for seat, client in seat_clients.items():
        page = client.get(reverse("games:game", args=[game.pk])).content.decode()
        helpless(page, f"the game page of seat {seat}")
        assert "No engine help in this game until it ends" in page
        state = client.get(reverse("games:state", args=[game.pk]))
        helpless(json.dumps(state.json()), f"the state JSON of seat {seat}")
        for name in ("games:record", "games:record_txt", "games:record_json"):
            helpless(client.get(reverse(name, args=[game.pk])).content.decode(), f"{name} of seat {seat}")


def play_wholly_by_email(game, on_commit, rng, check_every=10, most_replies=600, stop_after=None):
    """Answer every turn email until the game ends (or `stop_after` replies); returns
    ({address: game-over email}, {seat: logged-in client})."""
    players = {s.number: s.player for s in game.seats.select_related("player")}
    seat_clients = {}
    for seat, player in players.items():
        seat_clients[seat] = Client()
        seat_clients[seat].force_login(player)
    queue, results, seen, moves = deque(), {}, 0, 0
    while True:
        for message in mail.outbox[seen:]:
            if message.tags == ["result"]:
                results[message.to[0]] = message
                continue
            helpless(message.body, f"the email {message.subject!r}")
            helpless(message.alternatives[0][0], f"the HTML of {message.subject!r}")
            if message.tags == ["turn"]:
                queue.append(message)
        seen = len(mail.outbox)
        game.refresh_from_db()
        if game.is_finished:
            assert set(results) == {p.email for p in players.values()}, "one game-over email each"
            return results, seat_clients
        if moves % check_every == 0:
            look_at_everything(game, players, seat_clients)
        if stop_after is not None and moves >= stop_after:
            look_at_everything(game, players, seat_clients)
            return results, seat_clients
        assert moves < most_replies, f"the game is not over after {moves} replies: at seq {game.seq}"
        assert queue, f"no turn email to answer at seq {game.seq}: " + "\n".join(
            m.subject + m.body[:600] for m in mail.outbox[-2:]
        )
        message = queue.popleft()
        _, seat = links.read_reply_address(message.reply_to[0])
        lines = [m["words"] for m in MOVE_LINE.finditer(message.body)]
        assert lines, message.body
        words = rng.choice([w for w in lines if w != "muggins"] or lines)
        words = words.replace("claim N", "claim 0").replace("count N", "count 0")
        deliver(reply(game, seat, words), on_commit)
        moves += 1


VARIANTS = [
    ("two", 121, False),
    ("two", 61, False),
    ("two", 61, True),
    ("three", 61, False),
    ("four", 61, False),
    ("five_card", 61, False),
]


@pytest.mark.parametrize("variant, target, muggins", VARIANTS)
def test_a_game_between_people_has_no_help_until_it_ends_then_the_review(db, on_commit, variant, target, muggins):
    from games.models import SEATS_BY_VARIANT

    rng = random.Random(f"{variant}{target}{muggins}")
    players = [make_user(allow_forced_moves=False, password=None) for _ in range(SEATS_BY_VARIANT[variant])]
    with on_commit():
        game = start_two_player_game(
            variant=variant, players=players, target=target, muggins=muggins, rng=random.Random(rng.random())
        )
    assert game.assistance == Game.Assistance.OFF
    first = [m for m in mail.outbox if m.tags == ["turn"]]
    assert first and all(
        "No engine help in this game until it ends" in m.body and "the players chose to play without it" in m.body
        for m in first
    )
    # The discards in a neutral order, by rank and suit, with the cards each keeps.
    crib_lines = [m["words"] for m in MOVE_LINE.finditer(first[0].body) if m["words"].startswith("crib")]
    order = [sorted(card_from_code(c).index for c in line.split()[1:]) for line in crib_lines]
    assert len(crib_lines) >= 5 and order == sorted(order) and "(keep " in first[0].body

    if muggins:
        # Claiming 0 for every play and show, nobody ever scores under muggins: the game is
        # played by email for several hands, then left (its end is covered by the others).
        play_wholly_by_email(game, on_commit, rng, stop_after=40)
        return
    results, seat_clients = play_wholly_by_email(game, on_commit, rng)

    # After the end: the review for every player, offered in the game-over email and sent on "review".
    for seat, client in seat_clients.items():
        player = game.seats.get(number=seat).player
        over = results[player.email]
        assert 'Reply "review" for the whole review' in over.body
        assert re.search(r"The cards: [+-]\d+\.\d for you", over.body)
        page = client.get(reverse("games:game", args=[game.pk])).content.decode()
        assert 'id="review"' in page and "Luck and skill" in page and "Hand 1" in page
        assert re.search(r"You threw .*?\d+\.\d\d expected", re.sub(r"<[^>]+>|\s+", " ", page))
        mail.outbox.clear()
        deliver(reply(game, seat, "review"), on_commit)
        (sent,) = mail.outbox
        assert sent.subject == f"The review — {' v '.join(_sides(game))} (game {game.pk})"
        assert sent.to == [player.email]
        assert "Hand by hand:" in sent.body and "Luck and skill" in sent.body
        assert re.search(
            r"You threw .+: -?\d+\.\d\d expected\. (The best throw\.|Best was .+: -?\d+\.\d\d \()", sent.body
        )
        assert "Hand 1" in sent.alternatives[0][0]
        if variant in ("two", "five_card"):  # a win-chance table: the chart, the swings, each cost
            flat = re.sub(r"<[^>]+>|\s+", " ", page)
            assert "<svg" in page and "Your chance to win before each hand" in page
            assert "The biggest swings" in flat and re.search(r"Hand \d+: your .+ cost \d+(\.\d)?% win chance", flat)
            assert re.search(r"The biggest swing: hand \d+: your .+ cost \d+(\.\d)?% win chance", over.body)
            assert "Your chance to win before each hand: " in sent.body and "% win chance" in sent.body


def _sides(game):
    from games.presenter.table_text import side_names
    from games.selectors import view_for

    return side_names(view_for(game, None))


def test_review_before_the_end_says_when_it_opens_and_gives_nothing(game, on_commit):
    mail.outbox.clear()
    deliver(reply(game, 0, "review"), on_commit)
    (answer,) = mail.outbox
    assert "The review opens when the game ends" in answer.body
    helpless(answer.body, "the answer to an early review")


# --- Help on for both -------------------------------------------------------------------------


def test_help_on_for_both_is_shown_on_the_challenge_and_gives_help_to_both(db, on_commit):
    alice = make_user("alice@example.com", "Alice", allow_forced_moves=False, password=None)
    bob = make_user("bob@example.com", "Bob", allow_forced_moves=False, password="pw-Secret-123")
    with on_commit():
        challenge = challenges.create_challenge(alice, [bob], help_on=True)
    (notice,) = mail.outbox
    assert "help on for both" in notice.body.lower()
    client = Client()
    client.force_login(bob)
    page = client.get(challenge.get_absolute_url()).content.decode()
    assert "help on for both" in page
    mail.outbox.clear()
    with on_commit():
        challenges.accept(challenge, bob)
    challenge.refresh_from_db()
    game = challenge.game
    assert game.assistance == Game.Assistance.COACH
    turns = [m for m in mail.outbox if m.tags == ["turn"]]
    assert {m.to[0] for m in turns} == {"alice@example.com", "bob@example.com"}
    for message in turns:
        assert "Help is on for every player" in message.body
        values = [float(v) for v in re.findall(r"expected (-?\d+\.\d\d) points", message.body)]
        assert len(values) == 15 and values == sorted(values, reverse=True)


def test_a_challenge_without_the_box_ticked_has_no_help(db, client):
    alice, bob = make_user(), make_user()
    client.force_login(alice)
    response = client.post(
        reverse("games:new_challenge"), {"player1": bob.email, "variant": "two", "target": "121", "days_per_move": "3"}
    )
    assert response.status_code == 302
    challenge = alice.challenges_made.get()
    assert not challenge.help_on
    assert "no engine help until the game ends" in client.get(challenge.get_absolute_url()).content.decode()
    response = client.post(
        reverse("games:new_challenge"),
        {"player1": make_user().email, "variant": "two", "target": "121", "days_per_move": "3", "help_on": "on"},
    )
    assert alice.challenges_made.filter(help_on=True).count() == 1
