"""The rules and help page answers at /help/, counts its examples with the engine, lists every reply
word the reply readers know, and is linked from every page and from the foot of every email."""

import re
from pathlib import Path

import pytest
from django.core import mail
from django.urls import reverse

from clock import replies as clock_replies  # noqa: F401  registers the clock's words
from mail import game_replies, messages, parsing, service_replies
from tests.factories import committed, make_user, start_two_player_game

pytestmark = pytest.mark.django_db


def page(client):
    response = client.get(reverse("help"))
    assert response.status_code == 200
    return response.content.decode()


def test_the_help_page_has_the_rules_of_every_variant_with_counted_examples(client):
    html = page(client)
    for heading in (
        "two players to 121",
        "The 61-point game",
        "Muggins",
        "Three players",
        "Four players in partnerships",
        "Five-card cribbage",
    ):
        assert heading in html
    # The 29 hand, counted by the engine as the calculator counts it.
    assert re.search(r"<td>[^<]*nob is twenty-nine</td><td>29</td>", html)
    # A crib's four-card flush does not score; the hand's does.
    assert "<td>fifteen two, and a four-card flush is six</td><td>6</td>" in html
    assert "(a crib)</span></td><td>" in html and "<td>fifteen two</td><td>2</td>" in html
    # One count of the play: a pair, a fifteen, then 7 6 5 after the 4 make a run of four.
    assert "<td>8</td><td>2: a pair is two</td>" in html and "<td>15</td><td>2: fifteen two</td>" in html
    assert "<td>26</td><td>4: a run of four is four</td>" in html


def test_the_help_page_lists_every_reply_word(client):
    html = page(client)
    keywords = set(parsing._KEYWORDS) - {"?", "extend"}
    words = keywords | {"crib", "play", "plan", "count", "muggins", "resign", "more time", "note", "say"}
    words |= {"challenge NAME", "accept", "decline", "withdraw"}
    for word in words:
        assert re.search(rf"^\s+{re.escape(word)}\b", html, re.M), word
    assert game_replies.REPLY_WORDS.keys() >= {"more_time", "claim"}


def test_every_page_links_the_help_page(client):
    for url in ("/", reverse("accounts:login"), reverse("games:calculator"), reverse("help"), "/no-such-page/"):
        assert f'href="{reverse("help")}"' in client.get(url).content.decode()
    # Every page template is drawn on base.html (its header and foot link the help) or links it itself;
    # the admin's pages are the staff's own.
    templates = Path(__file__).resolve().parents[2] / "templates"
    for path in templates.rglob("*.html"):
        if path.name.startswith("_") or path.parent.name in ("email", "admin", "forms") or "admin" in path.parts:
            continue
        text = path.read_text()
        assert '{% extends "base.html" %}' in text or 'href="/help/"' in text or "{% url 'help' %}" in text, path


def test_every_email_ends_with_the_help_page(settings):
    settings.SITE_URL = "https://cribbage.example"
    user = make_user(display_name="Alice")
    message = messages.build(
        "accounts/email/confirm", {"user": user, "url": "https://cribbage.example/x", "days": 3}, to=user.email
    )
    assert message.body.rstrip().endswith("Rules and help: https://cribbage.example/help/")
    html, _ = message.alternatives[0]
    assert 'href="https://cribbage.example/help/"' in html
    # Pasted back in a reply, the line is ours, never read as a word.
    assert parsing.read_command(["Rules and help: https://cribbage.example/help/"]) is None


# The words of everything by email, each as the player writes it.
BY_EMAIL = ["new game", "new game computer", "games", "vacation 3", "back", "enter", "withdraw", "sign up"]


def test_every_word_of_everything_by_email_is_in_the_help_the_readme_and_the_turn_email(client):
    html = page(client)
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    for word in BY_EMAIL + ["plan always"]:
        assert f"`{word}" in readme, word
        assert re.search(rf"^\s+{re.escape(word)}\b", html, re.M), word
    for word in BY_EMAIL:
        assert re.search(rf"^\s+{re.escape(word)}\b", service_replies.HELP, re.M), word
    # A turn email lists the words that fit a game's email and sends the rest to the service's help.
    alice = make_user("alice@example.com", "Alice")
    with committed():
        start_two_player_game(players=[alice, make_user()])
    [turn] = [m for m in mail.outbox if m.to == [alice.email] and m.tags == ["turn"]]
    for word in ("games", "vacation N", '"back"', "plan always"):
        assert word in turn.body, word
    footer = f'A new game, your games, a vacation: write "help" to {service_replies.service_address()}'
    assert footer in turn.body and footer in turn.alternatives[0][0]
