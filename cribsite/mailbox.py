"""The mail written to files in development (Django's file backend), read back for /dev/mail/.

Each message becomes a `Mail`: its headers, the plain text part and the HTML part made safe
to show inside a page under the Content-Security-Policy. The HTML keeps its look without an
iframe: style attributes (which the policy refuses) become rules of one nonce'd stylesheet,
scripts and handlers go, and links to the configured site point at the address actually
being served (a trial run on another port).
"""

import email
import email.policy
import re
from dataclasses import dataclass
from datetime import datetime
from html import escape
from html.parser import HTMLParser
from pathlib import Path

SEPARATOR = b"\n" + b"-" * 79 + b"\n"  # what the file backend writes between messages
DROPPED = {"head", "script", "style", "title", "iframe", "object", "embed", "form"}
VOID = {"area", "br", "col", "hr", "img", "input", "meta", "link", "base", "source", "wbr"}
URL_ATTRIBUTES = {"href", "src"}


@dataclass(frozen=True)
class Mail:
    subject: str
    sender: str
    to: str
    reply_to: str
    date: datetime | None
    text: str
    html: str  # safe markup, its styles as data-mail-style numbers (see `read`)


def read(folder, site_url, served_url, limit=50):
    """(mails, styles): the newest `limit` messages in `folder`, newest first, their links to
    `site_url` retargeted at `served_url`; and {number: CSS declarations} for their HTML."""
    folder = Path(folder)
    files = sorted(folder.glob("*.log"), key=lambda f: f.stat().st_mtime, reverse=True) if folder.exists() else []
    mails: list[Mail] = []
    styles: dict[str, int] = {}
    for path in files:
        if len(mails) >= limit:
            break
        for raw in reversed(path.read_bytes().split(SEPARATOR)):
            if raw.strip() and len(mails) < limit:
                message = email.message_from_bytes(raw.strip(), policy=email.policy.default)
                mails.append(_mail(message, site_url, served_url, styles))
    return mails, {number: css for css, number in styles.items()}


def _mail(message, site_url, served_url, styles):
    def retarget(text):
        return text.replace(site_url, served_url) if site_url and served_url else text

    text_part = message.get_body(preferencelist=("plain",))
    html_part = message.get_body(preferencelist=("html",))
    date = message["Date"]
    page = SafeHtml(retarget, styles)
    if html_part is not None:
        page.feed(html_part.get_content())
        page.close()
    return Mail(
        subject=str(message["Subject"] or "(no subject)"),
        sender=str(message["From"] or ""),
        to=str(message["To"] or ""),
        reply_to=str(message["Reply-To"] or ""),
        date=getattr(date, "datetime", None),
        text=retarget(text_part.get_content()) if text_part is not None else "",
        html="".join(page.out),
    )


class SafeHtml(HTMLParser):
    """An email's HTML rewritten for showing inside a page: the body's content only, no scripts,
    no event handlers, and each style attribute as a number (`styles`: declarations -> number,
    shared by the messages of one page)."""

    def __init__(self, retarget, styles):
        super().__init__(convert_charrefs=True)
        self.retarget = retarget
        self.out: list[str] = []
        self.styles = styles
        self._dropping = 0

    def _attributes(self, attrs):
        kept = []
        for name, value in attrs:
            value = value or ""
            # Classes go too: css-inline wrote their rules into the style attributes, and the
            # site's own classes (.card, .button) would restyle the mail.
            if name.startswith("on") or name in {"id", "class", "srcset"}:
                continue
            if name == "style":
                css = re.sub(r"[<>{}]", "", value).strip()
                number = self.styles.setdefault(css, len(self.styles) + 1)
                kept.append(("data-mail-style", str(number)))
            elif name in URL_ATTRIBUTES:
                url = self.retarget(value)
                if re.match(r"(?i)\s*(javascript|data|vbscript):", url):
                    continue
                kept.append((name, url))
            else:
                kept.append((name, value))
        return "".join(f' {name}="{escape(value)}"' for name, value in kept)

    def handle_starttag(self, tag, attrs):
        if tag in DROPPED and tag not in VOID:
            self._dropping += 1
            return
        if self._dropping:
            return
        if tag in {"html", "link", "meta", "base"}:
            return
        if tag == "body":  # its look (background, font) on a box of its own
            self.out.append(f'<div class="mail-body"{self._attributes(attrs)}>')
            return
        self.out.append(f"<{tag}{self._attributes(attrs)}>")

    def handle_startendtag(self, tag, attrs):
        if not self._dropping and tag not in DROPPED | {"link", "meta", "base"}:
            self.out.append(f"<{tag}{self._attributes(attrs)}>")

    def handle_endtag(self, tag):
        if tag in DROPPED and tag not in VOID:
            self._dropping = max(0, self._dropping - 1)
            return
        if self._dropping or tag in VOID or tag == "html":
            return
        self.out.append("</div>" if tag == "body" else f"</{tag}>")

    def handle_data(self, data):
        if not self._dropping:
            self.out.append(escape(data, quote=False))
