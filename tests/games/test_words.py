"""The words of every email and of every page of a game, in every phase: no doubled spaces, no
space before punctuation, no line that starts with it, no "1 days"-style plurals, "You deal" and
not "You deals", no raw escapes or template syntax ("\\u2666", "&amp;amp;", "{{", "None")."""

import html as html_lib
import random
import re
from types import SimpleNamespace

import pytest
from django.core import mail
from django.urls import reverse

from games import challenges, cribbage, services
from games.presenter.table_text import recent_lines, record_line
from games.selectors import view_for
from mail import links
from mail.rendering import result_message, turn_message
from tests.factories import committed, finish_game, make_user, play_random_move, start_two_player_game
from tests.mail.test_every_email import EMAILS

pytestmark = pytest.mark.django_db

NOUNS = "days|hours|minutes|points|cards|games|moves|holes|reminders|weeks|hands"
SINGULAR_PLURAL = re.compile(rf"(?<![\d.,])1 ({NOUNS})\b")
SPACE_BEFORE = re.compile(r"\S[ \t]+[,.:;](?!\.)")  # "Bob : ", "move ." (not an ellipsis "...")
# Two spaces between words; three or more set plain-text columns apart, and the board's rows align.
DOUBLED = re.compile(r"\S {2}(?! )\S")
BOARD_ROW = re.compile(r"\[[^\]]*\]\s+\d+/\d+")
COLUMNS = re.compile(r"\S {3,}\S")  # a table in plain text: its columns padded apart


INLINE = re.compile(r"</?(a|abbr|b|code|em|i|kbd|small|span|strong|sup|sub|time)\b[^>]*>")


def visible_text(page):
    """The text a reader sees: no head, scripts or styles; inline tags run on, the others break."""
    body = re.sub(r"(?s)<(head|script|style|svg)\b.*?</\1>", " ", page)
    body = re.sub(r"<[^>]+>", " ", INLINE.sub("", body))
    return re.sub(r"\s+", " ", html_lib.unescape(body))


# What a reader must never see: an escape written out, HTML entities in text, template syntax.
RAW = [
    (re.compile(r"\\u[0-9a-fA-F]{4}|\\x[0-9a-fA-F]{2}"), "raw escape"),
    (re.compile(r"&(amp|lt|gt|quot|#x?[0-9a-fA-F]+);"), "HTML entity in text"),
    (re.compile(r"\{\{|\}\}|\{%|%\}|\{#|#\}"), "template syntax"),
    (re.compile(r"\bNone\b"), "None"),
    (re.compile(r"\b(True|False)\b"), "a Python truth value"),
]
LINE_STARTS_WITH_PUNCTUATION = re.compile(r"^\s*[.,;:!?](?!\.)")


def word_faults(text, *, collapse=False):
    """Every word fault in `text` (a page's visible text, collapsed; or an email's lines)."""
    lines = [text] if collapse else text.splitlines()
    faults = []
    for line in lines:
        if not collapse and DOUBLED.search(line.strip()) and not (BOARD_ROW.search(line) or COLUMNS.search(line)):
            faults.append(("doubled space", line))
        if not collapse and LINE_STARTS_WITH_PUNCTUATION.search(line):
            faults.append(("line starts with punctuation", line))
        for pattern, what in (
            (SPACE_BEFORE, "space before punctuation"),
            (SINGULAR_PLURAL, "plural after 1"),
            (re.compile(r"\bYou deals\b"), "You deals"),
            *RAW,
        ):
            for m in pattern.finditer(line):
                faults.append((what, line[max(0, m.start() - 40) : m.end() + 40]))
    return faults


def page_faults(page, where=""):
    """The faults of an HTML page or email part: its visible text, and the escapes in its source."""
    faults = word_faults(visible_text(page), collapse=True)  # a browser shows no doubled space
    faults += [("double escape", where) for _ in re.finditer(r"&amp;(amp|lt|gt|quot|#)", page)]
    faults += [("template syntax", where) for _ in re.finditer(r"\{\{|\{%", page)]
    return faults


def check_page(client, game, user, name="games:game"):
    client.force_login(user)
    response = client.get(reverse(name, args=[game.pk]))
    assert response.status_code == 200
    return page_faults(response.content.decode(), f"{name} for {user}")


def message_faults(message):
    html = message.alternatives[0][0] if message.alternatives else ""
    return word_faults(message.subject) + word_faults(message.body) + page_faults(html, message.subject)


def check_turn_email(game, seat, user):
    return message_faults(turn_message(game, seat, user))


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
    assert record_line(heels, names) == "Bob turned a jack for the starter: two for his heels"
    assert (
        record_line(start, names)
        == "Alice pegged three for last at the start (five-card cribbage gives the pone three)"
    )
    play = {"seat": 0, "phase": "play", "points": 2, "text": "fifteen two"}
    assert record_line(play, names) == "Alice pegged 2: fifteen two"


def test_the_checker_finds_each_fault():
    assert [f[0] for f in word_faults("3 days per move .")] == ["space before punctuation"]
    assert [f[0] for f in word_faults("Bob : not answered yet")] == ["space before punctuation"]
    assert [f[0] for f in word_faults("1 days left")] == ["plural after 1"]
    assert [f[0] for f in word_faults("You  deal")] == ["doubled space"]
    assert word_faults("You deal: 1 day left, 2 days in all; fifteen two...") == []


def test_the_since_block_tells_his_heels_once():
    view = SimpleNamespace(
        viewer=0,
        phase="play",
        players=(SimpleNamespace(seat=0, name="Alice"), SimpleNamespace(seat=1, name="Bob")),
        plays=({"seat": 0, "card": "7C", "go": False, "count": 7, "points": 0, "round": 0},),
        records=({"seat": 1, "phase": "heels", "points": 2, "text": "two for his heels is two"},),
    )
    heels = "Bob turned a jack for the starter: two for his heels"
    assert heels in recent_lines(SimpleNamespace(**{**vars(view), "plays": ()}))  # the starter was just turned
    assert heels not in recent_lines(view)  # told in the email before Alice's first play
    bob = SimpleNamespace(
        **{**vars(view), "viewer": 1}
    )  # Bob has not played yet: his email after Alice's play tells it
    assert heels in recent_lines(bob)


# --- Every email kind, and every page of a game in every phase -------------------------------

NAMES = ["Alice", "Bob", "Carol", "Dave"]
SEATS = {"two": 2, "three": 3, "four": 4, "five_card": 2}


@pytest.mark.parametrize("name, cause, kind", EMAILS, ids=[name for name, _, _ in EMAILS])
def test_every_email_kind_reads_well(settings, name, cause, kind):
    settings.SITE_URL = "https://cribbage.example"
    with committed():
        cause()
    built = [m for m in mail.outbox if m.tags == [name]]
    assert built
    faults = [fault for message in mail.outbox for fault in message_faults(message)]
    assert not faults, "\n".join(map(repr, sorted(set(faults))))


def game_faults(client, game, players):
    """The faults of every page and email of `game` as it stands, for each seat."""
    faults = []
    game.refresh_from_db()
    for seat, user in enumerate(players):
        faults += check_page(client, game, user) + check_page(client, game, user, "games:record")
        view = view_for(game, seat)
        if game.is_finished:
            faults += message_faults(result_message(game, seat, user))
            continue
        if seat in view.to_act:
            faults += check_turn_email(game, seat, user)
        for move in view.legal_moves[:1]:  # the move link's page
            url = links.move_url(game.pk, seat, view.seq, move)
            page = client.get(re.sub(r"^https?://[^/]+", "", url))
            assert page.status_code == 200
            faults += page_faults(page.content.decode(), f"move link page for {user}")
    return faults


@pytest.mark.parametrize(
    "variant, muggins",
    [("two", False), ("two", True), ("three", False), ("three", True), ("four", False), ("four", True)],
    ids=["two", "two-muggins", "three", "three-muggins", "four", "four-muggins"],
)
def test_every_page_and_email_of_a_game_reads_well_in_every_phase(client, variant, muggins):
    rng = random.Random(5)
    players = [make_user(display_name=n, allow_forced_moves=False) for n in NAMES[: SEATS[variant]]]
    game = start_two_player_game(variant, players=players, rng=rng, days_per_move=1, muggins=muggins)
    faults = []
    for phase in ["discard", "play"] + (["show"] if muggins else []):
        play_until(game, phase, rng)
        faults += game_faults(client, game, players)
    if variant == "two" and not muggins:
        finish_game(game, winner=1)
    else:
        services.submit_move(game, 0, {"kind": "resign"})
    faults += game_faults(client, game, players)
    assert not faults, "\n".join(map(repr, sorted(set(faults))))
