"""Timeouts and more time: the sweep that ends overdue turns, claims, and extensions.

`sweep()` runs from Celery beat (clock.tasks). It reads due seats from
the partial index on Seat.deadline (to_act), a bounded batch at a time, and
settles each in its own transaction under the game's row lock, taken with
SKIP LOCKED on PostgreSQL (a game being moved, or swept by a second beat,
is left for the next run) and with the deadline checked again under the lock:
two sweeps at once never act twice on one turn.

What an overdue turn gets, in order:
1. a seat with time bank left spends a day of it (the game's own reserve);
2. a player with vacation days left (and a game that allows them) spends one
   day automatically and is told (one day covers all their games out of time
   that calendar day);
3. the game's timeout policy: "forfeit" (the others win, no skunk),
   "opponent_chooses" (the opponent may claim the game or give more time; if
   nobody decides within another full period, it is a forfeit), or
   "computer_stands_in" (the computer makes the absent player's simple moves,
   pegging and counting, and the clock restarts; for the discard, a real
   decision, the player gets a second full period; after STAND_IN_LIMIT
   stand-in moves in a row, or that second period, a forfeit).
A computer seat that is overdue (its task was lost) is simply asked to move.
"""

import logging
from datetime import timedelta

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from clock import deadlines, notices, seatclock, vacation
from clock.events import ClockError, record_clock_event
from games import computer as computer_player
from games import cribbage, services, times
from games.cribbage.notation import read_number
from games.cribbage.strategy import choose_move
from games.models import Event, Game, Seat

log = logging.getLogger(__name__)

BATCH = 200
MAX_BATCHES = 10  # one sweep settles at most BATCH * MAX_BATCHES turns; the next does the rest
STAND_IN_LIMIT = 3  # moves the computer makes for an absent player before the game is forfeit
COMPUTER_RETRY = timedelta(hours=1)
# Reply words (mail calls grant_more_time / claim_timeout for them): "more time 2", "extend 2", "claim".
CLAIM_WORDS = "claim"


def due_seats(now, limit=BATCH):
    """(seat id, game id) of turns past their deadline, oldest first (the partial deadline index)."""
    # Practice games are untimed (games started before that still carry a deadline).
    return list(
        Seat.objects.filter(to_act=True, deadline__lte=now, game__practice=False)
        .order_by("deadline")
        .values_list("pk", "game_id")[:limit]
    )


def sweep(now=None, batch=BATCH, max_batches=MAX_BATCHES):
    """Settle every overdue turn (bounded); returns {outcome: count}. Safe to run twice at once."""
    tally = {}
    for _ in range(max_batches):
        now_ = now or timezone.now()
        rows = due_seats(now_, batch)
        acted = 0
        for seat_id, game_id in rows:
            outcome = settle(seat_id, game_id, now_)
            tally[outcome] = tally.get(outcome, 0) + 1
            acted += outcome not in ("busy", "not_due")
        if len(rows) < batch or not acted:
            break
    return tally


def _lock_game(game_id):
    games = Game.objects.filter(pk=game_id, status=Game.Status.ACTIVE)
    if connection.features.has_select_for_update_skip_locked:
        return games.select_for_update(skip_locked=True).first()
    return games.select_for_update().first()


def settle(seat_id, game_id, now=None):
    """Deal with one overdue turn; the outcome in a word ("busy": someone else holds the game)."""
    now = now or timezone.now()
    computer = False
    with transaction.atomic():
        game = _lock_game(game_id)
        if game is None:
            return "busy" if Game.objects.filter(pk=game_id, status=Game.Status.ACTIVE).exists() else "not_due"
        seat = Seat.objects.select_related("player").get(pk=seat_id)
        if not seat.to_act or seat.deadline is None or seat.deadline > now:
            return "not_due"
        if seat.is_computer:
            computer = True
            Seat.objects.filter(pk=seat.pk).update(deadline=now + COMPUTER_RETRY)
        else:
            return _time_out(game, seat, now)
    if computer:
        try:
            computer_player.play_turn(game_id, Game.objects.values_list("seq", flat=True).get(pk=game_id))
        except Exception:
            log.exception("The computer could not move in game %s; trying again later.", game_id)
        return "computer"
    return "not_due"


def _time_out(game, seat, now):
    if seat.bank_seconds > 0:
        _spend_bank_day(game, seat, now)
        return "time_bank"
    if vacation.spend_day_instead(game, seat, now):
        return "vacation_day"
    policy = game.timeout_policy
    if policy == Game.TimeoutPolicy.OPPONENT_CHOOSES and seat.timed_out_at is None:
        _offer_claim(game, seat, now)
        return "claimable"
    if (
        policy == Game.TimeoutPolicy.COMPUTER_STANDS_IN
        and seat.timed_out_at is None
        and seat.stand_in_moves < STAND_IN_LIMIT
    ):
        if _simple_turn(game, seat):
            _stand_in(game, seat, now)
            return "stand_in"
        _grace_period(game, seat, now)  # a real decision (the discard): theirs to make, one more period
        return "grace"
    forfeit(game, seat)
    return "forfeit"


def _spend_bank_day(game, seat, now):
    """The game's reserve first: a day of the seat's time bank, recorded in the log."""

    def spend(clock, rules):
        spent = seatclock.bank_day_spent(clock, rules, now)
        data["seconds"], data["left_seconds"] = clock.bank_seconds - spent.bank_seconds, spent.bank_seconds
        return spent

    data = {"kind": "time_bank", "seat": seat.number}
    record_clock_event(game, seat.number, data, Event.Source.TIMEOUT, change=spend)


def forfeit(game, seat):
    """End `game` by timeout against `seat`: the others win, no skunk.

    Everyone is told by the game-over email the move service records (mail).
    """
    return services.record_forfeit(game, seat.number, reason="timeout", source=Event.Source.TIMEOUT)


def _offer_claim(game, seat, now):
    """Out of time under "opponent_chooses": the opponent may claim now; another full period to decide."""
    _mark_timed_out(game, seat, now)
    notices.owe_claim_offer(game.pk, seat.number, timed_out_at=now)


def _grace_period(game, seat, now):
    """Out of time under "computer_stands_in" with a move the computer does not make for anyone
    (the discard): one more full period, then the game is forfeit. The player is told."""
    _mark_timed_out(game, seat, now)
    notices.owe_claim_offer(game.pk, seat.number, only="self", timed_out_at=now)


def _mark_timed_out(game, seat, now):
    record_clock_event(
        game,
        seat.number,
        {"kind": "time_out", "seat": seat.number},
        Event.Source.TIMEOUT,
        change=lambda clock, rules: seatclock.timed_out(clock, rules, now),
    )


def _simple_turn(game, seat):
    """Is the move owed a forced or simple one (pegging, counting the show), not the discard?"""
    return cribbage.is_simple_turn(services.engine_state(game), seat.number)


def stand_in_move(state, number):
    """The move the computer makes for an absent player (from what that seat could see)."""
    return choose_move(state, number, level="standard")


def _stand_in(game, seat, now):
    state = services.engine_state(game)
    move = {k: v for k, v in stand_in_move(state, seat.number).items() if k != "seat"}
    result = services.submit_move(game, seat.number, move, source=Event.Source.TIMEOUT)
    row = Seat.objects.select_related("player").get(pk=seat.pk)
    if row.to_act and row.deadline and row.deadline <= now:  # still their turn: the clock restarts
        deadlines.save(row, seatclock.turn_started(deadlines.clock_of(row), deadlines.rules_for(result.game, row), now))
    # Counted since the player's own last move (games.services resets it then).
    Seat.objects.filter(pk=seat.pk).update(stand_in_moves=F("stand_in_moves") + 1)
    notices.owe_stand_in(game.pk, seat.number, move, seq=result.game.seq)
    return result


# --- What players do about a clock -------------------------------------------------


def _sides(game):
    return cribbage.Rules.from_json(game.rules)


def grant_more_time(game, granting_seat, to_seat, days, source=Event.Source.WEB, actor=None):
    """The player at `granting_seat` gives `days` more days to an opponent at `to_seat`.

    On the opponent's turn the deadline moves by that much running time (from
    now, if they were out of time and it was theirs to claim); otherwise the
    days wait for their next turn. Recorded as a "more_time" event.
    """
    days = read_number(None if days is None else str(days))  # digits 0 to 9, as in a reply
    if days is None:
        raise ClockError('Say how many days in the digits 0 to 9, e.g. "more time 2".')
    if not 1 <= days <= times.MAX_MORE_DAYS:
        raise ClockError(f"You can give 1 to {times.MAX_MORE_DAYS} days at a time.")
    rules = _sides(game)
    if to_seat not in range(rules.players) or granting_seat not in range(rules.players):
        raise ClockError("There is no such seat in this game.")
    if rules.side_of(granting_seat) == rules.side_of(to_seat):
        raise ClockError("You can only give more time to an opponent.")
    now = timezone.now()
    data = {"kind": "more_time", "seat": to_seat, "by": granting_seat, "days": days}
    game, event, clock = record_clock_event(
        game,
        granting_seat,
        data,
        source,
        actor,
        on=to_seat,
        change=lambda clock, rules: seatclock.more_time(clock, rules, days * rules.day_seconds, now),
    )
    return event


def claimable_seat(game, seat_number):
    """The opponent's seat that `seat_number` may claim the game against now, or None."""
    if game.timeout_policy != Game.TimeoutPolicy.OPPONENT_CHOOSES:
        return None
    rules = _sides(game)
    for seat in game.seats.all():
        if seat.timed_out_at and seat.to_act and rules.side_of(seat.number) != rules.side_of(seat_number):
            return seat
    return None


def claim_timeout(game, claiming_seat, *, actor=None, source=Event.Source.TIMEOUT):
    """The opponent claims the game of a player who ran out of time ("opponent_chooses")."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.is_finished:
            raise ClockError("This game is over.", code="stale")
        seat = claimable_seat(game, claiming_seat)
        if seat is None:
            raise ClockError("Nobody here is out of time: there is nothing to claim.", code="stale")
        result = services.record_forfeit(game, seat.number, reason="timeout", source=source, actor=actor)
    return result
