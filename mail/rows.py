"""The send task's reads and writes of an outbox row and its game, written out once a process.

Every email the worker sends claims its row, reads it with its user, reads the game with its
seats and players (a game's email) and, for a turn email, the last one sent to the seat (the
quiet inbox), and writes how it ended: as games.statements does for the
move, these statements are written once and their rows made into the instances the ORM would
make (`statements.build`), since building each with the ORM cost more CPU than its trip to
the database. Everything else uses the ORM.
"""

from functools import cache

from django.db import connection

from games import statements
from games.models import Game, Seat

from .models import OutboundEmail

_User = OutboundEmail.user.field.related_model


def claim(outbound_id, now):
    """READY (and due) -> SENDING for one row, its attempts counted: True if this caller has it."""
    sending = OutboundEmail._meta.get_field("claimed_at").get_db_prep_save(now, connection)
    with connection.cursor() as cursor:
        cursor.execute(
            _claim_sql(connection.vendor),
            [OutboundEmail.Status.SENDING, sending, outbound_id, OutboundEmail.Status.READY, sending],
        )
        return cursor.rowcount == 1


def outbound(outbound_id):
    """`OutboundEmail.objects.select_related("user").get(pk=outbound_id)`, written out."""
    with connection.cursor() as cursor:
        cursor.execute(_outbound_sql(connection.vendor), [outbound_id])
        found = cursor.fetchone()
    if found is None:
        raise OutboundEmail.DoesNotExist(f"{OutboundEmail._meta.object_name} matching query does not exist.")
    width = len(OutboundEmail._meta.concrete_fields)
    row = statements.build(OutboundEmail, found[:width])
    OutboundEmail.user.field.set_cached_value(
        row, None if found[width] is None else statements.build(_User, found[width:])
    )
    return row


def game_with_seats(game_id):
    """The game and its seats with their players, as `selectors.with_seats(Game.objects).get(pk=...)`
    has them (its seats prefetched, so `view_for` reads them without a query), and the seats."""
    with connection.cursor() as cursor:
        cursor.execute(_game_sql(connection.vendor), [game_id])
        found = cursor.fetchone()
        if found is None:
            raise Game.DoesNotExist(f"{Game._meta.object_name} matching query does not exist.")
        game = statements.build(Game, found)
        cursor.execute(_seats_sql(connection.vendor), [game.pk])
        rows = cursor.fetchall()
    width, seats = len(Seat._meta.concrete_fields), []
    for found in rows:
        seat = statements.build(Seat, found[:width])
        Seat.game.field.set_cached_value(seat, game)
        Seat.player.field.set_cached_value(
            seat, None if found[width] is None else statements.build(_User, found[width:])
        )
        seats.append(seat)
    prefetched = game.seats.all()  # as a prefetch leaves it: the queryset with its rows in it
    prefetched._result_cache, prefetched._prefetch_done = seats, True
    game._prefetched_objects_cache = {"seats": prefetched}
    return game, seats


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
def _last_turn_sql(vendor):
    quote = connection.ops.quote_name
    table = quote(OutboundEmail._meta.db_table)
    sent_at = f"{table}.{quote('sent_at')}"
    return (
        f"SELECT {statements.columns(OutboundEmail)} FROM {table} WHERE {table}.{quote('game_id')} = %s"
        f" AND {table}.{quote('seat')} = %s AND {table}.{quote('kind')} = %s AND {table}.{quote('status')} = %s"
        f" AND {sent_at} IS NOT NULL ORDER BY {sent_at} DESC LIMIT 1"
    )


@cache
def _claim_sql(vendor):
    quote = connection.ops.quote_name
    table = quote(OutboundEmail._meta.db_table)
    status, next_at = quote("status"), quote("next_attempt_at")
    return (
        f"UPDATE {table} SET {status} = %s, {quote('claimed_at')} = %s, {quote('attempts')} = {quote('attempts')} + 1"
        f" WHERE {quote('id')} = %s AND {status} = %s"
        f" AND ({next_at} IS NULL OR {next_at} <= %s)"
    )


@cache
def _outbound_sql(vendor):
    quote = connection.ops.quote_name
    table, user = quote(OutboundEmail._meta.db_table), quote(_User._meta.db_table)
    return (
        f"SELECT {statements.columns(OutboundEmail)}, {statements.columns(_User)} FROM {table}"
        f" LEFT OUTER JOIN {user} ON ({table}.{quote('user_id')} = {user}.{quote(_User._meta.pk.column)})"
        f" WHERE {table}.{quote('id')} = %s"
    )


@cache
def _game_sql(vendor):
    quote = connection.ops.quote_name
    table = quote(Game._meta.db_table)
    return f"SELECT {statements.columns(Game)} FROM {table} WHERE {table}.{quote(Game._meta.pk.column)} = %s"


@cache
def _seats_sql(vendor):
    quote = connection.ops.quote_name
    seat, user = quote(Seat._meta.db_table), quote(_User._meta.db_table)
    return (
        f"SELECT {statements.columns(Seat)}, {statements.columns(_User)} FROM {seat}"
        f" LEFT OUTER JOIN {user} ON ({seat}.{quote('player_id')} = {user}.{quote(_User._meta.pk.column)})"
        f" WHERE {seat}.{quote('game_id')} = %s ORDER BY {seat}.{quote('number')}"
    )
