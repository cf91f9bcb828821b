"""Reading a reply: the player's own words (not the quoted email), then the command."""

import pytest

from mail import parsing
from mail.parsing import read_command, read_line, read_reply, reply_texts

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
        ("I resign.", "resign", (), None),
        ("Concede, thanks", "resign", (), None),
        ("STATUS", "status", (), None),
        ("help", "help", (), None),
        ("- play 9D", "play", ("9D",), None),
    ],
)
def test_grammar(line, kind, cards, number):
    command = read_line(line)
    assert (command.kind, command.cards, command.number) == (kind, cards, number)


@pytest.mark.parametrize(
    "line",
    ["Hi Bob,", "Thanks for the game", "As discussed", "", "   ", "I resign myself to a long wait", "Resign? Never!"],
)
def test_chatter_is_not_a_command(line):
    assert read_line(line) is None


def test_a_word_of_chatter_between_two_instructions_ends_nothing():
    said = read_reply("", "crib 7H AC\nGood luck!\nplan 9D 6C 4H 5S\n\nCheers,\nBob\n")
    assert [(c.kind, c.words) for c in said.commands] == [("discard", "crib 7H AC"), ("plan", "plan 9D 6C 4H 5S")]


def test_below_the_signature_nothing_is_read_and_past_the_first_lines_nothing_is_applied():
    chatter = "\n".join(f"line {n} of news" for n in range(parsing.MAX_LINES))
    said = read_reply("", f"crib 7H AC\n{chatter}\nplan 9D 6C 4H 5S\n")
    assert [c.kind for c in said.commands] == ["discard"] and said.unread == ("plan 9D 6C 4H 5S",)
    assert [c.kind for c in read_reply("", "crib 7H AC\nBye\n--\nBob\nplan 9D 6C 4H 5S\n").commands] == ["discard"]


def test_the_first_command_wins_over_later_lines():
    assert read_command(["Hello,\nplay 7C\ncrib 5H JD\n"]).kind == "play"


# Quote headers in general form, each as the issue met them: the words above are read, the
# instruction below never (it is only told to the player).
HEADERS = {
    "date-name": '30.09.2017, 18.30, "Cribbage" <cribbage@example.com>:',
    "iso-date-name": "2017-11-24 16:32 GMT+01:00 Cribbage <cribbage@example.com>:",
    "russian": "ср, 30 апр. 2025 г. в 15:19, Cribbage <cribbage@example.com>:",
    "from-address": "Quoting Cribbage from cribbage@example.com:",
    "wrote-no-colon": "On Mon, Jun 2, 2025 at 10:00 AM Cribbage <cribbage@example.com> wrote",
    "polish-w-dniu": "W dniu 2.06.2025 o 10:00, Cribbage pisze, napisał:",
    "polish-dnia": "Dnia 2 czerwca 2025 10:00 Cribbage <cribbage@example.com> napisał(a):",
    "finnish": "ma 2.6.2025 klo 10.00 Cribbage (cribbage@example.com) kirjoitti:",
    "italian": "Il giorno lun 2 giu 2025 alle ore 10:00 Cribbage ha scritto:",
    "danish-original": "-----Oprindelig meddelelse-----",
    "french-original": "-------- Message d'origine --------",
    "rule-then-bold-from": "----\n*From:* Cribbage <cribbage@example.com>\n*Sent:* Monday, June 2, 2025",
    "equals-then-de": "==========\nDe : Cribbage\nEnvoyé : lundi 2 juin 2025 10:00",
    "dutch-block": "Van: Cribbage\nVerzonden: maandag 2 juni 2025 10:00\nAan: Bob",
    "polish-block": "Od: Cribbage\nWysłano: poniedziałek, 2 czerwca 2025 10:00\nDo: Bob",
    "danish-block": "Fra: Cribbage\nSendt: 2. juni 2025 10:00\nTil: Bob",
    "italian-block": "Da: Cribbage\nInviato: lunedì 2 giugno 2025 10:00\nA: Bob",
    "japanese-block": "差出人: Cribbage\n送信日時: 2025年6月2日 10:00\n宛先: Bob",
    "chinese-block": "发件人: Cribbage\n发送时间: 2025年6月2日 10:00\n收件人: Bob",
    "korean-block-library-only": "보낸 사람: Cribbage\n보낸 날짜: 2025년 6월 2일 월요일 오전 10:00\n받는 사람: Bob",
    "gmail-wrapped-no-address": "On Mon, Jun 2, 2025 at 10:00 AM Cribbage by mail, the service\nwrote:",
}


@pytest.mark.parametrize("header", HEADERS.values(), ids=HEADERS.keys())
def test_every_quote_header_cuts_the_reply(header):
    body = f"Thanks, sounds good.\n\n{header}\n\nplay 7C\n\n{TURN}"
    said = read_reply("", body)
    assert said.commands == [] and said.only_quoted and said.words == "Thanks, sounds good."
    said = read_reply("", f"play 9D\n\n{header}\n\nplay 7C\n")
    assert [c.words for c in said.commands] == ["play 9D"]


def test_a_quoted_instruction_alone_is_only_told():
    body = f"Thanks\n\nOn Mon, Jun 2, 2025 at 10:00 AM Bob <b@example.com> wrote:\n{quoted('play 7C')}\n"
    said = read_reply("", body)
    assert said.commands == [] and said.only_quoted


def test_our_own_quoted_turn_email_is_no_instruction_of_the_players():
    said = read_reply("", f"Thanks\n\nOn Mon, Jun 2, 2025 at 10:00 AM Bot <c@example.com> wrote:\n{quoted(TURN)}\n")
    assert said.commands == [] and not said.only_quoted


def test_the_providers_stripped_reply_is_cut_too():
    # A provider that left the quote in its "stripped" text gains nothing from it.
    said = read_reply("Thanks\n\nOn Mon, Jun 2, 2025 at 10:00 AM Bob <b@example.com> wrote:\n> play 7C\n", GMAIL)
    assert said.commands == [] and said.only_quoted
