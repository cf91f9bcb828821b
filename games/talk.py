"""At the table, beside the game: a private note per player per game, and table talk.

A note is the player's alone: no other player, page, email or export of anyone else
shows it. Table talk ("say ...", by reply or from the page) is a short message to the
other players of the game: shown on the game page and at the top of their next turn
email, never read as a move and never in the game's log. A player may mute another
(everywhere; a player they blocked is muted too, the blocked one not told) and report a message to the staff (the admin lists reported ones).
Limits: NOTE_MAX_CHARS a note, SAY_MAX_CHARS a message, SAY_PER_HOUR messages per
player and game in any hour. Bad input raises TableError and changes nothing.
"""

from datetime import timedelta
from functools import cache

from django.db import connection, transaction
from django.utils import timezone

from accounts import blocks
from accounts.models import Block, User
from games import statements
from games.models import Game, Mute, Note, Seat, TableMessage

NOTE_MAX_CHARS = 2000
SAY_MAX_CHARS = 300
SAY_PER_HOUR = 5


class TableError(Exception):
    """Something at the table that cannot be done. Nothing was changed; `.message` says why,
    `.code` is "forbidden" (not a player), "too_many" (the hourly limit) or "" (bad input)."""

    def __init__(self, message, *, code=""):
        super().__init__(message)
        self.message, self.code = message, code


def _require_player(game, user):
    if not getattr(user, "is_authenticated", False) or not Seat.objects.filter(game=game, player=user).exists():
        raise TableError("Only the players of this game can do that.", code="forbidden")


# --- Notes --------------------------------------------------------------------------


def note_of(game, user):
    """The text of `user`'s note on `game` ("" for none)."""
    if not getattr(user, "is_authenticated", False):
        return ""
    return Note.objects.filter(game=game, player=user).values_list("text", flat=True).first() or ""


def save_note(game, user, text, now=None):
    """Set `user`'s note on `game` to `text` (empty: no note). Returns the note or None."""
    _require_player(game, user)
    text = (text or "").strip()
    if len(text) > NOTE_MAX_CHARS:
        raise TableError(f"A note is at most {NOTE_MAX_CHARS} characters; yours has {len(text)}. Nothing was saved.")
    if not text:
        Note.objects.filter(game=game, player=user).delete()
        return None
    note, _ = Note.objects.update_or_create(
        game=game, player=user, defaults={"text": text, "updated_at": now or timezone.now()}
    )
    return note


# --- Table talk ------------------------------------------------------------------------


def say(game, user, text, *, source="web", now=None):
    """`user` says `text` to the other players of `game`. Returns the TableMessage."""
    _require_player(game, user)
    now = now or timezone.now()
    text = " ".join((text or "").split())
    if not text:
        raise TableError('Say something after "say": nothing was sent.')
    if len(text) > SAY_MAX_CHARS:
        raise TableError(
            f"A message to the table is at most {SAY_MAX_CHARS} characters; yours has {len(text)}. Nothing was sent."
        )
    with transaction.atomic():
        # One at a time per player, so two replies at once cannot both pass the limit.
        User.objects.select_for_update().filter(pk=user.pk).first()
        recent = TableMessage.objects.filter(game=game, author=user, created_at__gt=now - timedelta(hours=1)).count()
        if recent >= SAY_PER_HOUR:
            raise TableError(
                f"You have said {recent} things at this table in the last hour, the most there is: "
                f"wait a little. Nothing was sent.",
                code="too_many",
            )
        return TableMessage.objects.create(game=game, author=user, text=text, source=source, created_at=now)


def muted_by(user):
    """The ids of the players `user` has muted."""
    if not getattr(user, "is_authenticated", False):
        return set()
    return set(Mute.objects.filter(player=user).values_list("muted_id", flat=True))


def talk_for(game, user, since=None):
    """The table talk of `game` that `user` sees, oldest first: nothing from players they muted
    or blocked; with `since`, only what was said after it. (The page's panel and the turn email
    read the same in fewer statements: panel_for, talk_to_tell.)"""
    messages = TableMessage.objects.filter(game=game).select_related("author")
    if since is not None:
        messages = messages.filter(created_at__gt=since)
    unheard = muted_by(user) | blocks.blocked_by(user)
    return [m for m in messages if m.author_id not in unheard]


def talk_to_tell(game, user, since=None):
    """What the others said that `user` has not been told by email: their next turn email
    shows it at the top (`since`: when the last one went). Whom `user` muted or blocked is read
    only when someone else said something: most turn emails have no talk to tell."""
    said = [m for m in _said(game, since) if m.author_id != user.pk]
    if not said:
        return []
    unheard = muted_by(user) | blocks.blocked_by(user)
    return [m for m in said if m.author_id not in unheard]


def _said(game, since=None):
    """The table talk of `game` (after `since`), oldest first, each with its author: what
    `talk_for` reads, written out (games.statements), as every turn email asks it."""
    with connection.cursor() as cursor:
        if since is None:
            cursor.execute(_said_sql(connection.vendor, False), [game.pk])
        else:
            created = TableMessage._meta.get_field("created_at").get_db_prep_value(since, connection)
            cursor.execute(_said_sql(connection.vendor, True), [game.pk, created])
        rows = cursor.fetchall()
    return [statements.build_with(TableMessage, row, "author") for row in rows]


@cache
def _said_sql(vendor, since):
    quote = connection.ops.quote_name
    table = quote(TableMessage._meta.db_table)
    created = f"{table}.{quote('created_at')}"
    return (
        f"{statements.select(TableMessage, 'author')} WHERE {table}.{quote('game_id')} = %s"
        + (f" AND {created} > %s" if since else "")
        + f" ORDER BY {created} ASC, {table}.{quote(TableMessage._meta.pk.column)} ASC"
    )


def mute(user, other):
    if other.pk == user.pk:
        raise TableError("You cannot mute yourself.")
    Mute.objects.get_or_create(player=user, muted=other)


def unmute(user, other):
    Mute.objects.filter(player=user, muted=other).delete()


def report(message, user, now=None):
    """A player of the game reports `message` to the staff (once is enough)."""
    _require_player(message.game, user)
    if message.author_id == user.pk:
        raise TableError("You cannot report your own message.")
    TableMessage.objects.filter(pk=message.pk, reported_at__isnull=True).update(
        reported_at=now or timezone.now(), reported_by=user
    )


# --- The game page's panel -------------------------------------------------------------


def panel_for(user, game, seat, typed=None, rows=None):
    """What the game page's note and talk panel shows `user` (`seat`: theirs, or None).
    `typed`: a refused "say" or note given back ({"say": ..., "note": ...}) to mend and send again.
    `rows`: what `panel_statement` read, when the page read it with its game; read here otherwise."""
    if seat is None:
        return {"at_table": False}
    typed = typed or {}
    muted, blocked, note, messages = _panel_rows(rows) if rows is not None else _panel_reads(game, user)
    seats = [s for s in game.seats.all() if s.player_id]
    others = [s.player for s in seats if s.player_id != user.pk]
    authors = {s.player_id: s.player for s in seats}
    heard = [m for m in messages if m.author_id not in muted | blocked]
    for message in heard:  # as talk_for gives them: the authors are the game's players
        if message.author_id in authors:
            message.author = authors[message.author_id]
    return {
        "at_table": True,
        "note": typed["note"] if "note" in typed else note,
        "said": typed.get("say", ""),
        "talk": heard,
        "note_max": NOTE_MAX_CHARS,
        "say_max": SAY_MAX_CHARS,
        "talk_players": [{"user": p, "muted": p.pk in muted} for p in others],
    }


@cache
def _panel_sql(vendor):
    """What _panel_reads asks, written out rather than built by the ORM: the game page reads it on
    every look, and building its small queries cost more CPU than the statement's whole trip to
    the database. Each part's rows padded to one shape: (what, a player's id, a note's text, then
    a message's columns)."""
    quote = connection.ops.quote_name
    mute, block, note, message = (quote(m._meta.db_table) for m in (Mute, Block, Note, TableMessage))
    fields = TableMessage._meta.concrete_fields
    nulls = ", NULL" * len(fields)
    # The messages in TableMessage's order (created_at, then pk), by their place in the row.
    created, pk = (4 + fields.index(TableMessage._meta.get_field(name)) for name in ("created_at", "id"))
    # The messages first: PostgreSQL types a UNION's columns pair by pair from the left, so the
    # parts with only NULLs there come after the one that gives them their types.
    return (
        f"SELECT 'talk', NULL, NULL, {statements.columns(TableMessage)} FROM {message}"
        f" WHERE {message}.{quote('game_id')} = %s"
        f" UNION ALL SELECT 'mute', muted_id, NULL{nulls} FROM {mute} WHERE player_id = %s"
        f" UNION ALL SELECT 'block', blocked_id, NULL{nulls} FROM {block} WHERE blocker_id = %s"
        f" UNION ALL SELECT 'note', NULL, text{nulls} FROM {note} WHERE game_id = %s AND player_id = %s"
        f" ORDER BY 1, {created}, {pk}"
    )


def _panel_reads(game, user):
    """What the panel reads, in one statement: the ids of the players `user` muted, of those
    they blocked, their note on `game` ("" for none) and the game's table talk, oldest first
    (muted_by, blocks.blocked_by, note_of and the messages of talk_for at once)."""
    with connection.cursor() as cursor:
        cursor.execute(*panel_statement(game.pk, user))
        return _panel_rows(cursor.fetchall())


def panel_statement(game_id, user):
    """(the statement, its parameters) of what the panel reads for `user` at game `game_id`, for a
    page that reads it in its game's trip (selectors.game_with_seats_then; `rows` of panel_for)."""
    game_id = Game._meta.pk.get_prep_value(game_id)
    return _panel_sql(connection.vendor), [game_id, user.pk, user.pk, game_id, user.pk]


def _panel_rows(rows):
    muted = {row[1] for row in rows if row[0] == "mute"}
    blocked = {row[1] for row in rows if row[0] == "block"}
    note = next((row[2] for row in rows if row[0] == "note"), "")
    messages = [statements.build(TableMessage, row[3:]) for row in rows if row[0] == "talk"]
    return muted, blocked, note, messages
