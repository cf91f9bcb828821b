"""The game page's fragments kept in the cache, so an unchanged table renders nothing twice.

A fragment (`{% fragment "name" %}...{% endfragment %}` in games/game.html, `{% load fragments %}`)
is kept under a key made of what decides its markup: the game (`Game.kept_as`), the reader's seat (a spectator
is a seat of its own), the last event that reader sees (`Game.seen_seq`: a move anyone sees, or
the seat's own private one, is a new key; another seat's plan is not), the game's status, the
players' names as the page says them, and the version of the code and templates that draw it.
A seat never reads another seat's fragment: its number is in the key. Nothing kept depends on
the request. What does is left out in one of two ways, so a kept fragment can hold the forms:
- the CSRF token and the forms' one-time token (`{{ token }}`) are kept as marks and each look
  puts in its own (`filled`);
- a part that reads the reader, the time or what no event changes (the deadline in the reader's
  time zone, the clock, the table talk, the review the worker writes, the event's name) is a
  `{% live "name" %}...{% endlive %}` inside the fragment: kept as a mark, rendered on every look
  in the page's context. So a live part reads only what the view put in the page's context (not
  a loop's variable or an include's `with`), and each name is used once.

A page reads its fragments at once (`Page`: one MGET of every fragment name the templates
hold, at the first fragment it renders) and keeps those it rendered at once after (`Page.keep`):
two trips to the cache a page at most, not two a fragment.

The cache is the default one (Redis in production, shared by every process; each process's own
memory otherwise). A cache that is down renders the fragment as if it were not kept.
"""

import hashlib
import logging
from functools import cache
from pathlib import Path

from django.conf import settings
from django.core.cache import cache as default_cache

log = logging.getLogger(__name__)

KEPT_SECONDS = 3600  # a game nobody looks at lets its fragments go
GAMES = Path(__file__).resolve().parent
# What draws a fragment: its templates and the code that makes their markup.
SOURCES = (
    "templates/games/*.html",
    "games/board*.py",
    "games/markup.py",
    "games/presentation.py",
    "games/presenter/*.py",
)
SOURCES_IN_APP = ("templatetags/*.py", "coaching.py", "fragments.py")


@cache
def version():
    """A digest of the files that draw the fragments: a deploy that changes one reads new keys."""
    digest = hashlib.blake2b(digest_size=6)
    paths = [p for pattern in SOURCES for p in Path(settings.BASE_DIR).glob(pattern)]
    paths += [p for pattern in SOURCES_IN_APP for p in GAMES.glob(pattern)]
    for path in sorted(set(paths)):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def key(game, seat, seats):
    """The key of `game`'s fragments for the reader at `seat` (a Seat, or None: a spectator);
    `seats`: the game's seats with their players."""
    names = hashlib.blake2b("\x1f".join(str(s) for s in seats).encode(), digest_size=6).hexdigest()
    reader = "s" if seat is None else seat.number
    return f"games:fragment:{version()}:{game.kept_as}:{reader}:{game.seen_seq(seat)}:{game.status}:{names}"


# The fragment names of the templates parsed in this process (the tag adds each as it is parsed):
# what a page asks the cache for at once.
NAMES: set[str] = set()
# The live parts of the templates parsed in this process, by name (`{% live %}` adds each).
LIVE: dict = {}


@cache
def _mark():
    """What a kept fragment marks its holes with: a NUL, which no page holds, and a digest of
    the secret key, so that no text a player writes can pass for a hole."""
    secret = hashlib.blake2b(f"fragment-holes:{settings.SECRET_KEY}".encode(), digest_size=8).hexdigest()
    return f"\x00{secret}\x00"


def hole(name):
    """The mark a kept fragment holds in place of `name`: "csrf", "token" or "live:<a live part>"."""
    return f"{_mark()}{name}{_mark()}"


def keeping():
    """What a fragment's rendering for the cache puts over the page's context: marks for the
    tokens, and `fragment_keeping` so that live parts leave their own mark."""
    return {"csrf_token": hole("csrf"), "token": hole("token"), KEEPING: True}


KEEPING = "fragment_keeping"


class Unfilled(Exception):
    """A kept fragment's hole this look cannot fill: render the fragment anew."""


def filled(html, context):
    """A kept fragment's `html` with this look's tokens and live parts in its holes.

    A live part not parsed yet in this process (its template is read at the first render) or a
    context with no CSRF token (one a template renders as nothing) raise Unfilled."""
    mark = _mark()
    if mark not in html:
        return html
    parts = html.split(mark)
    for i in range(1, len(parts), 2):
        parts[i] = _fill(parts[i], context)
    return "".join(parts)


def _fill(name, context):
    if name == "csrf":
        token = context.get("csrf_token")
        if not token or token == "NOTPROVIDED":
            raise Unfilled(name)
        return str(token)
    if name == "token":
        return str(context.get("token", ""))
    nodelist = LIVE.get(name.removeprefix("live:"))
    if nodelist is None:
        raise Unfilled(name)
    return nodelist.render(context)


class Page:
    """One page's fragments under `page_key` (`key`): read from the cache together the first time
    one is asked for, those rendered instead kept together by `keep()` once the page is rendered.

    `beside`: other keys of the cache the page reads ({name: key}), read in the same trip
    (`beside(name)`), the first time either is asked for."""

    def __init__(self, page_key, beside=None):
        self.key = page_key
        self.found = None  # name -> html, once read
        self.made = {}  # name -> html rendered here
        self.keys_beside = beside or {}
        self.found_beside = {}  # name -> what the cache holds under its key

    def get(self, name):
        """The fragment's html kept in the cache, or None."""
        if self.found is None:
            self._read(NAMES | {name})
        elif name not in self.found and name not in NAMES:  # a template parsed since: asked alone
            self.found.update(get_many(self.key, {name}))
        return self.found.get(name)

    def beside(self, name, missing=None):
        """What the cache holds under the key `beside` named `name`; `missing` when nothing (or
        when the cache is down)."""
        if self.found is None:
            self._read(NAMES)
        return self.found_beside.get(name, missing)

    def _read(self, names):
        self.found = get_many(self.key, names, self.keys_beside, self.found_beside)

    def made_here(self, name, html):
        # Kept as plain text: a SafeString is pickled by its class, some 30 µs more to keep a
        # table and 20 µs more to read it back on every look.
        self.made[name] = str.__str__(html)

    def keep(self):
        if self.made:
            put_many(self.key, self.made)
            self.made = {}


def get_many(page_key, names, beside=None, found_beside=None):
    """{name: html} of the fragments of `names` kept under `page_key`; with `beside` ({name: a
    key}), what the cache holds under those keys too, in the same trip, put in `found_beside`
    by their names."""
    keys = {f"{page_key}:{name}": name for name in names}
    beside = beside or {}
    try:
        found = default_cache.get_many([*keys, *beside.values()])
    except Exception:  # a cache that is down answers like a miss
        log.warning("A page's fragments could not be read from the cache.", exc_info=True)
        return {}
    for name, key in beside.items():
        if key in found:
            found_beside[name] = found.pop(key)
    return {keys[full_key]: html for full_key, html in found.items()}


def put_many(page_key, htmls):
    """Keep `htmls` ({name: html}) under `page_key`."""
    try:
        default_cache.set_many({f"{page_key}:{name}": html for name, html in htmls.items()}, KEPT_SECONDS)
    except Exception:
        log.warning("A page's fragments could not be kept in the cache.", exc_info=True)
