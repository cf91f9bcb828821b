"""Bad input through the site's forms and addresses: never a 5xx, and nothing changes.

Each case is what a person (or a script) can send: numbers out of range, negative or huge,
words for numbers, NUL and other control characters, invalid UTF-8 (percent-encoded bytes
that are no character), unknown ids, ids past any database integer.
"""

import random

import pytest

from games.selectors import view_for
from tests.factories import make_user, start_two_player_game

pytestmark = pytest.mark.django_db

HUGE = "9" * 30  # past PostgreSQL's bigint
NUL = "a\x00b"
BAD_UTF8 = "%ED%A0%80%FF"  # a lone surrogate's bytes, then a byte that starts nothing


@pytest.fixture
def table(client, django_capture_on_commit_callbacks):
    alice = make_user("alice@example.com", "Alice", allow_forced_moves=False)
    bob = make_user("bob@example.com", "Bob", allow_forced_moves=False)
    with django_capture_on_commit_callbacks(execute=True):
        game = start_two_player_game(players=[alice, bob], rng=random.Random(7))
    client.force_login(alice)
    return game


def move(game, **fields):
    hand = list(view_for(game, 0).hand)
    return {"action": "discard", "expected_seq": str(game.seq), "token": "t" * 20, "cards": hand[:2], **fields}


# (name, method, path with {game}, form data (a dict, or a callable of the game, or raw urlencoded text))
CASES = [
    ("move-empty", "post", "/games/{game}/move/", {}),
    ("move-unknown-action", "post", "/games/{game}/move/", lambda g: move(g, action="teleport")),
    ("move-seq-negative", "post", "/games/{game}/move/", lambda g: move(g, expected_seq="-3")),
    ("move-seq-huge", "post", "/games/{game}/move/", lambda g: move(g, expected_seq=HUGE)),
    ("move-seq-words", "post", "/games/{game}/move/", lambda g: move(g, expected_seq="three")),
    ("move-card-nul", "post", "/games/{game}/move/", lambda g: move(g, cards=[NUL, "5H"])),
    ("move-card-not-held", "post", "/games/{game}/move/", lambda g: move(g, cards=["ZZ", "1X"])),
    ("move-claim-negative", "post", "/games/{game}/move/", lambda g: move(g, action="play", card="5H", claim="-3")),
    ("move-claim-huge", "post", "/games/{game}/move/", lambda g: move(g, action="play", card="5H", claim=HUGE)),
    ("move-points-negative", "post", "/games/{game}/move/", lambda g: move(g, action="count", points="-1")),
    ("move-token-nul", "post", "/games/{game}/move/", lambda g: move(g, token="t" * 10 + "\x00" * 10)),
    (
        "move-bad-utf8",
        "raw",
        "/games/{game}/move/",
        "action=discard&expected_seq=0&token=tttttttttttttttttttt&cards=" + BAD_UTF8,
    ),
    ("plan-nul", "post", "/games/{game}/plan/", {"order": NUL, "token": "t" * 20}),
    ("plan-bad-utf8", "raw", "/games/{game}/plan/", "order_1=" + BAD_UTF8),
    ("more-time-negative", "post", "/games/{game}/more-time/", {"seat": "1", "days": "-3"}),
    ("more-time-zero", "post", "/games/{game}/more-time/", {"seat": "1", "days": "0"}),
    ("more-time-huge", "post", "/games/{game}/more-time/", {"seat": "1", "days": HUGE}),
    ("more-time-words", "post", "/games/{game}/more-time/", {"seat": "1", "days": "lots"}),
    ("more-time-seat-negative", "post", "/games/{game}/more-time/", {"seat": "-1", "days": "2"}),
    ("more-time-seat-huge", "post", "/games/{game}/more-time/", {"seat": HUGE, "days": "2"}),
    ("more-time-to-myself", "post", "/games/{game}/more-time/", {"seat": "0", "days": "2"}),
    ("more-time-nul", "post", "/games/{game}/more-time/", {"seat": "1\x00", "days": "2\x00"}),
    ("claim-not-overdue", "post", "/games/{game}/claim/", {}),
    ("vacation-negative", "post", "/vacation/start/", {"days": "-3"}),
    ("vacation-huge", "post", "/vacation/start/", {"days": HUGE}),
    ("vacation-nul", "post", "/vacation/start/", {"days": NUL}),
    ("note-nul", "post", "/games/{game}/note/", {"text": NUL}),
    ("note-huge", "post", "/games/{game}/note/", {"text": "x" * 100_000}),
    ("say-nul", "post", "/games/{game}/say/", {"text": "hi\x00"}),
    ("say-bad-utf8", "raw", "/games/{game}/say/", "text=" + BAD_UTF8),
    ("mute-unknown-user", "post", "/games/{game}/mute/" + HUGE + "/", {}),
    ("report-unknown-message", "post", "/games/{game}/report/" + HUGE + "/", {}),
    ("game-id-huge", "get", "/games/" + HUGE + "/", None),
    ("state-id-huge", "get", "/games/" + HUGE + "/state.json", None),
    ("record-id-huge", "get", "/games/" + HUGE + "/record/", None),
    ("move-id-huge", "post", "/games/" + HUGE + "/move/", {}),
    ("challenge-id-huge", "get", "/challenges/" + HUGE + "/", None),
    ("accept-id-huge", "post", "/challenges/" + HUGE + "/accept/", {}),
    (
        "challenge-days-negative",
        "post",
        "/challenges/new/",
        {"player1": "bob@example.com", "days_per_move": "-3", "variant": "two", "target": "121"},
    ),
    (
        "challenge-days-huge",
        "post",
        "/challenges/new/",
        {"player1": "bob@example.com", "days_per_move": HUGE, "variant": "two", "target": "121"},
    ),
    (
        "challenge-target-odd",
        "post",
        "/challenges/new/",
        {"player1": "bob@example.com", "days_per_move": "3", "variant": "two", "target": "-121"},
    ),
    (
        "challenge-address-nul",
        "post",
        "/challenges/new/",
        {"player1": "bob\x00@example.com", "days_per_move": "3", "variant": "two", "target": "121"},
    ),
    (
        "challenge-bad-utf8",
        "raw",
        "/challenges/new/",
        "player1=" + BAD_UTF8 + "&days_per_move=3&variant=two&target=121",
    ),
    ("practice-level-junk", "post", "/practice/", {"level": "\x00godlike", "days_per_move": "-1"}),
    ("calculator-nul", "get", "/calculator/?hand=5H%005C&starter=%00", None),
    ("calculator-bad-utf8", "get", "/calculator/?hand=" + BAD_UTF8 + "&starter=" + BAD_UTF8, None),
    ("calculator-huge", "get", "/calculator/?hand=" + "5H" * 5000, None),
    (
        "profile-hour-negative",
        "post",
        "/accounts/profile/",
        {"display_name": "Alice", "time_zone": "UTC", "notify": "each", "digest_hour": "-1"},
    ),
    (
        "profile-hour-huge",
        "post",
        "/accounts/profile/",
        {"display_name": "Alice", "time_zone": "UTC", "notify": "each", "digest_hour": HUGE},
    ),
    (
        "profile-zone-junk",
        "post",
        "/accounts/profile/",
        {"display_name": "Alice", "time_zone": "Mars/Olympus\x00", "notify": "each", "digest_hour": "8"},
    ),
    (
        "profile-name-nul",
        "post",
        "/accounts/profile/",
        {"display_name": "Al\x00ice", "time_zone": "UTC", "notify": "each", "digest_hour": "8"},
    ),
    ("profile-bad-utf8", "raw", "/accounts/profile/", "display_name=" + BAD_UTF8 + "&time_zone=UTC&digest_hour=8"),
    (
        "signup-nul",
        "post",
        "/accounts/signup/",
        {
            "email": "new@example.com",
            "display_name": "N\x00",
            "password1": "pw-Secret-123",
            "password2": "pw-Secret-123",
        },
    ),
    ("signup-bad-utf8", "raw", "/accounts/signup/", "email=" + BAD_UTF8 + "&display_name=" + BAD_UTF8),
    ("login-nul", "post", "/accounts/login/", {"username": "alice@example.com\x00", "password": "\x00"}),
    ("login-link-nul", "post", "/accounts/login-link/", {"email": "alice\x00@example.com"}),
    ("confirm-token-junk", "post", "/accounts/confirm/" + "x" * 3000 + "/", {}),
    ("login-link-token-junk", "post", "/accounts/login-link/%00%ff/", {}),
    ("invitation-token-junk", "post", "/accounts/invitation/" + BAD_UTF8 + "/", {}),
    ("password-reset-token-junk", "post", "/accounts/password/reset/" + HUGE + "/set-password/", {}),
    ("ladder-unknown", "get", "/ladders/" + "x" * 300 + "/", None),
    ("ladder-season-huge", "get", "/ladders/club/season/" + HUGE + "/", None),
]


@pytest.mark.parametrize("name, method, path, data", CASES, ids=[c[0] for c in CASES])
def test_bad_input_on_the_site_is_refused_and_changes_nothing(client, table, database_dump, name, method, path, data):
    path = path.format(game=table.pk)
    data = data(table) if callable(data) else data
    # Looking at a page counts as the player coming back (Seat.last_seen), and logging in stamps
    # last_login: the rest must stay as it was.
    leave_out = ("games.Seat", "games.OverdueSeat")
    before = database_dump(leave_out=leave_out)
    if method == "raw":
        response = client.generic("POST", path, data.encode("ascii"), content_type="application/x-www-form-urlencoded")
    elif method == "post":
        response = client.post(path, data)
    else:
        response = client.get(path)
    assert response.status_code < 500
    # A refusal is the page as it stands, with why: never a redirect that hides that it was refused.
    assert response.status_code in (400, 403, 404, 405, 409, 410, 413, 429), response.status_code
    assert database_dump(leave_out=leave_out) == before
