"""The turn email's subject, text and HTML written out (mail.turn_text) are the templates' output
byte for byte, on every branch: each name present or absent, empty or not, in each phase."""

import random
from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string

from games.presenter.turn import MoveChoice
from mail import messages, turn_text


class _Author:
    def __init__(self, name):
        self.name = name

    def __str__(self):
        return self.name


# Values with what an HTML template would escape: the text is never escaped.
ODD = "A <b>&amp;</b> 'q' \"d\""


def _context(rng):
    def maybe(value, empty=None):
        return value if rng.random() < 0.5 else empty

    c = {
        "help_url": "https://example.com/help/",
        "service_address": "play@reply.example.com",
        "unsubscribe_url": "https://example.com/m/unsubscribe/x/",
        "game_url": "https://example.com/games/12/",
        "game_id": rng.choice([12, 123456]),
        "title": rng.choice(["Alice v Bob", ODD]),
        "me": rng.choice(["Alice", None, ODD]),
        "asked": "lay away 2 cards to Bob's crib",
        "phase": rng.choice(["discard", "play", "show", None]),
        "since": maybe(["Bob laid 5♠", ODD], []),
        "recent": maybe(["Bob played 5♠ (count 5)", ODD], []),
        "hand_text": rng.choice(["5♠ 5♦ 7♥ J♥", "none"]),
        "played_text": maybe("3♠", ""),
        "plan": maybe(SimpleNamespace(words=ODD)),
        "starter_text": rng.choice(["2♥", "not turned yet"]),
        "crib_owner": rng.choice(["Bob", "you", None]),
        "count": rng.choice([0, 21, None]),
        "count_text": maybe("5♠ J♥", ""),
        "view": SimpleNamespace(target=rng.choice([61, 121])),
        "board": maybe(
            [
                {"text": "Alice  [....]  8/121", "name": "Alice", "percent": 7, "score": 8},
                {"text": ODD, "name": ODD, "percent": 100, "score": 121},
            ],
            [],
        ),
        "hand": maybe(["5S", "TD", "JH"], []),
        "played": maybe(["3S"], []),
        "starter": maybe("2H"),
        "count_cards": maybe(["5S", "JH"], []),
        "deadline": maybe("Thursday 10 December 2026, 00:02 (UTC)"),
        "coach": maybe(["You kept the best hand.", ODD], []),
        "moves": maybe(
            [
                MoveChoice(words="crib 3S 7H", label="3♠ 7♥", note=maybe("keep 9♠ 9♣", ""), url="https://e/m/move/a/"),
                MoveChoice(words="play 5S", label="5♠", note="", url=f"https://e/m/move/{ODD}/"),
            ],
            [],
        ),
        "plan_line": maybe(("plan 5S 5D 7H JH", ODD)),
        "other_words": maybe([("status", "send this email again"), ("say ...", ODD)], []),
        "subject_lead": maybe(rng.choice(["Your discard", ODD]), ""),
        "subject_hand": rng.choice([0, 3, None]),
        "event_name": maybe("Winter League, round 2", ""),
    }
    for name, value in (
        ("talk", [SimpleNamespace(author=_Author("Bob"), text=ODD), SimpleNamespace(author=_Author(ODD), text="hi")]),
        ("clock_rules", "3 days per move"),
        ("help_text", ODD),
    ):
        choice = rng.random()
        if choice < 0.4:
            c[name] = value
        elif choice < 0.7:
            c[name] = type(value)()
    for name in ("game_url", "unsubscribe_url"):
        if rng.random() < 0.1:
            c.pop(name)
    return c


CONTEXTS = [_context(random.Random(seed)) for seed in range(400)]


@pytest.mark.parametrize(
    "part, template", [("subject", "turn.subject.txt"), ("text", "turn.txt"), ("html", "turn.html")]
)
def test_written_out_as_the_template_renders_it(part, template):
    for c in CONTEXTS:
        assert getattr(turn_text, part)(c) == render_to_string(f"mail/email/{template}", c), c


def test_the_contexts_take_every_branch():
    def both(test):
        return {bool(test(c)) for c in CONTEXTS} == {True, False}

    for name in (
        "talk",
        "clock_rules",
        "help_text",
        "since",
        "recent",
        "played_text",
        "plan",
        "count_text",
        "board",
        "deadline",
        "coach",
        "moves",
        "plan_line",
        "other_words",
        "subject_lead",
        "subject_hand",
        "event_name",
        "hand",
        "played",
        "starter",
        "count_cards",
        "game_url",
        "unsubscribe_url",
    ):
        assert both(lambda c, name=name: c.get(name)), name
    assert both(lambda c: "talk" in c)
    assert both(lambda c: c["phase"] == "play") and both(lambda c: c["phase"] == "discard")
    assert both(lambda c: any(m.note for m in c["moves"]))


def test_the_turn_email_is_written_out():
    assert messages.WRITTEN_OUT["mail/email/turn"] == (turn_text.subject, turn_text.text, turn_text.html)
