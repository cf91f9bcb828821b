"""Bad input to the links in emails (move and unsubscribe): a clear 4xx page, and nothing changes."""

import pytest

from games.selectors import view_for
from mail import links

pytestmark = pytest.mark.django_db
HUGE = "9" * 30
KEPT = ("games.Seat", "games.OverdueSeat")  # pressing a button counts as the player coming back


def move_path(game, move=None, seq=None):
    move = move or view_for(game, 0).legal_moves[0]
    return "/m/move/" + links.move_token(game.pk, 0, game.seq if seq is None else seq, move) + "/"


CASES = [
    ("token-junk", "post", lambda g: "/m/move/not-a-token/", {}, 400),
    ("token-cut-short", "post", lambda g: move_path(g)[:-12] + "/", {}, 400),
    ("token-huge", "get", lambda g: "/m/move/" + "x" * 5000 + "/", None, 400),
    ("token-nul", "get", lambda g: "/m/move/abc%00def/", None, 400),
    ("token-bad-utf8", "get", lambda g: "/m/move/%ED%A0%80/", None, 400),
    ("token-other-salt", "post", lambda g: "/m/move/" + links.reply_token(g.pk, 0) + "/", {}, 400),
    ("game-gone", "post", lambda g: "/m/move/" + links.move_token(10**9, 0, 1, {"kind": "resign"}) + "/", {}, 404),
    (
        "seat-unknown",
        "post",
        lambda g: "/m/move/" + links.move_token(g.pk, 7, g.seq, {"kind": "resign"}) + "/",
        {},
        404,
    ),
    ("seq-past-the-game", "post", lambda g: move_path(g, seq=g.seq + 5), {}, 409),
    ("move-not-legal", "post", lambda g: move_path(g, {"kind": "play", "card": "5H"}), {}, 409),
    ("move-junk-kind", "post", lambda g: move_path(g, {"kind": "teleport", "to": HUGE}), {}, 409),
    ("points-negative", "post", lambda g: move_path(g, {"kind": "count"}), {"points": "-3"}, 409),
    ("points-huge", "post", lambda g: move_path(g, {"kind": "count"}), {"points": HUGE}, 409),
    ("points-words", "post", lambda g: move_path(g, {"kind": "count"}), {"points": "twelve"}, 400),
    ("points-nul", "post", lambda g: move_path(g, {"kind": "count"}), {"points": "1\x002"}, 400),
    ("method-put", "put", lambda g: move_path(g), None, 405),
    ("unsubscribe-junk", "post", lambda g: "/m/unsubscribe/junk/", {}, 400),
    ("unsubscribe-nul", "post", lambda g: "/m/unsubscribe/a%00b/", {}, 400),
]


@pytest.mark.parametrize("name, method, path, data, status", CASES, ids=[c[0] for c in CASES])
def test_a_bad_link_is_a_clear_4xx_and_changes_nothing(client, game, database_dump, name, method, path, data, status):
    url = path(game)  # (a move link's token is a row, made with the email)
    before = database_dump(leave_out=KEPT)
    if method == "post":
        response = client.post(url, data)
    elif method == "put":
        response = client.put(url)
    else:
        response = client.get(url)
    assert response.status_code == status
    assert database_dump(leave_out=KEPT) == before
