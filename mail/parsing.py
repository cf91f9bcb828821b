"""Reading a reply: the player's own words, then the move they name.

`reply_lines(stripped_text, text)` gives candidate texts, best first: the
provider's own stripped reply (Postmark StrippedTextReply, Mailgun
stripped-text, Brevo ExtractedMarkdownMessage, through anymail's
`stripped_text`), then mail-parser-reply's first reply (English, French,
German), then our own cut of the lines above the quoted email. The library
is not trusted alone: it takes a short line after a dash ("-play 7C") for a
signature, so when its text holds no command the raw top lines are read too.

`read_command(texts)` finds the first line that is a command.
"""
import re
from dataclasses import dataclass, field

from mailparser_reply import EmailReplyParser

from games.cribbage import parse_cards

LANGUAGES = ["en", "fr", "de"]
MAX_LINES = 12  # a command is near the top; never read a whole quoted email

# Lines that start the quoted part of a reply, as Gmail, Outlook and Apple Mail write them.
_QUOTE_HEADERS = [
    re.compile(p, re.IGNORECASE) for p in (
        r"^>",
        r"^on\b.*\bwrote:?\s*$",                      # Gmail / Apple: On Mon, ... <x@y> wrote:
        r"^on\b.*\d{4}.*(,|at)\s",                    # a Gmail header wrapped before "wrote:"
        r"^le\b.*\ba\s+[ée]crit\s*:?\s*$",            # Le lun. 2 juin 2025 à 10:00, X a écrit :
        r"^am\b.*\bschrieb\b.*:?\s*$",                # Am Mo., 2. Juni 2025 um 10:00 schrieb X:
        r"^-{2,}\s*(original message|message d'origine|urspr[üu]ngliche nachricht)",
        r"^_{8,}\s*$",                                # Outlook's rule before From:/Sent:
        r"^(from|de|von)\s*:\s.*@",                   # Outlook header block
        r"^(from|de|von)\s*:\s",
        r"^sent from my\b", r"^envoy[ée] de mon\b", r"^von meinem\b.*gesendet",
        r"^--\s*$",                                   # a signature separator, alone on its line
    )
]
_KEYWORDS = {
    "crib": "discard", "discard": "discard", "throw": "discard",
    "play": "play", "go": "go", "count": "count", "muggins": "muggins",
    "resign": "resign", "concede": "resign", "status": "status", "help": "help", "?": "help",
    "unsubscribe": "unsubscribe",
    "extend": "more_time", "claim": "claim",
}
_TRIM = " \t-*•–—.,!;:"


@dataclass(frozen=True)
class Command:
    kind: str              # discard, play, go, count, muggins, resign, status, help, unsubscribe, cards,
                           # more_time (number: the days), claim
    words: str             # the line as the player wrote it
    cards: tuple = ()      # card codes named
    number: int | None = None
    extra: dict = field(default_factory=dict)


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


def _number(token):
    try:
        return int(token)
    except (TypeError, ValueError):
        return None


def _cards_from(tokens):
    """Card codes from the leading tokens that read as cards (the rest is chatter)."""
    codes = []
    for tok in tokens:
        try:
            codes += [c.code for c in parse_cards(tok.strip(_TRIM))]
        except ValueError:
            break
    return tuple(codes)


def read_line(line):
    """The command on one line, or None."""
    words = line.strip().strip(_TRIM).strip()
    if not words:
        return None
    tokens = words.replace(",", " ").split()
    head = tokens[0].lower().strip(_TRIM) or tokens[0]
    kind = _KEYWORDS.get(head)
    rest = tokens[1:]
    if head == "more" and rest and rest[0].lower().strip(_TRIM) == "time":   # "more time 2"
        kind, rest = "more_time", rest[1:]
    if kind == "more_time":   # "more time 2", "extend 2", "extend 2 days"
        return Command("more_time", words, number=_number(rest[0].strip(_TRIM)) if rest else None)
    if kind in ("discard",):
        return Command("discard", words, cards=_cards_from(rest))
    if kind == "play":
        cards = _cards_from(rest[:1])
        claim = None
        if len(rest) >= 3 and rest[1].lower() == "claim":
            claim = _number(rest[2].strip(_TRIM))
        return Command("play", words, cards=cards, number=claim)
    if kind == "count":
        return Command("count", words, number=_number(rest[0].strip(_TRIM)) if rest else None)
    if kind is not None:
        return Command(kind, words)
    try:  # just the cards, nothing else on the line
        cards = tuple(c.code for c in parse_cards(words.replace(",", " ")))
    except ValueError:
        return None
    return Command("cards", words, cards=cards) if cards else None


def read_command(texts):
    """The first command in the first text that has one; None if nothing reads as a command."""
    for text in texts:
        seen = 0
        for line in text.replace("\r\n", "\n").split("\n"):
            if not line.strip():
                continue
            seen += 1
            if seen > MAX_LINES:
                break
            command = read_line(line)
            if command is not None:
                return command
    return None


def first_words(texts):
    """The first non-empty line the player wrote (to quote back when it cannot be read)."""
    for text in texts:
        for line in text.split("\n"):
            if line.strip():
                return line.strip()[:200]
    return ""
