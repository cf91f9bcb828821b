"""Where the quoted part of a reply starts: the earliest cut that any method finds.

A player's instruction is read only from the lines above the first line that any of these
takes for the start of a quote, a signature or a forwarded message:

- a line a client quoted (`>`);
- a quote header in general form: a line ending in an address and a colon ("2017-11-24 16:32
  GMT+01:00 X <x@y>:", "… from x@y:"), a line naming a date or address that ends in "wrote",
  "schrieb", "a écrit", "napisał", "kirjoitti", "ha scritto", "escribió", … (with or without a
  colon; wrapped over up to three lines), an Outlook header block (From/Sent/To/Subject in any
  of the languages below, bold or not), a rule of dashes, equals signs or underscores, an
  "Original Message" line in any of those languages, a signature separator ("--") and the
  "Sent from my phone" lines;
- mail-parser-reply's headers, in every language it ships.

`split(text)` gives the lines above the cut (`Reply.above`), and for a bottom-poster the
unquoted lines just below a `>`-quoted block (`Reply.below`): below an Outlook header block
or a rule nothing is read, since the original follows unquoted to the end (our own turn
email, whose listed moves must never be taken for the player's).
"""

import re
from dataclasses import dataclass
from functools import cache

from mailparser_reply.constants import MAIL_LANGUAGES
from mailparser_reply.parser import EmailMessage

from games.cribbage.notation import visible

LIBRARY_WINDOW = 100_000  # characters searched for the library's headers (at most SCAN lines)
WRAP = 3  # lines a wrapped quote header may take
SCAN = 500  # lines looked through for the cut: a reply's own words are read from the top 12 lines

_VERBS = (
    r"\b(wrote|writes|schrieb|a\s+[ée]crit|[ée]crit|napisa[łl](\(a\)|a)?|nadesła[łl]|napsal(\(a\))?|kirjoitti|"
    r"ha\s+scritto|scrisse|escribi[óo]|escreveu|skrev|schreef|написал(\(а\)|а)?|пишет|írta|yazdı|έγραψε)|"
    r"写道|寫道|書きました|님이 작성하였습니다|님이 작성했습니다"
)
_ADDRESS = r"[^\s<>()\[\]]+@[^\s<>()\[\]]+"
# Lines that head a quote, alone or as the end of a header wrapped over a few lines.
_HEADERS = [
    re.compile(p, re.IGNORECASE)
    for p in (
        # A line ending in an address and a colon: the date-and-name headers of any client.
        rf"[<(\[]?(mailto:)?{_ADDRESS}[>)\]]?\s*[:：]$",
        # "… wrote:" (or without the colon) on a line that names a date or an address.
        rf"^(?=.*(\d|@)).*({_VERBS})(\s.*)?[:：]$",
        rf"^(?=.*(\d|@)).*({_VERBS})$",
    )
]
# Lines that start a quote, a forwarded message or a signature.
_CUTS = [
    re.compile(p, re.IGNORECASE)
    for p in (
        # An "Original Message" or forwarded-message line, in any of these languages.
        r"^[-=_ ]*(original message|message d'origine|ursprüngliche nachricht|oorspronkelijk bericht|"
        r"oprindelig meddelelse|messaggio originale|mensaje original|mensagem original|"
        r"ursprungligt meddelande|opprinnelig melding|alkuperäinen viesti|wiadomość oryginalna|"
        r"oryginalna wiadomość|původní zpráva|исходное сообщение|исходное письмо|原始邮件|原始郵件|"
        r"元のメッセージ|forwarded message|begin forwarded message|message transféré|"
        r"weitergeleitete nachricht|doorgestuurd bericht|mensaje reenviado|mensagem encaminhada|"
        r"messaggio inoltrato|vidarebefordrat meddelande|videresendt meddelelse|пересылаемое сообщение)"
        r".{0,20}$",
        r"^[-=_~]{4,}",  # a rule (Outlook's underscores, dashes, equals signs)
        r"^--\s*$",  # a signature separator
        r"^(sent from my|get outlook for|envoy[ée] de mon|envoy[ée] depuis|von meinem\b.*gesendet|"
        r"gesendet von|enviado desde mi|enviado do meu|inviato da|verzonden (vanaf|met) mijn|wysłano z|"
        r"sendt fra min|skickat från min|lähetetty|отправлено с)\b",
    )
]
MAX_HEADER = 400  # characters: a longer line is no header (and long lines stay cheap to scan)
# Outlook's header block: a From line, then within the next lines a Sent/Date/To line.
_FROM = (
    r"from|van|od|fra|da|von|de|från|frå|lähettäjä|от|от кого|差出人|发件人|寄件者|kimden|feladó|από|"
    r"remetente|emissor"
)
_SENT = (
    r"sent|date|to|subject|verzonden|datum|aan|onderwerp|wysłano|data|do|temat|sendt|dato|til|emne|inviato|"
    r"a|oggetto|gesendet|an|betreff|envoy[ée]|[àa]|objet|enviado|enviada|fecha|para|asunto|assunto|skickat|"
    r"till|ämne|lähetetty|päivämäärä|vastaanottaja|aihe|отправлено|дата|кому|тема|送信日時|日付|宛先|件名|"
    r"发送时间|日期|收件人|主题|寄件日期|收件者|主旨|tarih|kime|konu"
)
_FROM_LINE = re.compile(rf"^({_FROM})\s*[:：]", re.IGNORECASE)
_FROM_WITH_ADDRESS = re.compile(rf"^({_FROM})\s*[:：].*(@|\b({_SENT})\s*[:：])", re.IGNORECASE)
_SENT_LINE = re.compile(rf"^({_SENT})\s*[:：]", re.IGNORECASE)
# Where a wrapped quote header starts ("On Mon, Jun 2, 2025 at 10:00 AM Cribbage by mail <").
_INTRO = re.compile(
    r"^(on|le|am|el|em|il|op|den|på|dnia|w dniu|dne|mon|tue|wed|thu|fri|sat|sun|lun|mar|mer|jeu|ven|sam|dim|"
    r"ma|ti|ke|to|pe|la|su|pon|wt|śr|czw|pt|sob|niedz|пн|вт|ср|чт|пт|сб|вс)\b|^\d{1,4}[./\-年]\d",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Reply:
    above: str  # the player's own words: the lines above the earliest cut
    below: str  # unquoted lines just below a `>`-quoted block (a bottom-poster's words)
    quoted: str  # the quoted part, its `>` marks removed (to tell a quoted instruction)
    cut: bool  # whether a quote (or a signature) was found at all


def _plain(line):
    """A line as its header patterns see it: trimmed, without bold marks."""
    return line.strip().replace("*", "").strip()


def _header_block(lines, i):
    """Whether an Outlook header block starts at line i (From, then Sent/Date/To close below)."""
    line = _plain(lines[i])
    if _FROM_WITH_ADDRESS.search(line):
        return True
    if not _FROM_LINE.search(line):
        return False
    following = [_plain(n) for n in lines[i + 1 : i + 6] if n.strip()][:3]
    return any(_SENT_LINE.search(n) for n in following)


def _is_cut(lines, i):
    if lines[i].lstrip().startswith(">"):
        return True
    line = _plain(lines[i])
    if not line or len(line) > MAX_HEADER:
        return False
    if any(p.search(line) for p in _CUTS + _HEADERS) or _header_block(lines, i):
        return True
    if _INTRO.search(line):  # a header wrapped over the next lines
        window = line
        for n in lines[i + 1 : i + WRAP]:
            window += " " + _plain(n)[:MAX_HEADER]
            if any(p.search(window) for p in _HEADERS):
                return True
    return False


@cache
def _library_headers():
    """mail-parser-reply's header patterns in every language it ships."""
    return EmailMessage(text="", languages=list(MAIL_LANGUAGES)).HEADER_REGEX


def _library_cut(lines):
    """The index of the first line mail-parser-reply takes for a quote header, or None."""
    text = "\n".join(line.strip()[:MAX_HEADER] for line in lines)[:LIBRARY_WINDOW]
    try:
        found = _library_headers().search(text)
    except Exception:  # a parsing library must never stop a reply being read
        return None
    if found is None:
        return None
    start = found.start()
    while start < len(text) and text[start] in "\n ":
        start += 1
    return text.count("\n", 0, start)


def cut_index(lines):
    """The index of the first line of the quote (the earliest any method finds, in the first SCAN
    lines), or None."""
    own = next((i for i in range(min(len(lines), SCAN)) if _is_cut(lines, i)), None)
    library = _library_cut(lines[: own if own is not None else SCAN])
    found = [i for i in (own, library) if i is not None]
    return min(found) if found else None


def _below(lines, cut):
    """A bottom-poster's lines: those after the `>` block that starts at or just after the cut
    (a header line or two may come first), up to the next cut. None when the quote is not
    marked with `>` (its end cannot be known)."""
    i, headers = cut, 0
    while i < len(lines) and not lines[i].lstrip().startswith(">"):
        headers += bool(lines[i].strip())
        if headers > WRAP:
            return ""
        i += 1
    while i < len(lines) and (not lines[i].strip() or lines[i].lstrip().startswith(">")):
        i += 1
    rest = lines[i:]
    end = cut_index(rest)
    return "\n".join(rest[:end] if end is not None else rest)


def split(text):
    """The reply's own words above the quote, and a bottom-poster's below it (see Reply)."""
    lines = visible(text or "").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    cut = cut_index(lines)
    if cut is None:
        return Reply(above="\n".join(lines), below="", quoted="", cut=False)
    quoted = "\n".join(re.sub(r"^(\s*>)+\s?", "", line) for line in lines[cut:])
    return Reply(above="\n".join(lines[:cut]), below=_below(lines, cut), quoted=quoted, cut=True)
