"""Reading a reply: the player's own words, then the instructions they hold.

`read_reply(stripped_text, text, subject)` reads one text: the words above the earliest cut
that any method finds (mail.quotes: the quote headers of every client and language, the
reply library's, `>` lines; the HTML's structure, mail.reply_html). The provider's own
stripped reply (Postmark StrippedTextReply, Mailgun stripped-text, Brevo
ExtractedMarkdownMessage, through anymail's `stripped_text`) stands for the body's top when
it is given, cut again the same way. When nothing there reads, a bottom-poster's lines below a
`>`-quoted block are read; when the body holds no words of the player's at all, the Subject.
A quoted line is never read; that the quote held an instruction is only told to the player.

`read_line(line)` reads one line: a move in the engine's notation (games.cribbage.notation)
or one of the words of play by email (status, help, unsubscribe, more time, claim, and
"note ..." / "say ..." followed by the player's own text); `read_commands(text)` every
instruction of a text (one a line, applied in order by mail.game_replies; a plan on the
discard's line is a second instruction).
"""

import re
from dataclasses import dataclass, field

from games.cribbage import notation

from . import quotes

MAX_LINES = 12  # a command is near the top; never read a whole quoted email
QUOTE_SCAN = 300  # lines of the quoted part looked through for an instruction (to say it was quoted)
# What a subject starts with on a reply or a forward, in the common clients' languages.
_SUBJECT_PREFIX = re.compile(
    r"^\s*(re|aw|sv|vs|antw|odp|rif|r|tr|wg|fw|fwd|ynt|ref|res|enc|回复|回覆|答复|отв|ответ)\s*(\[\d+\])?\s*[:：]\s*",
    re.IGNORECASE,
)

# Lines of our own emails (mail/_state.txt, turn.txt), when a player pastes one back unquoted:
# never read as a command ("Crib: you" is no discard, "The count: 12" no count).
_OWN_LINES = re.compile(
    r"^(your hand|starter|the count|reply by|your plan \(only you see it\)|the clock of this game|"
    r"scores \(to \d+\)|since your last move|since our last email to you|the coach|at the table|"
    r"the game on the site|stop these emails|rules and help)\s*:|"
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
# Words that are an instruction only alone on their line ("Back on Monday!" is no "back").
_LINE_WORDS = {"games": "games", "back": "back"}
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


@dataclass(frozen=True)
class Reply:
    """What a reply says: its instructions, the player's first words (to quote back when none
    reads), and whether an instruction stood only in the quoted part."""

    commands: list
    words: str
    only_quoted: bool
    unread: tuple = ()  # instruction lines below the first MAX_LINES: named to the player, never applied


def own_words(stripped_text, text):
    """The reply's text split at its quote (mail.quotes.Reply), the provider's stripped reply
    standing for the top when given."""
    reply = quotes.split(text)
    if stripped_text and stripped_text.strip():
        stripped = quotes.split(stripped_text)
        return quotes.Reply(
            above=stripped.above,
            below=reply.below,
            quoted=f"{stripped.quoted}\n{reply.quoted}",
            cut=reply.cut or stripped.cut,
        )
    return reply


def reply_texts(stripped_text, text):
    """The player's own words, as one text in a list: above the quote, or a bottom-poster's
    below it when nothing is above."""
    reply = own_words(stripped_text, text)
    own = reply.above if reply.above.strip() else reply.below
    return [own] if own.strip() else []


def read_reply(stripped_text, text, subject=""):
    """The instructions of a reply (see the module's docstring): a Reply."""
    reply = own_words(stripped_text, text)
    for own in (reply.above, reply.below):
        commands, unread = _read_text(own)
        if commands:
            return Reply(commands, first_words([own]), only_quoted=False, unread=tuple(unread))
    if not (reply.above.strip() or reply.below.strip()):  # an empty body: the move may be the subject
        commands = read_commands([subject_words(subject)])
        if commands:
            return Reply(commands, subject_words(subject)[:200], only_quoted=False)
    words = first_words([reply.above]) or first_words([reply.below])
    return Reply([], words, only_quoted=_holds_instruction(reply.quoted))


def subject_words(subject):
    """The subject without its "Re:", "AW:", "Fwd:" prefixes."""
    words = (subject or "").strip()
    while True:
        shorter = _SUBJECT_PREFIX.sub("", words, count=1)
        if shorter == words:
            return notation.visible(words)
        words = shorter


def _holds_instruction(quoted):
    """Whether the quoted part holds a line of the player's that reads as an instruction
    (our own email's lines and list of moves aside)."""
    for line in quoted.split("\n")[:QUOTE_SCAN]:
        own = own_line(line)
        if own == "list":
            return False
        if not own and line.strip() and read_line(line) is not None:
            return True
    return False


def read_line(line):
    """The command on one line, or None (the first, when a plan follows a move on the line)."""
    commands = read_line_all(line)
    return commands[0] if commands else None


def read_line_all(line):
    """The commands on one line: one, or a move and the plan that follows it; [] if none."""
    words = notation.visible(line).strip().strip(_TRIM).strip()
    if not words:
        return []
    tokens = words.replace(",", " ").split()
    head = tokens[0].lower().strip(_TRIM) or tokens[0]
    if head in _FREE_TEXT_WORDS:  # "note ..." / "say ...": the rest of the line is the player's own text
        first = line.strip().split(None, 1)
        return [Command(head, words, extra={"text": first[1].strip() if len(first) > 1 else ""})]
    kind = _KEYWORDS.get(head)
    rest = tokens[1:]
    if head in _LINE_WORDS and not rest:
        return [Command(_LINE_WORDS[head], words)]
    if head == "plan" and rest and rest[0].lower() == "always":  # a plan for every hand
        return [Command("standing_plan", words, extra={"text": " ".join(rest[1:])})]
    if head == "vacation" and (not rest or notation.read_number(rest[0]) is not None):  # "vacation 3 days"
        return [Command("vacation", words, number=notation.read_number(rest[0]) if rest else None)]
    if head == "more" and rest and rest[0].lower().strip(_TRIM) == "time":  # "more time 2"
        kind, rest = "more_time", rest[1:]
    if kind == "more_time":  # "more time 2", "extend 2", "extend 2 days"
        return [Command("more_time", words, number=notation.read_number(rest[0]) if rest else None)]
    if kind is not None:
        return [Command(kind, words)]
    reading = notation.read(words)
    if reading is None:
        return []
    commands = [Command(reading.kind, reading.words, cards=reading.cards, number=reading.number, reading=reading)]
    if reading.then is not None:
        then = reading.then
        commands.append(Command(then.kind, then.words, cards=then.cards, number=then.number, reading=then))
    return commands


def own_line(line):
    """ "list" for the line that starts our email's list of moves, "own" for another line of our
    email's own text, None for the player's."""
    stripped = line.strip()
    if _OWN_LIST.search(stripped):
        return "list"
    return "own" if _OWN_LINES.search(stripped) else None


def read_command(texts):
    """The first command of the player's words; None if nothing reads as a command."""
    commands = read_commands(texts)
    return commands[0] if commands else None


def read_commands(texts):
    """The instructions of the player's words (`texts`: one text, in a list, as reply_texts
    gives it), one a line, in order: every line that reads as one among the first MAX_LINES
    lines of the player's own words; a line that is not one (a greeting, "Good luck!") is
    skipped, never ending the reading, so a plan below a word of chatter is read, not dropped.
    The signature ("--") and the quote were cut before (mail.quotes). [] if none.

    Lines of our own email pasted back (own_line) are no commands: they end the player's
    words, and the list of moves pasted with them is never read."""
    for text in texts:
        commands = _read_text(text)[0]
        if commands:
            return commands
    return []


def _read_text(text):
    """(the commands of `text`, the lines below the first MAX_LINES that would have read as
    one): the second are never applied, only named to the player."""
    commands, unread, seen = [], [], 0
    for line in text.replace("\r\n", "\n").split("\n"):
        if not line.strip():
            continue
        own = own_line(line)
        if own == "list" or (own and commands):
            break
        if own:
            continue
        seen += 1
        found = read_line_all(line)
        if seen > MAX_LINES:
            unread += [line.strip()[:200]] if found else []
        else:
            commands += found
    return commands, unread


def first_words(texts):
    """The first non-empty line the player wrote (to quote back when it cannot be read); never
    a line of encoded text (base64, quoted-printable), which would mean nothing to them."""
    for text in texts:
        for line in text.split("\n"):
            if line.strip() and not _ENCODED.search(line):
                return line.strip()[:200]
    return ""


# A run of base64 or quoted-printable escapes: a body that was never decoded.
_ENCODED = re.compile(r"[A-Za-z0-9+/]{40,}={0,2}\s*$|(=[0-9A-F]{2}){3,}|=\s*$")
