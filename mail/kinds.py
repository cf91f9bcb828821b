"""How each kind of outbox email is rendered when it is sent: one composer per kind.

A composer takes the OutboundEmail row and returns the message to send
(built by mail.messages.build), a string saying why it is not needed any
more (a reminder for a turn already played, a digest with no game waiting),
or a `Hold` (a turn email for a player who has not come back: sent later).
Whether a row will be sent is decided before a task is queued for it: who it
is for when the row is written (`unwanted`: such a row is written SKIPPED),
and, for a row that waited (held, retried, its task lost), the kind's own
`needed(row)` (a turn played since) before the sweeper queues it again; both
again when it is sent. Kinds owned by a higher app (the clock's, the ladders')
are registered from that app's AppConfig.ready(), so mail never imports it.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

_composers: dict[str, Callable] = {}
_needed: dict[str, Callable] = {}
_always: set[str] = set()
_asked: set[str] = set()


@dataclass(frozen=True)
class Hold:
    """A composer's answer: not now, at `until` (the row is HELD and the sweeper sends it then)."""

    until: datetime


def register(kind, compose, *, even_without_email_on=False, needed=None, asked=False):
    """Render outbox rows of `kind` with `compose(row)`. `even_without_email_on`: sent to a
    player who chose no email too (a challenge or an invitation is a personal message that
    needs an answer). `needed(row)`: None, or why the row will not be sent (checked before
    its task is queued). `asked`: what a person just asked for (a login link, a confirmation),
    sent to the row's address whatever the account chose or its address did before (a link to
    confirm an address that bounced is how its mail starts again)."""
    _composers[kind] = compose
    if needed is not None:
        _needed[kind] = needed
    if even_without_email_on:
        _always.add(kind)
    if asked:
        _asked.add(kind)


def registered():
    return set(_composers)


def unwanted(row):
    """Why outbox row `row` will not be sent whatever happens (nobody to send it to, no email
    wanted, no composer), or None: from the row and its user alone, so it is asked when the row
    is written, and no task is queued for a row that would be skipped."""
    if row.kind not in _composers:
        return f"no composer for kind {row.kind!r}"
    user = row.user
    if row.kind in _asked:
        return None if user is not None and row.to else "no one to send it to"
    if user is None or not user.is_active or not user.email:
        return "no one to send it to"
    if user.email_stopped:
        return "the address bounced or complained"
    if row.kind not in _always and not user.wants_email:
        return "the player chose no email"
    return None


def skip_reason(row):
    """Why outbox row `row` will not be sent, or None: what is known without rendering it (asked
    again before a row that waited, a held or retried one, is queued by the sweeper)."""
    needed = _needed.get(row.kind)
    return unwanted(row) or (needed(row) if needed is not None else None)


def compose(row):
    """The message for outbox row `row`, a `Hold`, or why it is not sent."""
    return skip_reason(row) or _composers[row.kind](row)
