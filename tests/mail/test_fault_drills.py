"""Fault drills on the real services (PostgreSQL, Redis, real Celery workers, a real SMTP server):
in each, every email owed arrives exactly once and every move made stays.

The clock is moved forward (time-machine) rather than waited for; a worker in a subprocess
keeps the real clock, which the drills allow for.
"""

import os
import random
import signal
import time
from collections import Counter
from datetime import timedelta

import psycopg
import pytest
import time_machine
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from clock import tasks as clock_tasks
from cribsite.celery import app
from games import services as game_services
from games import tasks as after_commit
from games.cribbage import legal_moves, notation
from games.models import Event, Game, Seat
from games.selectors import view_for
from mail import delivery, links
from mail.models import InboundEmail, OutboundEmail
from tests import services
from tests.conftest import _drop_connection_pools
from tests.factories import make_user, start_two_player_game

from . import payloads
from .server_down import smtp_at
from .smtp_sink import SmtpSink, free_port

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

SWEPT = timedelta(minutes=2, seconds=1)  # past mail.services.REQUEUE_AFTER and games.follow_ups.REQUEUE_AFTER


def _wait_for(condition, timeout=15, what="the workers"):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"waited {timeout}s for {what}: {_rows()}")
        time.sleep(0.05)


def _rows():
    return list(OutboundEmail.objects.order_by("pk").values_list("pk", "to", "status", "attempts", "last_error"))


def _settled():
    """No row is being sent or waits for a task that is on its way."""
    return not OutboundEmail.objects.filter(status=OutboundEmail.Status.SENDING).exists()


def _tried_and_ready(tries):
    """How many rows were tried at least `tries` times and wait, ready, for the next."""
    return OutboundEmail.objects.filter(status="ready", attempts__gte=tries).count()


def _games(count, rng, player=None, **game_settings):
    """`count` dealt two-player games between new players who want every turn by email."""
    return [
        start_two_player_game(
            players=[make_user(allow_forced_moves=False, password=None, **(player or {})) for _ in range(2)],
            rng=rng,
            **game_settings,
        )
        for _ in range(count)
    ]


def _owed():
    """The emails owed: (recipient, Message-ID of the row once sent) per row that must arrive."""
    return OutboundEmail.objects.exclude(status=OutboundEmail.Status.SKIPPED)


def _check_exactly_once(received, figures):
    """Every owed row was sent, and its message reached the server exactly once."""
    owed = list(_owed())
    by_id = Counter(message["Message-ID"].strip() for _, _, message in received)
    figures.update(owed=len(owed), delivered=len(received), duplicates=sum(n - 1 for n in by_id.values() if n > 1))
    print(f"\nDRILL {figures}")
    assert all(row.status == OutboundEmail.Status.SENT for row in owed), _rows()
    assert figures["duplicates"] == 0
    assert sorted(by_id) == sorted(row.message_id for row in owed)
    assert sorted(rcpt[0] for _, rcpt, _ in received) == sorted(row.to for row in owed)


def _moves_stay(expected):
    """Every move made is in its game's log, once, and the log replays to the stored snapshot."""
    for game_id, seqs in expected.items():
        game = Game.objects.get(pk=game_id)
        logged = set(Event.objects.filter(game=game).values_list("seq", flat=True))
        assert seqs <= logged and len(logged) == game.seq


# --- The SMTP server down for a while, and back --------------------------------------------


def test_the_smtp_server_down_for_fifty_minutes_then_back(settings, monkeypatch, celery_worker_on_redis):
    port = free_port()  # nothing listens there: every connection is refused
    # Every retry is the sweeper's here: a task's own short retry (its countdown on the real
    # clock) would race the sweeps at the moved clock and take a row out of a sweep's batch.
    monkeypatch.setattr(delivery, "TASK_RETRIES_UP_TO", timedelta(0))
    smtp_at(settings, port)
    rng = random.Random(16)
    start = timezone.now()
    with time_machine.travel(start, tick=True) as clock:
        games = _games(4, rng)  # 8 players: each owes the deal's turn email
        _wait_for(lambda: OutboundEmail.objects.filter(attempts__gte=1, status="ready").count() == 8)
        # Down for 50 minutes: the sweeper tries each email again when it is due (1, 2, 4, ...
        # minutes after the last try), each attempt is refused.
        for tried, minutes in enumerate((3, 8, 15, 30, 50), start=2):
            clock.move_to(start + timedelta(minutes=minutes))
            assert after_commit.sweep.apply().get() == 8
            # Waited for by the rows' tries: the sweep pushes a row's next attempt on as it queues
            # it, so "nothing due, nothing sending" also holds before a worker has taken any.
            _wait_for(lambda n=tried: _tried_and_ready(n) == 8)
        tries = sorted(OutboundEmail.objects.values_list("attempts", flat=True))
        assert OutboundEmail.objects.filter(status="ready").count() == 8 and min(tries) >= 6
        with SmtpSink(port=port) as sink:  # the server is back
            clock.shift(timedelta(hours=1))
            assert after_commit.sweep.apply().get() == 8
            _wait_for(lambda: OutboundEmail.objects.filter(status="sent").count() == 8)
            received = sink.drain(timeout=1.5)
    _check_exactly_once(received, {"drill": "smtp down 50 min", "tries before it came back": tries})
    _moves_stay({g.pk: set(range(1, g.seq + 1)) for g in games})


# --- The broker down while moves are made ----------------------------------------------------


def test_the_broker_down_while_moves_are_made(settings, client, celery_worker_on_redis):
    """Moves by the web form, by move links and by a reply while the web side's broker is down."""
    with SmtpSink() as sink:
        smtp_at(settings, sink.port)
        payloads.configure(settings)
        rng = random.Random(3)
        games = _games(3, rng)
        _wait_for(lambda: OutboundEmail.objects.filter(status="sent").count() == 6)
        dealt = sink.drain()
        channels = [("web", "web", "web"), ("web", "link", "link"), ("link", "web", "reply")]
        app.conf.broker_url = f"redis://127.0.0.1:{free_port()}/0"  # the web side's broker is down
        _drop_connection_pools(app)
        answers, made = [], {}
        try:
            for game, moves in zip(games, channels):
                for channel in moves:  # both discards, then the pone's first play
                    game.refresh_from_db()
                    seat = view_for(game, None).to_act[0]
                    answers.append(CHANNELS[channel](client, game, seat, rng))
                    made.setdefault(game.pk, set()).add(Game.objects.get(pk=game.pk).seq)
        finally:
            app.conf.broker_url = services.REDIS_URL  # the broker is back
            _drop_connection_pools(app)
        # Every move answered success; the reply is kept (200 to the provider) and read later.
        assert answers == [302, 302, 302, 302, 200, 200, 200, 302, 200]
        assert InboundEmail.objects.get().status == InboundEmail.Status.RECEIVED
        owed_meanwhile = OutboundEmail.objects.filter(status="ready", attempts=0).count()
        assert owed_meanwhile == 5  # the reply's move is not made yet
        with time_machine.travel(timezone.now() + SWEPT):
            # One sweep queues them all: the emails owed meanwhile and the reply's reading; the two
            # turn emails whose seat has played since (on the site) are skipped, with no task.
            queued = after_commit.sweep.apply().get()
            stale = OutboundEmail.objects.filter(status="skipped", attempts=0).count()
            assert (queued, stale) == (owed_meanwhile - 2 + 1, 2)
            _wait_for(lambda: InboundEmail.objects.get().status == InboundEmail.Status.APPLIED)
            assert after_commit.sweep.apply().get() == 0  # the reply's email went at once
            _wait_for(lambda: not OutboundEmail.objects.filter(status__in=("ready", "sending")).exists())
        received = dealt + sink.drain(timeout=1.5)
    made[games[2].pk].add(Game.objects.get(pk=games[2].pk).seq)
    _check_exactly_once(
        received, {"drill": "broker down", "moves": len(answers), "owed while down": owed_meanwhile + 1}
    )
    _moves_stay(made)


def _chosen_move(game, seat, rng):
    return rng.choice(legal_moves(game_services.engine_state(game), seat))


def _web_move(client, game, seat, rng):
    player = game.seats.get(number=seat).player
    client.force_login(player)
    move = _chosen_move(game, seat, rng)
    data = {"expected_seq": game.seq, "token": f"drill-move-{game.pk:04d}-{game.seq:04d}-{seat}"}
    if move["kind"] == "discard":
        data.update(action="discard", cards=move["cards"])
    else:
        data.update(action=move["kind"], card=move.get("card", ""))
    response = client.post(f"/games/{game.pk}/move/", data)
    client.logout()
    assert Game.objects.get(pk=game.pk).seq > game.seq, response.content[:500]
    return response.status_code


def _link_move(client, game, seat, rng):
    token = links.move_token(game.pk, seat, game.seq, _chosen_move(game, seat, rng))
    response = client.post(reverse("mail:move", args=[token]))
    assert Game.objects.get(pk=game.pk).seq > game.seq, response.content[:500]
    assert b"nothing was changed" not in response.content
    return response.status_code


def _reply_move(client, game, seat, rng):
    player = game.seats.get(number=seat).player
    move = _chosen_move(game, seat, rng)
    words = notation.write(move)
    message = payloads.compose(
        sender=player.email,
        to=links.reply_address(game.pk, seat),
        subject=f"Re: Your move (game {game.pk})",
        text=words,
    )
    return payloads.post(client, "postmark", message).status_code


CHANNELS = {"web": _web_move, "link": _link_move, "reply": _reply_move}


# --- The worker killed in the middle of a send ----------------------------------------------


def test_the_worker_killed_with_sigkill_in_the_middle_of_a_send(settings, celery_worker_process):
    """A clock notice (out of time: the opponent may claim) caught in the middle of its SMTP
    conversation when its worker is SIGKILLed: sent once by the next worker, and the timeout
    sweep run again (as a redelivered task would) owes nothing more."""
    with SmtpSink() as sink:
        smtp_at(settings, sink.port)
        worker = celery_worker_process()
        game = _games(1, random.Random(5), player={"vacation_days": 0}, timeout_policy="opponent_chooses")[0]
        _wait_for(lambda: OutboundEmail.objects.filter(status="sent").count() == 2, timeout=30)
        sink.stalls = 1
        # Both players run out of time in the discard. The subprocess worker keeps the real
        # clock, so the deadlines go back rather than the clock forward.
        Seat.objects.filter(game=game).update(deadline=timezone.now() - timedelta(minutes=1))
        assert clock_tasks.sweep_timeouts.apply().get().get("claimable") == 2
        owed = OutboundEmail.objects.count()
        assert sink.stalled.wait(30), "the worker never reached the mail server"
        (caught,) = OutboundEmail.objects.filter(status="sending")
        assert caught.kind == "claim_offer"
        os.kill(worker.pid, signal.SIGKILL)  # in the middle of the SMTP conversation
        worker.wait(10)
        sink.release.set()
        assert OutboundEmail.objects.get(pk=caught.pk).status == "sending"  # nobody marked it
        assert not clock_tasks.sweep_timeouts.apply().get().get("claimable")  # the cause run again
        assert OutboundEmail.objects.count() == owed
        celery_worker_process()  # a new worker; the row waits for the sweeper to see it stuck
        with time_machine.travel(timezone.now() + timedelta(minutes=11)):  # stuck for 10 minutes
            assert after_commit.sweep.apply().get() >= 1
        _wait_for(lambda: not OutboundEmail.objects.filter(status__in=("ready", "sending")).exists(), timeout=30)
        received = sink.drain(timeout=1.5)
    _check_exactly_once(received, {"drill": "worker SIGKILLed mid-send of a clock notice", "clock notices": owed - 2})
    assert OutboundEmail.objects.get(pk=caught.pk).attempts == 2
    _moves_stay({game.pk: set(range(1, game.seq + 1))})


def _other_connection():
    db = connection.settings_dict
    return psycopg.connect(
        host=db["HOST"] or "127.0.0.1",
        port=db["PORT"] or 5432,
        user=db["USER"],
        password=db["PASSWORD"] or None,
        dbname=db["NAME"],
    )


def test_the_worker_killed_with_sigkill_while_reading_a_reply(settings, client, celery_worker_process):
    """A reply's move caught waiting for its game's lock when its worker is SIGKILLed: the reply,
    left "being read", is read again by the sweeper once its lease is over, its move made once
    and its emails sent once."""
    with SmtpSink() as sink:
        smtp_at(settings, sink.port)
        payloads.configure(settings)
        rng = random.Random(9)
        worker = celery_worker_process()
        game = _games(1, rng)[0]
        _wait_for(lambda: OutboundEmail.objects.filter(status="sent").count() == 2, timeout=30)
        seat = view_for(game, None).to_act[0]
        with _other_connection() as holder:
            holder.execute("SELECT 1 FROM games_game WHERE id = %s FOR UPDATE", [game.pk])  # the move waits
            assert _reply_move(client, game, seat, rng) == 200
            _wait_for(
                lambda: (
                    holder.execute(
                        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = %s",
                        [connection.settings_dict["NAME"]],
                    ).fetchone()[0]
                    == 1
                ),
                timeout=30,
                what="the worker's move to wait for the game's lock",
            )
            os.kill(worker.pid, signal.SIGKILL)  # in the middle of reading the reply
            worker.wait(10)
            holder.rollback()
        reply = InboundEmail.objects.get()
        assert reply.status == InboundEmail.Status.PROCESSING  # nobody will finish it
        assert Game.objects.get(pk=game.pk).seq == game.seq  # its move did not stay
        celery_worker_process()
        with time_machine.travel(timezone.now() + SWEPT):  # its reading may still be going on
            after_commit.sweep.apply().get()
            assert InboundEmail.objects.get().status == InboundEmail.Status.PROCESSING
        with time_machine.travel(timezone.now() + timedelta(minutes=11)):  # its lease is over
            assert after_commit.sweep.apply().get() >= 1
            _wait_for(lambda: InboundEmail.objects.get().status == InboundEmail.Status.APPLIED, timeout=30)
            _wait_for(lambda: not OutboundEmail.objects.filter(status__in=("ready", "sending")).exists(), timeout=30)
        received = sink.drain(timeout=1.5)
    _check_exactly_once(received, {"drill": "worker SIGKILLed while reading a reply"})
    assert Event.objects.filter(game=game, source=Event.Source.EMAIL).count() == 1
    _moves_stay({game.pk: {game.seq + 1}})


# --- The database connection dropped in the middle of a move --------------------------------


def _drop_connection_at(sql_start):
    """An execute wrapper: when the move writes `sql_start...`, terminate this very database
    session from another connection first, as a failover or a restart would."""

    def wrapper(execute, sql, params, many, context):
        if sql.lstrip().upper().startswith(sql_start):
            pid = context["connection"].connection.info.backend_pid
            db = connection.settings_dict
            with psycopg.connect(
                host=db["HOST"] or "127.0.0.1",
                port=db["PORT"] or 5432,
                user=db["USER"],
                password=db["PASSWORD"] or None,
                dbname=db["NAME"],
                autocommit=True,
            ) as other:
                other.execute("SELECT pg_terminate_backend(%s)", [pid])
        return execute(sql, params, many, context)

    return wrapper


@pytest.mark.parametrize("channel", ["web form", "move link"])
def test_the_database_connection_dropped_in_the_middle_of_a_move(settings, client, celery_worker_on_redis, channel):
    with SmtpSink() as sink:
        smtp_at(settings, sink.port)
        rng = random.Random(8)
        game = _games(1, rng)[0]
        _wait_for(lambda: OutboundEmail.objects.filter(status="sent").count() == 2)
        for seat in (0, 1):  # the discards, so that the next move owes a turn email
            game.refresh_from_db()
            game_services.submit_move(game, seat, legal_moves(game_services.engine_state(game), seat)[0])
        game.refresh_from_db()
        before = (game.seq, game.snapshot, Event.objects.count(), OutboundEmail.objects.count())
        seat = view_for(game, None).to_act[0]
        card = view_for(game, seat).playable[0]
        if channel == "web form":
            client.force_login(game.seats.get(number=seat).player)
            url, form = (
                f"/games/{game.pk}/move/",
                {"action": "play", "card": card, "expected_seq": game.seq, "token": "drill-dropped-move"},
            )
            key, success = "web:drill-dropped-move", 302
        else:
            key = links.move_token(game.pk, seat, game.seq, {"kind": "play", "card": card})
            url, form, success = reverse("mail:move", args=[key]), {}, 200
        with connection.execute_wrapper(_drop_connection_at('INSERT INTO "GAMES_EVENT"')):
            response = client.post(url, form)
        # A clear error, and nothing half-written.
        assert response.status_code == 503 and response["Retry-After"]
        assert "nothing was changed" in response.content.decode()
        game.refresh_from_db()
        assert (game.seq, game.snapshot, Event.objects.count(), OutboundEmail.objects.count()) == before
        # The player sends the same move again: it is made once, and its email goes once.
        assert client.post(url, form).status_code == success
        assert client.post(url, form).status_code == success  # sent twice: counts once
        game.refresh_from_db()
        assert game.seq > before[0]
        assert Event.objects.filter(game=game, idempotency_key=key).count() == 1
        _wait_for(lambda: _settled() and not OutboundEmail.objects.filter(status="ready").exists())
        received = sink.drain(timeout=1.5)
    _check_exactly_once(received, {"drill": f"database dropped mid-move ({channel})"})
    _moves_stay({game.pk: set(range(1, game.seq + 1))})
