"""Signed, expiring, single-purpose tokens for the links we email.

One signer (Django's TimestampSigner, keyed by SECRET_KEY) with a different
salt per purpose, so a token made for one purpose never passes for another.
Each token carries the user's id and a keyed hash of the parts of the user
that its use changes (as Django's password reset tokens do): once the link
has done its work that hash no longer matches and the link is spent.

- confirm: confirming the address flips ``email_confirmed``.
- login:   logging in changes ``last_login``.
- invite:  accepting sets a password (and confirms and logs in).
"""

from dataclasses import dataclass
from datetime import timedelta

from django.core import signing
from django.utils.crypto import constant_time_compare, salted_hmac


@dataclass(frozen=True)
class Purpose:
    name: str
    max_age: timedelta
    fields: tuple  # user attributes whose change spends the token


CONFIRM = Purpose("confirm", timedelta(days=3), ("email", "email_confirmed", "email_trouble"))
LOGIN = Purpose("login", timedelta(minutes=30), ("email", "password", "last_login", "is_active"))
INVITE = Purpose("invite", timedelta(days=30), ("email", "password", "last_login", "email_confirmed", "is_active"))


class InvalidToken(Exception):
    """The link cannot be used; ``reason`` is "invalid", "expired" or "used"."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


def _signer(purpose):
    return signing.TimestampSigner(salt=f"accounts.tokens.{purpose.name}")


def _state(user, purpose):
    parts = []
    for field in purpose.fields:
        value = getattr(user, field)
        if field == "last_login" and value is not None:
            # Some databases drop microseconds; compare what survives a round trip.
            value = value.replace(microsecond=0, tzinfo=None)
        parts.append("" if value is None else str(value))
    key_salt = f"accounts.tokens.{purpose.name}.state"
    return salted_hmac(key_salt, f"{user.pk}|" + "|".join(parts), algorithm="sha256").hexdigest()[:32]


def make_token(user, purpose, **extra):
    """A URL-safe token for ``user``; ``extra`` (short strings) rides along signed."""
    return _signer(purpose).sign_object({"u": user.pk, "s": _state(user, purpose), **extra}, compress=True)


def read_token(token, purpose, users):
    """Return (user, extra) for a good token, else raise InvalidToken.

    ``users`` is the queryset to look the user up in (e.g. with
    select_for_update() when the caller is about to spend the token).
    """
    try:
        payload = _signer(purpose).unsign_object(token, max_age=purpose.max_age)
    except signing.SignatureExpired:
        raise InvalidToken("expired") from None
    except (signing.BadSignature, ValueError, TypeError):
        raise InvalidToken("invalid") from None
    if not isinstance(payload, dict) or "u" not in payload or "s" not in payload:
        raise InvalidToken("invalid")
    user = users.filter(pk=payload.pop("u")).first()
    if user is None:
        raise InvalidToken("invalid")
    if not constant_time_compare(payload.pop("s"), _state(user, purpose)):
        raise InvalidToken("used")
    return user, payload
