"""Reading a reply: the player's own words (not the quoted email), then the command."""

import pytest

from mail.parsing import read_command, read_line, reply_texts

TURN = """Player 1, it is your turn to play a card in game 3 (Alice v Bob).

Your hand: 7♣ 9♦
Your moves. Reply with the words at the start of one line, or open its link:

play 7C   http://127.0.0.1:8000/m/move/abc/
play 9D   http://127.0.0.1:8000/m/move/def/
"""


def quoted(text):
    return "\n".join("> " + line for line in text.splitlines())


GMAIL = f"""play 9D

On Mon, Jun 2, 2025 at 10:00 AM Cribbage by mail <cribbage@example.com> wrote:

{quoted(TURN)}
"""
GMAIL_WRAPPED = f"""play 9D

On Mon, Jun 2, 2025 at 10:00 AM Cribbage by mail <
cribbage@example.com> wrote:

{quoted(TURN)}
"""
OUTLOOK = f"""play 9D

________________________________
From: Cribbage by mail <cribbage@example.com>
Sent: Monday, June 2, 2025 10:00 AM
To: Bob <bob@example.com>
Subject: Your move: Alice v Bob (game 3)

{TURN}
"""
OUTLOOK_ORIGINAL = f"""play 9D

-----Original Message-----
From: Cribbage by mail <cribbage@example.com>
Sent: Monday, June 2, 2025 10:00 AM

{TURN}
"""
APPLE = f"""play 9D

Sent from my iPhone

> On Jun 2, 2025, at 10:00, Cribbage by mail <cribbage@example.com> wrote:
>
{quoted(TURN)}
"""
FRENCH = f"""play 9D

Le lun. 2 juin 2025 à 10:00, Cribbage by mail <cribbage@example.com> a écrit :

{quoted(TURN)}
"""
GERMAN = f"""play 9D

Am Mo., 2. Juni 2025 um 10:00 Uhr schrieb Cribbage by mail <cribbage@example.com>:

{quoted(TURN)}
"""
DASH = f"""Move:

-play 9D

thanks

On Mon, Jun 2, 2025 at 10:00 AM Cribbage by mail <cribbage@example.com> wrote:
{quoted(TURN)}
"""


@pytest.mark.parametrize(
    "body",
    [GMAIL, GMAIL_WRAPPED, OUTLOOK, OUTLOOK_ORIGINAL, APPLE, FRENCH, GERMAN, DASH],
    ids=["gmail", "gmail-wrapped", "outlook", "outlook-original", "apple", "french", "german", "dash"],
)
def test_the_players_words_are_read_not_the_quoted_email(body):
    command = read_command(reply_texts("", body))
    assert command.kind == "play" and command.cards == ("9D",)


def test_a_quoted_move_alone_is_not_read_as_the_reply():
    # The player wrote nothing of their own: the moves listed in the quote must not be taken.
    body = f"On Mon, Jun 2, 2025 at 10:00 AM Bot <c@example.com> wrote:\n{quoted(TURN)}\n"
    assert read_command(reply_texts("", body)) is None


def test_the_providers_stripped_reply_comes_first():
    command = read_command(reply_texts("play 7C", GMAIL))
    assert command.cards == ("7C",)


def test_a_signature_below_the_move_is_ignored():
    body = "crib 5h jd\n\n--\nBob Smith\nplay 7C\n"
    command = read_command(reply_texts("", body))
    assert command.kind == "discard" and command.cards == ("5H", "JD")


@pytest.mark.parametrize(
    "line, kind, cards, number",
    [
        ("crib 5H JD", "discard", ("5H", "JD"), None),
        ("Discard 10h, td", "discard", ("TH", "TD"), None),
        ("crib 5♥ J♦", "discard", ("5H", "JD"), None),
        ("play 7c", "play", ("7C",), None),
        ("Play 7C please", "play", ("7C",), None),
        ("play 7C claim 2", "play", ("7C",), 2),
        ("7C", "cards", ("7C",), None),
        ("5H JD", "cards", ("5H", "JD"), None),
        ("go", "go", (), None),
        ("count 12", "count", (), 12),
        ("Muggins!", "muggins", (), None),
        ("resign", "resign", (), None),
        ("STATUS", "status", (), None),
        ("help", "help", (), None),
        ("- play 9D", "play", ("9D",), None),
    ],
)
def test_grammar(line, kind, cards, number):
    command = read_line(line)
    assert (command.kind, command.cards, command.number) == (kind, cards, number)


@pytest.mark.parametrize("line", ["Hi Bob,", "Thanks for the game", "As discussed", "", "   "])
def test_chatter_is_not_a_command(line):
    assert read_line(line) is None


def test_the_first_command_wins_over_later_lines():
    assert read_command(["Hello,\nplay 7C\ncrib 5H JD\n"]).kind == "play"
