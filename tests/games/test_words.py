"""The words of the game page and the turn email, in every phase: no doubled spaces, no space
before punctuation, no "1 days"-style plurals, "You deal" and not "You deals"."""

import html as html_lib
import random
import re

import pytest
from django.core import mail
from django.urls import reverse

from games import challenges, cribbage, services
from mail.rendering import _record_line, turn_message
from tests.factories import committed, finish_game, make_user, play_random_move, start_two_player_game

pytestmark = pytest.mark.django_db

NOUNS = "days|hours|minutes|points|cards|games|moves|holes|reminders|weeks|hands"
SINGULAR_PLURAL = re.compile(rf"(?<![\d.,])1 ({NOUNS})\b")
SPACE_BEFORE = re.compile(r"\S[ \t]+[,.:;](?!\.)")  # "Bob : ", "move ." (not an ellipsis "...")
# Two spaces between words; three or more set plain-text columns apart, and the board's rows align.
DOUBLED = re.compile(r"\S {2}(?! )\S")
BOARD_ROW = re.compile(r"\[[^\]]*\]\s+\d+/\d+")


INLINE = re.compile(r"</?(a|abbr|b|code|em|i|kbd|small|span|strong|sup|sub|time)\b[^>]*>")


def visible_text(page):
    """The text a reader sees: no head, scripts or styles; inline tags run on, the others break."""
    body = re.sub(r"(?s)<(head|script|style|svg)\b.*?</\1>", " ", page)
    body = re.sub(r"<[^>]+>", " ", INLINE.sub("", body))
    return re.sub(r"\s+", " ", html_lib.unescape(body))


def word_faults(text, *, collapse=False):
    """Every word fault in `text` (a page's visible text, collapsed; or an email's lines)."""
    lines = [text] if collapse else text.splitlines()
    faults = []
    for line in lines:
        if not collapse and DOUBLED.search(line.strip()) and not BOARD_ROW.search(line):
            faults.append(("doubled space", line))
        for pattern, what in (
            (SPACE_BEFORE, "space before punctuation"),
            (SINGULAR_PLURAL, "plural after 1"),
            (re.compile(r"\bYou deals\b"), "You deals"),
        ):
            for m in pattern.finditer(line):
                faults.append((what, line[max(0, m.start() - 40) : m.end() + 40]))
    return faults


def check_page(client, game, user):
    client.force_login(user)
    response = client.get(reverse("games:game", args=[game.pk]))
    assert response.status_code == 200
    page = response.content.decode()
    return word_faults(visible_text(page), collapse=True)  # a browser shows no doubled space


def check_turn_email(game, seat, user):
    message = turn_message(game, seat, user)
    html = message.alternatives[0][0] if message.alternatives else ""
    return word_faults(message.subject) + word_faults(message.body) + word_faults(visible_text(html), collapse=True)


def play_until(game, phase, rng, limit=400):
    for _ in range(limit):
        state = services.engine_state(game)
        if state.phase == phase:
            return state
        play_random_move(game, cribbage.to_act(state)[0], rng=rng)
        game.refresh_from_db()
    raise AssertionError(f"{phase} not reached")


@pytest.fixture
def alice():
    return make_user(display_name="Alice")


@pytest.fixture
def bob():
    return make_user(display_name="Bob")


@pytest.mark.parametrize("phase", ["discard", "play", "show"])
def test_the_game_page_and_the_turn_email_read_well_in_each_phase(client, alice, bob, phase):
    rng = random.Random(11)
    game = start_two_player_game(players=[alice, bob], rng=rng, days_per_move=1, muggins=True)
    state = play_until(game, phase, rng)
    faults = []
    for seat, user in ((0, alice), (1, bob)):
        faults += check_page(client, game, user)
        if seat in cribbage.to_act(state):
            faults += check_turn_email(game, seat, user)
    assert not faults, "\n".join(map(repr, sorted(set(faults))))


def test_the_finished_game_page_reads_well(client, alice, bob):
    game = finish_game(start_two_player_game(players=[alice, bob]), winner=0)
    faults = check_page(client, game, alice) + check_page(client, game, bob)
    assert not faults, "\n".join(map(repr, sorted(set(faults))))


def test_the_dealer_reads_you_deal_and_the_pone_reads_who_deals(client, alice, bob):
    game = start_two_player_game(players=[alice, bob], rng=random.Random(3))
    dealer = services.engine_state(game).dealer
    me, other = (alice, bob) if dealer == 0 else (bob, alice)
    client.force_login(me)
    assert "deal: the crib is yours" in visible_text(client.get(reverse("games:game", args=[game.pk])).content.decode())
    client.force_login(other)
    assert "deals: the crib is theirs" in visible_text(
        client.get(reverse("games:game", args=[game.pk])).content.decode()
    )


def test_the_challenge_page_and_email_read_well(client, alice, bob):
    with committed():
        challenge = challenges.create_challenge(alice, [bob], days_per_move=3)
        challenges.create_seek(alice, days_per_move=1)
    faults = []
    for user in (alice, bob):
        client.force_login(user)
        page = client.get(reverse("games:challenge", args=[challenge.pk])).content.decode()
        assert "not answered yet" in page
        faults += word_faults(visible_text(page), collapse=True)
        for name in ("games:seeks", "games:my_games"):  # the settings of each open challenge and seek
            faults += word_faults(visible_text(client.get(reverse(name)).content.decode()), collapse=True)
    sent = [m for m in mail.outbox if m.to == [bob.email]]
    assert sent
    for message in sent:
        faults += word_faults(message.subject) + word_faults(message.body)
        faults += word_faults(visible_text(message.alternatives[0][0]), collapse=True)
    assert not faults, "\n".join(map(repr, sorted(set(faults))))


def test_his_heels_and_three_for_last_are_said_once_as_at_the_table():
    names = {0: "Alice", 1: "Bob"}
    heels = {"seat": 1, "phase": "heels", "points": 2, "text": "two for his heels is two"}
    start = {"seat": 0, "phase": "start", "points": 3, "text": "three for last is three"}
    assert _record_line(heels, names) == "Bob turned a jack for the starter: two for his heels"
    assert (
        _record_line(start, names)
        == "Alice pegged three for last at the start (five-card cribbage gives the pone three)"
    )
    play = {"seat": 0, "phase": "play", "points": 2, "text": "fifteen two"}
    assert _record_line(play, names) == "Alice pegged 2: fifteen two"


def test_the_checker_finds_each_fault():
    assert [f[0] for f in word_faults("3 days per move .")] == ["space before punctuation"]
    assert [f[0] for f in word_faults("Bob : not answered yet")] == ["space before punctuation"]
    assert [f[0] for f in word_faults("1 days left")] == ["plural after 1"]
    assert [f[0] for f in word_faults("You  deal")] == ["doubled space"]
    assert word_faults("You deal: 1 day left, 2 days in all; fifteen two...") == []
