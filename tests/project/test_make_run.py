"""On the embedded defaults (SQLite, no broker, mail to files), the processes `make run` starts
(the Procfile, under honcho) run the clock: a game times out on its own, with nobody calling a task.

A day per move lasts a few seconds here (CLOCK_DAY_SECONDS) and the sweep runs every second
(CLOCK_SWEEP_SECONDS); everything else is as `make run` has it.
"""

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
pytestmark = pytest.mark.slow

START_GAME = """
from accounts.models import User
from games import lifecycle
alice, bob = (User.objects.get(email=e) for e in ("alice@example.com", "bob@example.com"))
User.objects.filter(pk__in=[alice.pk, bob.pk]).update(vacation_seconds=0)
game = lifecycle.start_game(players=[alice, bob], days_per_move=1)
print(game.pk)
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def manage(env, *args):
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True, capture_output=True, text=True, timeout=120
    ).stdout


def wait_for(what, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = what()
        if value:
            return value
        time.sleep(0.5)
    return what()


def test_make_runs_processes_time_a_game_out_on_their_own(tmp_path):
    port = free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("CELERY_", "DATABASE_URL", "EMAIL_", "ANYMAIL_", "DJANGO_"))
    }
    env.update(
        PATH=f"{BIN}{os.pathsep}{env.get('PATH', '')}",
        DEBUG="true",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        EMAIL_FILE_PATH=str(tmp_path / "mail"),
        CELERY_FILESYSTEM_DIR=str(tmp_path / "celery"),
        CELERY_BEAT_SCHEDULE_FILENAME=str(tmp_path / "celerybeat-schedule"),
        CLOCK_DAY_SECONDS="4",
        CLOCK_SWEEP_SECONDS="1",
        SITE_URL=f"http://127.0.0.1:{port}",
    )
    manage(env, "migrate", "--noinput")  # as `make run` does, before the processes
    manage(env, "seed_demo")
    game_id = int(manage(env, "shell", "-c", START_GAME).split()[-1])

    log = open(tmp_path / "honcho.log", "w")
    honcho = subprocess.Popen(
        [str(BIN / "honcho"), "start", "--env", os.devnull, "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:

        def web_up():
            try:
                return urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).status == 200
            except OSError:
                return False

        assert wait_for(web_up, 60), (tmp_path / "honcho.log").read_text()

        def finish():
            with sqlite3.connect(tmp_path / "db.sqlite3") as db:
                return db.execute("SELECT status, finish FROM games_game WHERE id = ?", [game_id]).fetchone()

        assert wait_for(lambda: finish()[0] == "finished", 90) is True, (tmp_path / "honcho.log").read_text()
        assert finish() == ("finished", "forfeit")
        with sqlite3.connect(tmp_path / "db.sqlite3") as db:
            kind, source = db.execute(
                "SELECT kind, source FROM games_event WHERE game_id = ? ORDER BY seq DESC", [game_id]
            ).fetchone()
        assert (kind, source) == ("forfeit", "timeout")

        def game_over_mail():
            return [p for p in (tmp_path / "mail").glob("*.log") if "ran out of time" in p.read_text()]

        assert wait_for(game_over_mail, 30), "no game-over email was written"
    finally:
        os.killpg(honcho.pid, signal.SIGINT)  # Ctrl-C, as on a terminal: honcho stops both
        honcho.wait(30)
        log.close()
    output = (tmp_path / "honcho.log").read_text()
    assert "clock.tasks.sweep_timeouts" in output and "web.1 stopped" in output and "clock.1 stopped" in output
