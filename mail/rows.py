"""The worker's reads of an outbox row and of a stored reply, written out once a process.

Every email the worker sends claims its row and reads it with its user, and a turn email reads
the last one sent to the seat (the quiet inbox); every reply it reads is claimed and read the
same way (`claim_reply`): as games.statements does for the move (and
selectors.game_with_seats for the game the email tells), these statements are written once and
their rows made into the instances the ORM would make (`statements.build`), since building
each with the ORM cost more CPU than its trip to the database. Everything else uses the ORM.
"""

from functools import cache

from django.db import connection

from games import statements
from games.models import TableMessage

from .models import InboundEmail, OutboundEmail

_User = OutboundEmail.user.field.related_model


def claim(outbound_id, now):
    """READY (and due) -> SENDING for one row, its attempts counted: the row as it is then, with
    its user (as `select_related("user")` has it), or None when this caller does not have it.
    One statement on PostgreSQL (the claim's UPDATE returns the row, joined to its user)."""
    sending = OutboundEmail._meta.get_field("claimed_at").get_db_prep_save(now, connection)
    params = [OutboundEmail.Status.SENDING, sending, outbound_id, OutboundEmail.Status.READY, sending]
    returning = connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute(_claim_sql(connection.vendor, returning), params)
        if not returning:
            return _outbound(cursor, outbound_id) if cursor.rowcount == 1 else None
        found = cursor.fetchone()
    if found is None:
        return None
    row = statements.build_with(OutboundEmail, found[:-3], "user")
    sent_at, seq, any_talk = found[-3:]
    # What a turn email asks next, read with the claim (composers.turn takes it from the row):
    # the last turn email sent to the seat, and whether anything was said at the table since.
    row.__dict__["_told_at_claim"] = (None if sent_at is None else (sent_at, seq)), any_talk
    return row


def _outbound(cursor, outbound_id):
    cursor.execute(statements.by_pk(OutboundEmail, "user"), [outbound_id])
    return statements.build_with(OutboundEmail, cursor.fetchone(), "user")


def last_turn_email(game_id, seat):
    """(sent_at, seq) of the last turn email sent to the seat, or None (mail.quiet)."""
    with connection.cursor() as cursor:
        cursor.execute(
            _last_turn_sql(connection.vendor),
            [game_id, seat, OutboundEmail.Kind.TURN, OutboundEmail.Status.SENT],
        )
        found = cursor.fetchone()
    if found is None:
        return None
    row = statements.build(OutboundEmail, found)
    return row.sent_at, row.seq


@cache
def _last_turn_sql(vendor, of=None):
    """The last turn email sent to a seat: given as parameters, or, `of` (an alias), that row's."""
    quote = connection.ops.quote_name
    table = quote(OutboundEmail._meta.db_table)
    sent_at = f"{table}.{quote('sent_at')}"
    game, seat = ("%s", "%s") if of is None else (f"{of}.{quote('game_id')}", f"{of}.{quote('seat')}")
    selected = statements.columns(OutboundEmail) if of is None else f"{sent_at}, {table}.{quote('seq')}"
    kind, status = ("%s", "%s") if of is None else (f"'{OutboundEmail.Kind.TURN}'", f"'{OutboundEmail.Status.SENT}'")
    return (
        f"SELECT {selected} FROM {table} WHERE {table}.{quote('game_id')} = {game}"
        f" AND {table}.{quote('seat')} = {seat} AND {table}.{quote('kind')} = {kind}"
        f" AND {table}.{quote('status')} = {status} AND {sent_at} IS NOT NULL ORDER BY {sent_at} DESC LIMIT 1"
    )


@cache
def _claim_sql(vendor, returning):
    quote = connection.ops.quote_name
    table, user = quote(OutboundEmail._meta.db_table), quote(_User._meta.db_table)
    status, next_at = quote("status"), quote("next_attempt_at")
    claim = (
        f"UPDATE {table} SET {status} = %s, {quote('claimed_at')} = %s, {quote('attempts')} = {quote('attempts')} + 1"
        f" WHERE {quote('id')} = %s AND {status} = %s AND ({next_at} IS NULL OR {next_at} <= %s)"
    )
    if not returning:
        return claim
    claimed, last, talk = quote("claimed"), quote("last"), quote(TableMessage._meta.db_table)
    return (
        f"WITH {claimed} AS ({claim} RETURNING *) SELECT {statements.columns(OutboundEmail, 'claimed')},"
        f" {statements.columns(_User)}, {last}.{quote('sent_at')}, {last}.{quote('seq')},"
        f" EXISTS (SELECT 1 FROM {talk} WHERE {talk}.{quote('game_id')} = {claimed}.{quote('game_id')}"
        f" AND ({last}.{quote('sent_at')} IS NULL OR {talk}.{quote('created_at')} > {last}.{quote('sent_at')}))"
        f" FROM {claimed} LEFT OUTER JOIN {user}"
        f" ON ({claimed}.{quote('user_id')} = {user}.{quote(_User._meta.pk.column)})"
        f" LEFT OUTER JOIN LATERAL ({_last_turn_sql(vendor, claimed)}) {last} ON TRUE"
    )


def claim_reply(inbound_id, now):
    """RECEIVED -> PROCESSING for one stored reply, noting when (a reading that never ends was
    lost with its worker: mail.inbound.unread_batch): the row as it is then, or None when it was
    read already or another worker has it. One statement on PostgreSQL (UPDATE ... RETURNING)."""
    returning = connection.vendor == "postgresql"
    params = [InboundEmail.Status.PROCESSING, now, inbound_id, InboundEmail.Status.RECEIVED]
    with connection.cursor() as cursor:
        cursor.execute(_claim_reply_sql(connection.vendor, returning), params)
        if returning:
            found = cursor.fetchone()
        elif cursor.rowcount == 1:
            cursor.execute(statements.by_pk(InboundEmail), [inbound_id])
            found = cursor.fetchone()
        else:
            found = None
    return None if found is None else statements.build(InboundEmail, found)


@cache
def _claim_reply_sql(vendor, returning):
    quote = connection.ops.quote_name
    table, status = quote(InboundEmail._meta.db_table), quote("status")
    sql = f"UPDATE {table} SET {status} = %s, {quote('claimed_at')} = %s WHERE {quote('id')} = %s AND {status} = %s"
    return f"{sql} RETURNING {statements.columns(InboundEmail)}" if returning else sql
