"""The text of an HTML reply, its quoted part marked as a plain-text client marks it ("> ").

Mail clients mark the quote of an HTML reply with its structure, not with `>`: Gmail's
`div.gmail_quote`, Apple Mail's and iOS Mail's `blockquote type=cite`, Thunderbird's
`div.moz-cite-prefix` and blockquote, Yahoo's `div.yahoo_quoted`, any `<blockquote>`; and
Outlook and Hotmail put the original after a divider with nothing closing it: an `<hr>`,
`#divRplyFwdMsg`, `#appendonsend`, a `border-top` div. `text(html)` turns the HTML into
lines with every quoted line (and every line after a divider) starting "> ", so that
mail.quotes reads it like any other reply: the player's words above the quote, a
bottom-poster's below a blockquote. A streaming parser: linear in the size of the HTML,
and it never raises on broken markup.
"""

import re
from html.parser import HTMLParser

CHUNK = 16_384  # characters fed at a time
ENOUGH = 1_000  # lines of text: the reply's words and its quote's start are far above this
_SKIPPED = {"head", "style", "script", "title", "template"}
_BLOCKS = {
    "p",
    "div",
    "br",
    "tr",
    "li",
    "ul",
    "ol",
    "table",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "pre",
    "blockquote",
    "section",
    "article",
    "header",
    "footer",
}
_VOID = {"br", "hr", "img", "meta", "link", "input", "wbr", "col", "area", "base", "source"}
# Elements whose content is the quote (by class, or a blockquote).
_QUOTE_CLASSES = {"gmail_quote", "gmail_attr", "yahoo_quoted", "moz-cite-prefix", "protonmail_quote"}
# Elements after which everything is the original (Outlook's and Hotmail's dividers).
_DIVIDER_IDS = {"divrplyfwdmsg", "appendonsend", "mail-editor-reference-message-container"}
_DIVIDER_CLASSES = {"outlookmessageheader", "ms-outlook-mobile-reference-message"}
_BORDER_TOP = re.compile(r"border-top\s*:\s*(solid|[^;]*\bsolid\b)", re.IGNORECASE)


class _Reader(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.lines = []  # (quoted, text)
        self.line = []
        self.line_quoted = False
        self.stack = []  # (tag, quotes) of the open elements
        self.quote_depth = 0
        self.skip_depth = 0
        self.after_divider = False

    @property
    def quoted(self):
        return self.after_divider or self.quote_depth > 0

    def newline(self):
        text = "".join(self.line).strip()
        if text:
            self.lines.append((self.line_quoted, text))
        self.line, self.line_quoted = [], self.quoted

    def handle_starttag(self, tag, attrs):
        attributes = {k.lower(): (v or "") for k, v in attrs}
        classes = set(attributes.get("class", "").lower().split())
        element_id = attributes.get("id", "").lower().removeprefix("x_")
        if tag == "hr" or element_id in _DIVIDER_IDS or classes & _DIVIDER_CLASSES:
            self.newline()
            self.after_divider = True
        elif tag == "div" and _BORDER_TOP.search(attributes.get("style", "")):
            self.newline()
            self.after_divider = True
        if tag in _BLOCKS:
            self.newline()
        if tag in _VOID:
            return
        quotes = tag == "blockquote" or bool(classes & _QUOTE_CLASSES)
        if tag in _SKIPPED:
            self.skip_depth += 1
        self.stack.append((tag, quotes))
        if quotes:
            self.quote_depth += 1
            self.newline()

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag):
        if tag in _VOID or not any(t == tag for t, _ in self.stack):
            return
        while self.stack:  # close what was left open inside it too
            open_tag, quotes = self.stack.pop()
            if open_tag in _SKIPPED:
                self.skip_depth -= 1
            if quotes:
                self.newline()
                self.quote_depth -= 1
                self.line_quoted = self.quoted
            if open_tag == tag:
                break
        if tag in _BLOCKS:
            self.newline()

    def handle_data(self, data):
        if self.skip_depth:
            return
        text = re.sub(r"\s+", " ", data)
        if text.strip() and not "".join(self.line).strip():
            self.line_quoted = self.quoted
        self.line.append(text)


def text(html):
    """The lines of `html`'s text, the quoted ones starting "> " (the first ENOUGH lines: a very
    large reply costs no more than a short one)."""
    reader = _Reader()
    html = html or ""
    try:
        for start in range(0, len(html), CHUNK):
            reader.feed(html[start : start + CHUNK])
            if len(reader.lines) > ENOUGH:
                break
        else:
            reader.close()
    except Exception:  # broken markup: keep what was read
        pass
    reader.newline()
    return "\n".join(("> " + line) if quoted else line for quoted, line in reader.lines)
