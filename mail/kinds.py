"""How each kind of outbox email is rendered when it is sent: one composer per kind.

A composer takes the OutboundEmail row and returns the message to send
(built by mail.messages.build), or a string saying why it is not needed any
more (a reminder for a turn already played, a digest with no game waiting).
Kinds owned by a higher app (the clock's, the ladders') are registered from
that app's AppConfig.ready(), so mail never imports it; turn and result
emails are mail's own (mail.services).
"""

from collections.abc import Callable

_composers: dict[str, Callable] = {}
_always: set[str] = set()


def register(kind, compose, *, even_without_email_on=False):
    """Render outbox rows of `kind` with `compose(row)`. `even_without_email_on`: sent to a
    player who chose no email too (a challenge or an invitation is a personal message that
    needs an answer)."""
    _composers[kind] = compose
    if even_without_email_on:
        _always.add(kind)


def registered():
    return set(_composers)


def compose(row):
    """The message for outbox row `row`, or why it is not sent."""
    compose = _composers.get(row.kind)
    if compose is None:
        return f"no composer for kind {row.kind!r}"
    user = row.user
    if user is None or not user.is_active or not user.email:
        return "no one to send it to"
    if row.kind not in _always and not user.wants_email:
        return "the player chose no email"
    return compose(row)
