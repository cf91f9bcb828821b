"""Signed tokens for play by email: the reply address, move links, unsubscribe.

Each purpose has its own salt, so a token made for one never passes for another.

- reply address: ``reply+<game>_<seat>.<hex signature>@REPLY_DOMAIN``. Valid for
  the whole game and any number of replies. The signature is hex, not base64,
  because some mail systems change the case of the local part; it stays well
  under the 64 characters RFC 5321 allows there.
- challenge reply address: ``challenge+<challenge>_<user>.<hex signature>@REPLY_DOMAIN``,
  where an invited player answers "accept" or "decline".
- move link: one move in one game for one seat at one state (seq), opaque: a random key
  of an OfferedMove row (the URL carries no card); expires MOVE_LINK_MAX_AGE after the last
  email that carried it (and is useless once the game is over or moved on). The signed
  tokens of links sent before keep working until they expire.
- unsubscribe: one person; turns their turn emails off. The events' unsubscribe
  (its own salt) turns off organisers' announcements only.
"""

import hashlib
import json
import re
import secrets
from dataclasses import dataclass
from datetime import timedelta
from functools import cache

from django.conf import settings
from django.core import signing
from django.db import connection
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import salted_hmac

from .models import OfferedMove

REPLY_SALT = "mail.reply"
MOVE_SALT = "mail.move"
UNSUBSCRIBE_SALT = "mail.unsubscribe"
EVENTS_UNSUBSCRIBE_SALT = "mail.unsubscribe.events"
MOVE_LINK_MAX_AGE = timedelta(days=30)
RENEWED_AFTER = timedelta(days=1)  # an offered move emailed again lives MOVE_LINK_MAX_AGE from then
_OPAQUE = re.compile(r"[A-Za-z0-9_-]{16,32}")
_REPLY_LOCAL = re.compile(r"^reply\+(\d+)_(\d+)\.([0-9a-f]{24})$", re.IGNORECASE)
_CHALLENGE_LOCAL = re.compile(r"^challenge\+(\d+)_(\d+)\.([0-9a-f]{24})$", re.IGNORECASE)
CHALLENGE_REPLY_SALT = "mail.challenge-reply"


class BadToken(Exception):
    """A token that is forged, damaged, for another purpose, or expired (``expired``)."""

    def __init__(self, message, expired=False):
        super().__init__(message)
        self.expired = expired


class _HexSigner(signing.Signer):
    """Django's Signer with a lower-case hex signature (safe in an email local part)."""

    def signature(self, value, key=None):
        key = key or self.key
        return salted_hmac(self.salt + "signer", value, key, algorithm="sha256").hexdigest()[:24]


def _reply_signer():
    return _HexSigner(salt=REPLY_SALT, sep=".")


# --- Reply address -----------------------------------------------------------


def reply_token(game_id, seat):
    return _reply_signer().sign(f"{game_id}_{seat}")


def reply_address(game_id, seat):
    return f"reply+{reply_token(game_id, seat)}@{settings.REPLY_DOMAIN}"


def read_reply_address(address):
    """(game id, seat) for one of our reply addresses, or None (not ours, forged, damaged)."""
    if not address or "@" not in address:
        return None
    local, _, domain = address.strip().strip("<>").rpartition("@")
    if domain.lower() != settings.REPLY_DOMAIN.lower():
        return None
    match = _REPLY_LOCAL.match(local)
    if match is None:
        return None
    game_id, seat, _ = match.groups()
    try:
        _reply_signer().unsign(f"{game_id}_{seat}.{match.group(3).lower()}")
    except signing.BadSignature:
        return None
    return int(game_id), int(seat)


def challenge_reply_address(challenge_id, user_id):
    """Where one invited player answers one challenge ("accept", "decline"): signed like a game's."""
    token = _HexSigner(salt=CHALLENGE_REPLY_SALT, sep=".").sign(f"{challenge_id}_{user_id}")
    return f"challenge+{token}@{settings.REPLY_DOMAIN}"


def read_challenge_reply_address(address):
    """(challenge id, user id) for one of our challenge reply addresses, or None."""
    if not address or "@" not in address:
        return None
    local, _, domain = address.strip().strip("<>").rpartition("@")
    match = _CHALLENGE_LOCAL.match(local) if domain.lower() == settings.REPLY_DOMAIN.lower() else None
    if match is None:
        return None
    try:
        _HexSigner(salt=CHALLENGE_REPLY_SALT, sep=".").unsign(
            f"{match.group(1)}_{match.group(2)}.{match.group(3).lower()}"
        )
    except signing.BadSignature:
        return None
    return int(match.group(1)), int(match.group(2))


# --- Move links --------------------------------------------------------------


@dataclass(frozen=True)
class MoveLink:
    game_id: int
    seat: int
    seq: int
    move: dict  # an engine move without "seat"; a muggins claim is asked for on the page


def move_token(game_id, seat, seq, move):
    """The opaque token of a link making `move` (a random key of an OfferedMove row, the same
    for every email offering that move at that state); its life starts again with each email."""
    return move_tokens(game_id, seat, seq, [move])[0]


def move_tokens(game_id, seat, seq, moves):
    """move_token of each of `moves`, in order, in one statement for them all: a turn email
    offers up to fifteen discards. Each move's row is made, or, when it was offered at that state
    already, its key is kept and, when due, its life renewed."""
    moves = [{k: v for k, v in move.items() if k != "seat"} for move in moves]
    move_keys = [hashlib.sha256(json.dumps(move, sort_keys=True).encode()).hexdigest() for move in moves]
    by_key = dict(zip(move_keys, moves, strict=True))  # each once: a row is written once a statement
    now = timezone.now()
    field = OfferedMove._meta.get_field
    params = []
    for move_key, move in by_key.items():
        row = OfferedMove(
            key=secrets.token_urlsafe(16),
            game_id=game_id,
            seat=seat,
            seq=seq,
            move=move,
            move_key=move_key,
            made_at=now,
        )
        params += [field(name).get_db_prep_save(getattr(row, name), connection) for name in _OFFERED]
    params.append(field("made_at").get_db_prep_save(now - RENEWED_AFTER, connection))
    with connection.cursor() as cursor:
        cursor.execute(_offer_sql(connection.vendor, len(by_key)), params)
        keys = dict(cursor.fetchall())
    return [keys[move_key] for move_key in move_keys]


_OFFERED = ("key", "game_id", "seat", "seq", "move", "move_key", "made_at")


@cache
def _offer_sql(vendor, count):
    """The rows of `count` offered moves made, each kept when it exists (the move offered at that
    state before, by another email or one made at the same moment): its key returned, and its
    life renewed when it was made more than RENEWED_AFTER ago."""
    quote = connection.ops.quote_name
    table = quote(OfferedMove._meta.db_table)
    row = "(" + ", ".join(["%s"] * len(_OFFERED)) + ")"
    made_at, once = quote("made_at"), ", ".join(quote(name) for name in ("game_id", "seat", "seq", "move_key"))
    return (
        f"INSERT INTO {table} ({', '.join(quote(name) for name in _OFFERED)}) VALUES {', '.join([row] * count)}"
        f" ON CONFLICT ({once}) DO UPDATE SET {made_at} = CASE WHEN {table}.{made_at} < %s"
        f" THEN EXCLUDED.{made_at} ELSE {table}.{made_at} END RETURNING {quote('move_key')}, {quote('key')}"
    )


def read_move_token(token):
    if ":" in token:  # a signed token of the links sent before they were opaque
        return _read_signed_move_token(token)
    offered = OfferedMove.objects.filter(key=token).first() if _OPAQUE.fullmatch(token) else None
    if offered is None:
        raise BadToken("This link is not valid (it may have been cut short by your mail program).")
    if timezone.now() - offered.made_at > MOVE_LINK_MAX_AGE:
        raise BadToken("This link has expired.", expired=True)
    return MoveLink(offered.game_id, offered.seat, offered.seq, dict(offered.move))


def _read_signed_move_token(token):
    """The links emailed before move links were opaque (their move readable in the URL) keep
    working until they expire, MOVE_LINK_MAX_AGE after they were sent: a turn email in a
    player's inbox still moves. Delete this path once that long has passed since."""
    try:
        data = signing.loads(token, salt=MOVE_SALT, max_age=MOVE_LINK_MAX_AGE)
    except signing.SignatureExpired:
        raise BadToken("This link has expired.", expired=True) from None
    except (signing.BadSignature, ValueError, TypeError):
        raise BadToken("This link is not valid (it may have been cut short by your mail program).") from None
    try:
        return MoveLink(int(data["g"]), int(data["s"]), int(data["q"]), dict(data["m"]))
    except (KeyError, TypeError, ValueError):
        raise BadToken("This link is not valid.") from None


def move_url(game_id, seat, seq, move):
    return move_urls(game_id, seat, seq, [move])[0]


def move_urls(game_id, seat, seq, moves):
    """move_url of each of `moves`, their rows read and made together (move_tokens); the URL
    reversed once for them all (a token is URL-safe as it is: reverse() would not change it)."""
    head, _, tail = reverse("mail:move", args=[_TOKEN]).partition(_TOKEN)
    return [absolute(f"{head}{token}{tail}") for token in move_tokens(game_id, seat, seq, moves)]


_TOKEN = "token"


# --- Unsubscribe -------------------------------------------------------------


def unsubscribe_token(user, salt=UNSUBSCRIBE_SALT):
    return signing.dumps({"u": user.pk, "e": user.email.lower()}, salt=salt, compress=True)


def read_unsubscribe_token(token, users, salt=UNSUBSCRIBE_SALT):
    """The user the token was made for (if the address is unchanged), else BadToken."""
    try:
        data = signing.loads(token, salt=salt)
        user = users.filter(pk=int(data["u"])).first()
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise BadToken("This unsubscribe link is not valid.") from None
    if user is None or user.email.lower() != data.get("e"):
        raise BadToken("This unsubscribe link is not valid any more.")
    return user


def unsubscribe_url(user):
    return absolute(reverse("mail:unsubscribe", args=[unsubscribe_token(user)]))


def events_unsubscribe_url(user):
    """Stops the organisers' announcements only (the turn emails and the rest go on)."""
    return absolute(reverse("mail:unsubscribe_events", args=[unsubscribe_token(user, EVENTS_UNSUBSCRIBE_SALT)]))


def absolute(path):
    return f"{settings.SITE_URL}{path}"


def service_address():
    """The service's own address (mail.service_replies reads it): settings.MAIL_SERVICE_ADDRESS,
    else play@ the reply domain."""
    return settings.MAIL_SERVICE_ADDRESS or f"play@{settings.REPLY_DOMAIN}"
