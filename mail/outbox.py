"""Owing an email: one outbox row per email, written in the caller's transaction, sent after commit.

`owed(kind, user, key, ...)` makes a row (unsaved); `write(rows)`, the one
writer of outbox rows, saves those not owed already (the key is unique: a
cause run twice owes one email) and, once the transaction commits, queues the
sending of the rows still ready and still needed, through games.follow_ups
(whose sweeper sends what a lost task left). No network I/O happens here, so
this is safe under any lock. The message is rendered when it is sent
(mail.kinds).
"""

from functools import partial

from accounts import strangers
from games import follow_ups, statements

from . import kinds
from .models import OutboundEmail

QUEUE = "mail.outbox"  # its rows are sent by mail.tasks.send_outbound (games.follow_ups.register_queue)

# Moves a seat makes itself (forced plays included): a turn email is owed after each.
ACTING_KINDS = ("discard", "play", "count", "muggins")
# What players and organisers cause to be sent to others: to an address that is no member's,
# each counts against its daily allowance (accounts.strangers), and is skipped once it is spent.
STRANGER_KINDS = (
    OutboundEmail.Kind.INVITATION,
    OutboundEmail.Kind.CHALLENGE,
    OutboundEmail.Kind.LADDER,
    OutboundEmail.Kind.ANNOUNCEMENT,
)


def owed(kind, user, key, *, context=None, game_id=None, seat=None, seq=None, to=None):
    """An unsaved outbox row of `kind` for `user`; `key` is unique per owed email. `to`: an
    address other than the user's (their old one, told it was changed)."""
    return OutboundEmail(
        kind=kind,
        user=user,
        to=to or user.email,
        key=f"{kind}:{key}",
        context=context or {},
        game_id=game_id,
        seat=seat,
        seq=seq,
    )


def write(rows, *, send=True):
    """Save `rows` once each (by key) and queue their sending after commit. Returns their keys.

    `send=False` leaves the queueing to the caller (`queue(keys)`), for a cause that
    finishes in later transactions (a vacation stops each game's clock in its own): the
    rows are saved with the cause, and the sweeper sends them if the caller never gets there.
    """
    rows = list(rows)
    if not rows:
        return []
    for row in rows:
        reason = kinds.unwanted(row) or _over_allowance(row)
        if reason:  # kept, so that it is seen, with no task queued for it
            row.status, row.last_error = OutboundEmail.Status.SKIPPED, reason
    keys = [row.key for row in rows]
    # OutboundEmail.objects.bulk_create(rows, ignore_conflicts=True), written out, saying which rows
    # are new (with a move's other writes when it is one's: games.trips.one_trip).
    statements.insert_new(rows, by="key", then=partial(_queue_written, rows, keys, send))
    return keys


def _queue_written(rows, keys, send, new):
    if not send:  # the caller's (`queue`)
        return
    if new is not None and len(new) == len(rows):
        # Every row is new, written in this transaction: those ready now are ready and unclaimed at
        # its commit (nothing else knew of them), so their ids are queued without reading them again.
        ready = [row.pk for row in rows if row.status == OutboundEmail.Status.READY]
        if ready:
            follow_ups.after_commit(QUEUE, ready)
    else:
        queue(keys)


def _over_allowance(row):
    """Count `row` against its address's allowance when it goes to a stranger; why not, when spent."""
    if row.kind not in STRANGER_KINDS or strangers.is_member(row.user):
        return None
    if OutboundEmail.objects.filter(key=row.key).exists():  # owed already: counted then
        return None
    if not strangers.take(row.to, row.kind):
        return "the address's allowance of mail for the day is spent (it has no member)"
    return None


def queue(keys):
    """Queue the sending of the rows with these keys once the current transaction commits."""
    if keys:
        follow_ups.after_commit(QUEUE, lambda: _ready(keys))


def owe(kind, user, key, **fields):
    """Owe one email (see `owed`): 1."""
    return len(write([owed(kind, user, key, **fields)]))


def send_ready(keys):
    """Queue the sending of the rows with these keys that are still ready (after commit)."""
    return follow_ups.enqueue_all(QUEUE, _ready(keys))


def _ready(keys):
    return OutboundEmail.objects.filter(
        key__in=keys, status=OutboundEmail.Status.READY, claimed_at__isnull=True
    ).values_list("pk", flat=True)


# --- A move's turn and result emails (inside the move's transaction) ----------------


def record_turn_notices(game, seats, events=(), started=()):
    """Owe a turn email to each seat that must act now and has not been told since it last moved,
    and, when the move ended the game, a result email to every player.

    `seats` maps seat number to Seat (with `player`) as `_append` has them,
    already updated for the new state; `events` are the ones this move wrote
    and `started` the seats whose turn it started. A seat that must act was
    told already unless its turn just started or it moved in `events` (a turn
    only ends with the seat's own move), so this asks the database nothing.
    Computer seats, players who chose the digest or no email, practice games
    (played on the site, with advice) get no turn email. Sending is queued
    after commit.
    """
    if game.practice:
        return []
    if game.is_finished:
        return _record_results(game, seats)
    moved = {event.seat for event in events if event.kind in ACTING_KINDS}
    rows = []
    for number, seat in sorted(seats.items()):
        player = seat.player
        if not seat.to_act or (number not in started and number not in moved):
            continue
        if seat.is_computer or player is None or not player.is_active:
            continue
        if player.notify != player.Notify.EVERY_TURN or not player.email:
            continue
        # game.seq is new under the move's lock on the game: the key cannot collide with an earlier one.
        rows.append(_game_email(OutboundEmail.Kind.TURN, game, number, player, f"{game.pk}:{number}:{game.seq}"))
    return write(rows)


def _record_results(game, seats):
    """The game just ended: one result email per human player (once per game and seat).

    Digest players get it too: their digest lists only the games waiting for
    them, so without it they would never hear how a game ended. Players who
    chose no email get nothing.
    """
    rows = []
    for number, seat in sorted(seats.items()):
        player = seat.player
        if seat.is_computer or player is None or not player.is_active or not player.email:
            continue
        if player.notify == player.Notify.NONE:
            continue
        rows.append(_game_email(OutboundEmail.Kind.RESULT, game, number, player, f"{game.pk}:{number}"))
    return write(rows)


def _game_email(kind, game, number, player, key):
    return owed(kind, player, key, game_id=game.pk, seat=number, seq=game.seq)
