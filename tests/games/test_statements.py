"""The move's written-out statements (games.statements) read and write what the ORM would."""

import random
import threading
import time
from datetime import timedelta
from functools import partial
from unittest.mock import patch

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models.signals import post_init
from django.utils import timezone

from accounts.models import User
from games import cribbage, follow_ups, statements, trips
from games.lifecycle import start_game
from games.models import Event, FollowUp, Game, Seat
from mail import outbox
from mail.models import OutboundEmail
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def _fields(obj):
    return {field.attname: getattr(obj, field.attname) for field in type(obj)._meta.concrete_fields}


def test_the_lock_reads_the_game_and_its_seats_with_their_players_as_the_orm_does():
    player = make_user(standing_plan=[{"rule": "score_first"}], allow_forced_moves=False)
    game = start_game(players=[player, None], computer_level="standard", rng=random.Random(3))
    with transaction.atomic():
        locked, seats = statements.locked_with_seats(game.pk)
        assert _fields(locked) == _fields(Game.objects.get(pk=game.pk))
        assert locked.snapshot == Game.objects.get(pk=game.pk).snapshot and isinstance(locked.snapshot, dict)
        orm = {seat.number: seat for seat in Game.objects.get(pk=game.pk).seats.select_related("player")}
        assert list(seats) == list(orm) == [0, 1]
        for number, seat in seats.items():
            assert _fields(seat) == _fields(orm[number])
            assert seat.game is locked  # no query for it
            assert not seat._state.adding and seat._state.db == "default"
        assert _fields(seats[0].player) == _fields(orm[0].player)
        assert seats[0].player.standing_plan == [{"rule": "score_first"}]
        assert seats[1].player is None and seats[1].is_computer


def _heard(heard, sender, instance, **kwargs):
    heard.append(instance)


def _made(obj):
    return {name: value for name, value in vars(obj).items() if name != "_state"}


def test_a_row_is_built_as_the_orm_makes_it_and_through_from_db_when_a_signal_listens():
    user = make_user(standing_plan=[{"rule": "score_first"}])
    game = start_game(players=[user, None], computer_level="standard", rng=random.Random(3))
    for model, pk in ((User, user.pk), (Game, game.pk)):
        with connection.cursor() as cursor:
            cursor.execute(statements.by_pk(model), [pk])
            row = cursor.fetchone()
        orm = model.objects.get(pk=pk)
        built = statements.build(model, row)
        assert type(built) is model and _made(built) == _made(orm)
        assert not built._state.adding and built._state.db == "default" and built._state.fields_cache == {}
        heard = []
        listener = partial(_heard, heard)
        post_init.connect(listener, sender=model)
        try:
            built = statements.build(model, row)
        finally:
            post_init.disconnect(listener, sender=model)
        assert heard == [built] and _made(built) == _made(orm)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_move_that_waited_for_the_lock_reads_the_seats_as_the_move_before_it_left_them():
    """The seats are read once the game's lock is granted (on PostgreSQL in the same trip as
    the lock: two statements, each reading the database as it stands when it starts)."""
    game = start_game(players=[make_user(), make_user()], rng=random.Random(5))
    read, failed = {}, []

    def next_move():
        try:
            with transaction.atomic():
                locked, seats = statements.locked_with_seats(game.pk)
                read.update(seq=locked.seq, stand_in=seats[0].stand_in_moves)
        except Exception as exc:  # pragma: no cover - what the test reports
            failed.append(exc)
        finally:
            connection.close()

    with transaction.atomic():
        Game.objects.select_for_update().get(pk=game.pk)
        waiting = threading.Thread(target=next_move)
        waiting.start()
        for _ in range(500):  # until the other move waits for the lock (pg_locks is live, not a snapshot)
            with connection.cursor() as cursor:
                cursor.execute("SELECT count(*) FROM pg_locks WHERE NOT granted")
                if cursor.fetchone()[0]:
                    break
            time.sleep(0.01)
        else:
            pytest.fail("the other move never waited for the lock")
        Game.objects.filter(pk=game.pk).update(seq=game.seq + 1)
        Seat.objects.filter(game=game, number=0).update(stand_in_moves=7)
    waiting.join(10)
    assert failed == [] and read == {"seq": game.seq + 1, "stand_in": 7}


def test_a_game_that_is_not_there_is_refused_as_the_orm_refuses_it():
    with pytest.raises(Game.DoesNotExist), transaction.atomic():
        statements.locked_with_seats(10**9)


def test_inserted_and_updated_rows_read_back_as_written():
    game = start_game(players=[make_user(), make_user()], rng=random.Random(4))
    now = timezone.now()
    events = [
        Event(game=game, seq=game.seq + 1, kind="note", data={"a": [1, "x"]}, seat=0, source="admin", created_at=now),
        Event(game=game, seq=game.seq + 2, kind="note", data={}, seat=None, source="system", created_at=now),
    ]
    statements.insert(events)
    for event in events:
        assert event.pk and not event._state.adding
        assert _fields(event) == _fields(Event.objects.get(pk=event.pk))

    seat = game.seats.get(number=1)
    seat.deadline, seat.reminder_stage, seat.to_act = now + timedelta(days=2), 3, False
    assert statements.update(seat, ["deadline", "reminder_stage", "to_act"]) == 1
    assert _fields(Seat.objects.get(pk=seat.pk)) == _fields(seat)


def test_seats_updated_together_each_get_only_their_own_fields(django_assert_num_queries):
    game = start_game(players=[make_user(), make_user()], rng=random.Random(6))
    first, second = game.seats.order_by("number")
    before = {seat.pk: _fields(seat) for seat in (first, second)}
    later = timezone.now() + timedelta(days=3)
    first.deadline, first.reminder_stage, first.private_seq = later, 2, 40  # private_seq not named: not written
    second.deadline, second.stand_in_moves, second.to_act = None, 5, not second.to_act
    with django_assert_num_queries(1):
        assert (
            statements.update_each(
                [(first, ["deadline", "reminder_stage"]), (second, ["deadline", "stand_in_moves", "to_act"])]
            )
            == 2
        )
    assert _fields(Seat.objects.get(pk=first.pk)) == {**before[first.pk], "deadline": later, "reminder_stage": 2}
    assert _fields(Seat.objects.get(pk=second.pk)) == {
        **before[second.pk],
        "deadline": None,
        "stand_in_moves": 5,
        "to_act": second.to_act,
    }
    assert statements.update_each([(first, ["team"]), (second, [])]) == 1  # one object left: a plain update


def _move_rows(game, seq, now):
    return [
        Event(game=game, seq=seq, kind="note", data={"a": 1}, seat=0, source="web", created_at=now),
        Event(game=game, seq=seq + 1, kind="note", data={}, seat=None, source="system", created_at=now),
    ]


@pytest.mark.postgres
def test_a_move_s_writes_go_in_one_trip_and_read_back_as_written(django_assert_num_queries):
    game = start_game(players=[make_user(), make_user()], rng=random.Random(10))
    first, second = game.seats.order_by("number")
    now = timezone.now()
    events = _move_rows(game, game.seq + 1, now)
    game.seq, game.public_seq, game.updated_at = game.seq + 2, game.seq + 2, now
    first.deadline, second.stand_in_moves = now + timedelta(days=1), 4
    with django_assert_num_queries(1):
        statements.write_move(
            events, game, ["seq", "public_seq", "updated_at"], [(first, ["deadline"]), (second, ["stand_in_moves"])]
        )
    for event in events:
        assert event.pk and not event._state.adding
        assert _fields(event) == _fields(Event.objects.get(pk=event.pk))
    assert _fields(Game.objects.get(pk=game.pk)) == _fields(game)
    assert [_fields(seat) for seat in game.seats.order_by("number")] == [_fields(first), _fields(second)]


@pytest.mark.postgres
def test_a_taken_sequence_number_leaves_none_of_the_move_s_writes():
    game = start_game(players=[make_user(), make_user()], rng=random.Random(11))
    before, seats_before = _fields(game), [_fields(seat) for seat in game.seats.order_by("number")]
    seat = game.seats.get(number=0)
    seat.stand_in_moves, game.seq = 9, game.seq + 1
    with pytest.raises(IntegrityError), transaction.atomic():
        statements.write_move(
            _move_rows(game, game.seq - 1, timezone.now()), game, ["seq"], [(seat, ["stand_in_moves"])]
        )
    assert _fields(Game.objects.get(pk=game.pk)) == before
    assert [_fields(seat) for seat in Game.objects.get(pk=game.pk).seats.order_by("number")] == seats_before


def test_a_game_row_that_is_not_there_is_told():
    game = start_game(players=[make_user(), make_user()], rng=random.Random(12))
    gone = Game.objects.get(pk=game.pk)
    gone.pk = 10**9
    with pytest.raises(DatabaseError, match="did not affect any rows"):
        statements.write_move([], gone, ["seq"], [])


def _queued_by(callback):
    """The outbox ids the after-commit `callback` queues a task for."""
    queued = []
    with patch("games.follow_ups.enqueue", lambda task, row_id: queued.append(row_id) or True):
        callback()
    return queued


def test_the_outbox_rows_a_move_writes_are_queued_without_reading_them_again(django_capture_on_commit_callbacks):
    player, other = make_user(), make_user()
    game = start_game(players=[player, other], rng=random.Random(7))
    rows = [
        outbox.owed(OutboundEmail.Kind.TURN, user, f"{game.pk}:{seat}:77", game_id=game.pk, seat=seat, seq=77)
        for seat, user in enumerate((player, other))
    ]
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        keys = outbox.write(rows)
    written = OutboundEmail.objects.filter(key__in=keys).order_by("created_at")
    assert [row.pk for row in rows] == list(written.values_list("pk", flat=True)) and len(keys) == 2
    assert len(callbacks) == 1
    assert _queued_by(callbacks[0]) == [row.pk for row in rows]


def test_an_outbox_row_owed_again_is_queued_if_it_is_still_ready(django_capture_on_commit_callbacks):
    player = make_user()
    game = start_game(players=[player, make_user()], rng=random.Random(8))

    def owed():
        return outbox.owed(OutboundEmail.Kind.TURN, player, f"{game.pk}:0:88", game_id=game.pk, seat=0, seq=88)

    outbox.write([owed()], send=False)
    pk = OutboundEmail.objects.get(key=f"turn:{game.pk}:0:88").pk
    for status, queued_again in (("ready", [pk]), ("sent", [])):
        OutboundEmail.objects.filter(pk=pk).update(status=status)
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            outbox.write([owed()])
        assert _queued_by(callbacks[0]) == queued_again


def test_an_outbox_row_owed_twice_is_written_once():
    player = make_user()
    game = start_game(players=[player, make_user()], rng=random.Random(5))
    key = f"{game.pk}:0:99"
    first = outbox.owed(OutboundEmail.Kind.TURN, player, key, game_id=game.pk, seat=0, seq=99)
    again = outbox.owed(OutboundEmail.Kind.TURN, player, key, game_id=game.pk, seat=0, seq=99)
    assert statements.insert_new([first], by="key") == [first] and first.pk and not first._state.adding
    assert statements.insert_new([again], by="key") == [] and again.pk is None and again._state.adding
    statements.insert([again], ignore_conflicts=True)
    assert list(OutboundEmail.objects.filter(key=f"turn:{key}").values_list("pk", flat=True)) == [first.pk]


def test_follow_ups_owed_are_queued_without_reading_them_again(django_capture_on_commit_callbacks):
    game = start_game(players=[make_user(), None], computer_level="standard", rng=random.Random(9))
    for _ in range(2):  # owed again: the rows are there already, read again after commit
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            keys = follow_ups.owe("computer_turn", game.pk, seq=999)
        owed = sorted(FollowUp.objects.filter(key__in=keys).values_list("pk", flat=True))
        assert len(owed) == len(keys) >= 1
        assert sorted(_queued_by(callbacks[-1])) == owed


@pytest.mark.postgres
def test_one_trip_sends_its_writes_together_and_first_when_anything_else_runs(django_assert_num_queries):
    """Inside `one_trip` a move's writes and the rows its receivers owe go in one query when the
    block ends; a statement run meanwhile (a receiver's read) sends them first, so it sees them."""
    player, other = make_user(), make_user()
    game = start_game(players=[player, other], rng=random.Random(9))
    events = _move_rows(game, game.seq + 1, timezone.now())
    game.seq = game.public_seq = game.seq + 2
    row = outbox.owed(OutboundEmail.Kind.TURN, other, f"{game.pk}:1:{game.seq}", game_id=game.pk, seat=1, seq=game.seq)
    told = []
    with django_assert_num_queries(1), trips.one_trip():
        statements.write_move(events, game, ["seq", "public_seq"], [])
        statements.insert_new([row], by="key", then=told.append)
        assert told == [] and row.pk is None  # not sent yet
    assert told == [[row]] and row.pk and all(event.pk for event in events)
    assert Game.objects.get(pk=game.pk).seq == game.seq and OutboundEmail.objects.filter(pk=row.pk).exists()

    later = _move_rows(game, game.seq + 1, timezone.now())
    game.seq += 2
    with django_assert_num_queries(2), trips.one_trip():
        statements.write_move(later, game, ["seq"], [])
        assert Game.objects.filter(pk=game.pk).values_list("seq", flat=True).get() == game.seq  # sent first
    assert all(event.pk for event in later)


@pytest.mark.postgres
def test_a_failed_trip_writes_nothing_and_says_so():
    game = start_game(players=[make_user(), make_user()], rng=random.Random(10))
    before = _fields(Game.objects.get(pk=game.pk))
    game.seq += 1
    row = outbox.owed(OutboundEmail.Kind.TURN, make_user(), "failed-trip", game_id=game.pk, seat=0, seq=1)
    told = []
    with pytest.raises(IntegrityError), transaction.atomic(), trips.one_trip():
        statements.write_move(_move_rows(game, game.seq - 1, timezone.now()), game, ["seq"], [])  # a taken seq
        statements.insert_new([row], by="key", then=told.append)
    assert told == [] and _fields(Game.objects.get(pk=game.pk)) == before
    assert not OutboundEmail.objects.filter(key__endswith="failed-trip").exists()


def test_a_snapshot_read_is_decoded_once_and_one_set_since_as_it_is():
    game = start_game(players=[make_user(), None], computer_level="standard", rng=random.Random(3))
    first, _ = statements.game_and_seats(game.pk)
    again, _ = statements.game_and_seats(game.pk)
    state = statements.state_of(first)
    assert state == cribbage.state_from_json(Game.objects.get(pk=game.pk).snapshot)
    assert statements.state_of(again) is state  # the same snapshot read: decoded once
    with patch.object(cribbage, "state_from_json", side_effect=AssertionError("decoded again")):
        assert statements.state_of(first) is state
    seat = cribbage.to_act(state)[0]
    played = cribbage.apply(state, {**cribbage.legal_moves(state, seat)[0], "seat": seat})
    again.snapshot = cribbage.state_to_json(played)  # set since it was read: decoded as it is
    assert statements.state_of(again) == played
    assert statements.state_of(Game.objects.get(pk=game.pk)) == state  # a game read elsewhere


@pytest.mark.postgres
def test_the_snapshot_a_move_writes_is_known_when_it_is_read_again():
    from games import services

    game = start_game(
        players=[make_user(allow_forced_moves=False), make_user(allow_forced_moves=False)], rng=random.Random(3)
    )
    state = services.engine_state(game)
    seat = cribbage.to_act(state)[0]
    moved = services.submit_move(game.pk, seat, cribbage.legal_moves(state, seat)[0]).game
    with patch.object(cribbage, "state_from_json", side_effect=AssertionError("decoded again")):
        written = statements.state_of(moved)
        read, _ = statements.game_and_seats(game.pk)
        assert statements.state_of(read) is written
    assert written == cribbage.state_from_json(Game.objects.get(pk=game.pk).snapshot)
