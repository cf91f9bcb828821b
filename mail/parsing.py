"""Reading a reply: the player's own words, then the move they name.

`reply_texts(stripped_text, text)` gives candidate texts, best first: the
provider's own stripped reply (Postmark StrippedTextReply, Mailgun
stripped-text, Brevo ExtractedMarkdownMessage, through anymail's
`stripped_text`), then mail-parser-reply's first reply (English, French,
German), then our own cut of the lines above the quoted email. The library
is not trusted alone: it takes a short line after a dash ("-play 7C") for a
signature, so when its text holds no command the raw top lines are read too.

`read_command(texts)` finds the first line that is a command: a move in the
engine's notation (games.cribbage.notation) or one of the words of play by
email (status, help, unsubscribe, more time, claim, and "note ..." / "say ..." followed by
the player's own text); `read_commands(texts)` every
instruction of a reply (one a line, applied in order by mail.game_replies).
"""

import re
from dataclasses import dataclass, field

from mailparser_reply import EmailReplyParser

from games.cribbage import notation

LANGUAGES = ["en", "fr", "de"]
MAX_LINES = 12  # a command is near the top; never read a whole quoted email

# Lines that start the quoted part of a reply, as Gmail, Outlook and Apple Mail write them.
_QUOTE_HEADERS = [
    re.compile(p, re.IGNORECASE)
    for p in (
        r"^>",
        r"^on\b.*\bwrote:?\s*$",  # Gmail / Apple: On Mon, ... <x@y> wrote:
        r"^on\b.*\d{4}.*(,|at)\s",  # a Gmail header wrapped before "wrote:"
        r"^le\b.*\ba\s+[ée]crit\s*:?\s*$",  # Le lun. 2 juin 2025 à 10:00, X a écrit :
        r"^am\b.*\bschrieb\b.*:?\s*$",  # Am Mo., 2. Juni 2025 um 10:00 schrieb X:
        r"^-{2,}\s*(original message|message d'origine|urspr[üu]ngliche nachricht)",
        r"^_{8,}\s*$",  # Outlook's rule before From:/Sent:
        r"^(from|de|von)\s*:\s.*@",  # Outlook header block
        r"^(from|de|von)\s*:\s",
        r"^sent from my\b",
        r"^envoy[ée] de mon\b",
        r"^von meinem\b.*gesendet",
        r"^--\s*$",  # a signature separator, alone on its line
    )
]
# Lines of our own emails (mail/_state.txt, turn.txt), when a player pastes one back unquoted:
# never read as a command ("Crib: you" is no discard, "The count: 12" no count).
_OWN_LINES = re.compile(
    r"^(your hand|starter|the count|reply by|your plan \(only you see it\)|the clock of this game|"
    r"scores \(to \d+\)|since your last move|since our last email to you|the coach|at the table|"
    r"the game on the site|stop these emails)\s*:|"
    r"^crib:\s*(you|[^\d♠♥♦♣]*)$|"  # "Crib: you", "Crib: Bob" (but "crib: 5H JD" is a discard)
    r",\s*it is your turn to\b",
    re.IGNORECASE,
)
# Where our list of moves and words starts: the player's own words are above it.
_OWN_LIST = re.compile(r"^(your moves\. reply with|other words you can reply with\s*:)", re.IGNORECASE)
# The words of play by email that are not moves (the moves are the engine's notation).
_KEYWORDS = {
    "status": "status",
    "help": "help",
    "?": "help",
    "unsubscribe": "unsubscribe",
    "extend": "more_time",
    "claim": "claim",
    "rematch": "rematch",
    "review": "review",
    "standings": "standings",  # answered by the event's app (ladders.replies), or refused
}
# Words followed by the player's own text, never read as a move: a private note, table talk.
_FREE_TEXT_WORDS = ("note", "say")
_TRIM = notation.TRIM


@dataclass(frozen=True)
class Command:
    kind: str  # discard, play, go, count, muggins, resign, status, help, unsubscribe, cards,
    # more_time (number: the days), claim, review, note and say (extra["text"])
    words: str  # the line as the player wrote it
    cards: tuple = ()  # card codes named
    number: int | None = None
    extra: dict = field(default_factory=dict)
    reading: notation.Reading | None = None  # a move's words, for notation.to_move


def top_lines(text):
    """The lines above the quoted email (and above a lone "--" signature separator)."""
    lines = []
    for line in (text or "").replace("\r\n", "\n").split("\n"):
        stripped = line.strip()
        if any(p.search(stripped) for p in _QUOTE_HEADERS):
            break
        lines.append(line)
    return "\n".join(lines)


def library_reply(text):
    """mail-parser-reply's first reply, or "" when it finds none."""
    if not text:
        return ""
    try:
        replies = EmailReplyParser(languages=LANGUAGES).read(text=text).replies
    except Exception:  # a parsing library must never stop a reply being read
        return ""
    return replies[0].body if replies else ""


def reply_texts(stripped_text, text):
    """Candidate texts of the player's own words, best first."""
    candidates = []
    if stripped_text and stripped_text.strip():
        candidates.append(stripped_text)
    candidates.append(library_reply(text))
    candidates.append(top_lines(text))
    return [c for c in candidates if c and c.strip()]


def read_line(line):
    """The command on one line, or None."""
    words = line.strip().strip(_TRIM).strip()
    if not words:
        return None
    tokens = words.replace(",", " ").split()
    head = tokens[0].lower().strip(_TRIM) or tokens[0]
    if head in _FREE_TEXT_WORDS:  # "note ..." / "say ...": the rest of the line is the player's own text
        first = line.strip().split(None, 1)
        return Command(head, words, extra={"text": first[1].strip() if len(first) > 1 else ""})
    kind = _KEYWORDS.get(head)
    rest = tokens[1:]
    if head == "more" and rest and rest[0].lower().strip(_TRIM) == "time":  # "more time 2"
        kind, rest = "more_time", rest[1:]
    if kind == "more_time":  # "more time 2", "extend 2", "extend 2 days"
        return Command("more_time", words, number=notation.read_number(rest[0]) if rest else None)
    if kind is not None:
        return Command(kind, words)
    reading = notation.read(words)
    if reading is None:
        return None
    return Command(reading.kind, words, cards=reading.cards, number=reading.number, reading=reading)


def own_line(line):
    """ "list" for the line that starts our email's list of moves, "own" for another line of our
    email's own text, None for the player's."""
    stripped = line.strip()
    if _OWN_LIST.search(stripped):
        return "list"
    return "own" if _OWN_LINES.search(stripped) else None


def read_command(texts):
    """The first command in the first text that has one; None if nothing reads as a command."""
    for text in texts:
        seen = 0
        for line in text.replace("\r\n", "\n").split("\n"):
            if not line.strip():
                continue
            own = own_line(line)
            if own == "list":
                break
            if own:
                continue
            seen += 1
            if seen > MAX_LINES:
                break
            command = read_line(line)
            if command is not None:
                return command
    return None


def read_commands(texts):
    """The instructions of a reply, one a line, in order: from the first line that is a command
    (in the first text that has one) to the last of the lines that follow it, one after the
    other, as commands; a line that is not one (a greeting, a signature) ends them. [] if none.

    Lines of our own email pasted back (own_line) are no commands: they end the player's
    words, and the list of moves pasted with them is never read."""
    for text in texts:
        commands, seen = [], 0
        for line in text.replace("\r\n", "\n").split("\n"):
            if not line.strip():
                continue
            own = own_line(line)
            if own == "list" or (own and commands):
                break
            if own:
                continue
            seen += 1
            if seen > MAX_LINES:
                break
            command = read_line(line)
            if command is not None:
                commands.append(command)
            elif commands:
                break
        if commands:
            return commands
    return []


def first_words(texts):
    """The first non-empty line the player wrote (to quote back when it cannot be read)."""
    for text in texts:
        for line in text.split("\n"):
            if line.strip():
                return line.strip()[:200]
    return ""
