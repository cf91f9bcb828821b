"""The whole stack under load: gunicorn (3 sync workers), a Celery worker on Redis, PostgreSQL.

`make bench load` (DATABASE_URL must name PostgreSQL, Redis at TEST_REDIS_URL or BENCH_REDIS_URL,
default redis://127.0.0.1:6379/0). It makes its own throwaway database, starts the two servers
on it, and measures, each phase apart so that the CPU read from /proc (every process of the
server, children included) belongs to one kind of request:

- /healthz, the floor, asked as a probe asks (no session): one small query and a broker ping
  (believed for 10 s);
- state.json unchanged (the game page's poll with its ETag), and the rows written meanwhile;
- the game page of games in play (a player's view);
- games played by logged-in clients: a move is the POST and the page it redirects to, and the
  other player's look; the worker's CPU until its queue is empty is the turn emails' cost;
- games played by reply: each move a reply posted to the inbound webhook (Postmark's payload),
  timed until the worker has applied it.

Each gunicorn worker also notes the CPU of every request by its label (bench/gunicorn_cpu.py),
so the POST of a move and the page after it, which run at the same moments, are told apart; a
request's whole cost is that plus what every request pays outside it (accepting the connection,
reading the headers): /healthz's CPU from /proc less its own noted CPU.

Prints figures and ratios; asserts nothing. The client is threads with `requests` (already
locked, light on a small machine's CPU): Locust would need a new dependency in the shared lock.
Sizes: BENCH_LOAD_GAMES (web games at once, 6), BENCH_LOAD_MOVES (moves a game at most, 60),
BENCH_LOAD_REPLY_GAMES (3), BENCH_LOAD_REQUESTS (requests of each simple phase, 400).
"""

import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TICK = os.sysconf("SC_CLK_TCK")
GAMES = int(os.environ.get("BENCH_LOAD_GAMES", "6"))
MOVES = int(os.environ.get("BENCH_LOAD_MOVES", "60"))
REPLY_GAMES = int(os.environ.get("BENCH_LOAD_REPLY_GAMES", "3"))
REQUESTS = int(os.environ.get("BENCH_LOAD_REQUESTS", "400"))
CLIENTS = 6  # requests in flight at once in the simple phases
WEBHOOK_SECRET = "bench-hook:" + secrets.token_hex(12)


def main():
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cribsite.settings")
    django.setup()
    from django.db import connection

    if connection.vendor != "postgresql":
        print("skipped: needs PostgreSQL (DATABASE_URL=postgres://...), as production runs")
        return
    from tests import services as test_services

    redis_url = os.environ.get("BENCH_REDIS_URL") or test_services.REDIS_URL
    if not test_services.redis_reachable():
        print(f"skipped: needs Redis at {redis_url}")
        return
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    servers = []
    try:
        _run(connection, redis_url, servers)
    finally:
        for process in servers:
            _stop(process)
        connection.close()
        connection.creation.destroy_test_db(old_name, verbosity=0)


# --- the servers ---------------------------------------------------------------------


def _environment(connection, redis_url, port):
    from django.conf import settings

    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANYMAIL_", "DJANGO_"))}
    # One key for the servers and this process: the sessions and reply addresses made here are
    # read there.
    settings.SECRET_KEY = secrets.token_urlsafe(50)
    env.update(
        DJANGO_SETTINGS_MODULE="cribsite.settings",
        DATABASE_URL=f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}",
        SECRET_KEY=settings.SECRET_KEY,
        DEBUG="false",
        ALLOWED_HOSTS="127.0.0.1",
        SITE_URL=f"http://127.0.0.1:{port}",
        SECURE_SSL_REDIRECT="false",
        SESSION_COOKIE_SECURE="false",
        CSRF_COOKIE_SECURE="false",
        CELERY_BROKER_URL=redis_url,
        CELERY_RESULT_BACKEND="",
        CELERY_QUEUE=f"bench-load-{secrets.token_hex(4)}",
        CACHE_URL=redis_url,
        EMAIL_BACKEND="django.core.mail.backends.dummy.EmailBackend",
        ANYMAIL_WEBHOOK_SECRET=WEBHOOK_SECRET,
        MAIL_INBOUND_PROVIDERS="postmark",
        MAIL_TRUSTED_AUTHSERV_IDS="mx.example.net",
        LOG_LEVEL="WARNING",
        AXES_FAILURE_LIMIT="1000",
    )
    return env


def _start(args, env, log):
    return subprocess.Popen(args, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def _stop(process):
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _cpu_seconds(root_pid):
    """CPU (user + system) of a process and all its descendants, those that ended included
    (their time is in their parent's cutime/cstime once waited for)."""
    children, stats = {}, {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            text = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2 :].split()
        pid, ppid = int(entry), int(fields[1])
        children.setdefault(ppid, []).append(pid)
        stats[pid] = sum(int(x) for x in fields[11:15])  # utime stime cutime cstime
    total, todo = 0, [root_pid]
    while todo:
        pid = todo.pop()
        total += stats.get(pid, 0)
        todo += children.get(pid, [])
    return total / TICK


# --- figures -------------------------------------------------------------------------


def _pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))] * 1000


def _latency(values):
    if not values:
        return "no requests"
    return f"p50 {_pct(values, 50):6.1f} ms  p90 {_pct(values, 90):6.1f} ms  p99 {_pct(values, 99):6.1f} ms"


class Phase:
    """CPU of the web and the worker, and wall time, across a block."""

    def __init__(self, web, worker):
        self.web, self.worker = web, worker

    def __enter__(self):
        self.start = time.perf_counter()
        self.web0, self.worker0 = _cpu_seconds(self.web.pid), _cpu_seconds(self.worker.pid)
        return self

    def __exit__(self, *exc):
        self.seconds = time.perf_counter() - self.start
        self.web_cpu = _cpu_seconds(self.web.pid) - self.web0
        self.worker_cpu = _cpu_seconds(self.worker.pid) - self.worker0


# --- the run -------------------------------------------------------------------------


def _run(connection, redis_url, servers):
    import requests
    from django.conf import settings

    port = _free_port()
    env = _environment(connection, redis_url, port)
    var = ROOT / "var"
    var.mkdir(exist_ok=True)
    log = open(var / "bench-load.log", "w")  # noqa: SIM115 (kept open while the servers run)
    bin_dir = Path(sys.executable).parent
    cpu_dir = tempfile.mkdtemp(prefix="bench-load-cpu-")
    web = _start(
        [str(bin_dir / "gunicorn"), "cribsite.wsgi", "-c", str(ROOT / "bench" / "gunicorn_cpu.py")]
        + ["-w", "3", "-b", f"127.0.0.1:{port}", "--log-level", "warning"],
        {**env, "BENCH_CPU_DIR": cpu_dir},
        log,
    )
    worker = _start(
        [sys.executable, "-m", "celery", "-A", "cribsite", "worker", "--concurrency=1", "--loglevel=WARNING"]
        + ["-Q", env["CELERY_QUEUE"], "--without-mingle", "--without-gossip"],
        env,
        log,
    )
    servers += [web, worker]
    base = f"http://127.0.0.1:{port}"
    for _ in range(120):
        try:
            if requests.get(f"{base}/healthz", timeout=10).status_code == 200:
                break
        except (requests.ConnectionError, requests.Timeout):
            pass
        time.sleep(0.5)
    else:
        print(f"the web did not start: see {var / 'bench-load.log'}")
        return
    settings.CELERY_TASK_ALWAYS_EAGER = False
    from cribsite.celery import app

    app.conf.update(broker_url=redis_url, task_always_eager=False, task_default_queue=env["CELERY_QUEUE"])
    import redis

    queue = redis.Redis.from_url(redis_url)
    print(f"gunicorn 3 sync workers, a Celery worker (1 child), PostgreSQL, Redis; {os.cpu_count()} cores")
    bench = Bench(base, web, worker, queue, env["CELERY_QUEUE"], cpu_dir)
    bench.players()
    bench.warm_up()
    bench.healthz()
    bench.polls()
    bench.pages()
    bench.web_games()
    bench.reply_games()
    bench.summary()
    print(f"\n(server logs: {var / 'bench-load.log'})")


class Bench:
    def __init__(self, base, web, worker, queue, queue_name, cpu_dir):
        self.base, self.web, self.worker, self.queue, self.queue_name = base, web, worker, queue, queue_name
        self.cpu_dir = Path(cpu_dir)
        self.figures = {}

    def noted(self, label):
        """The CPU seconds the web's workers noted for each request with this label."""
        found = []
        for path in self.cpu_dir.glob("cpu-*.tsv"):
            for line in path.read_text().splitlines():
                name, _, seconds = line.partition("\t")
                if name == label:
                    found.append(float(seconds))
        return found

    # Players and their logged-in clients (sessions written here, as a login would).
    def players(self):
        from accounts.models import User

        self.users = [
            User.objects.create_user(f"load{i}@example.com", None, display_name=f"Load{i}", allow_forced_moves=False)
            for i in range(2 * (GAMES + REPLY_GAMES) + 4)
        ]

    def session(self, user, label):
        import requests
        from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
        from django.contrib.sessions.backends.db import SessionStore

        store = SessionStore()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store.create()
        client = requests.Session()
        client.headers["X-Bench"] = label
        client.cookies.set("sessionid", store.session_key, domain="127.0.0.1", path="/")
        return client

    def game(self, a, b, moves=0):
        import random

        from games import cribbage, lifecycle, services

        game = lifecycle.start_game(players=[a, b])
        rng = random.Random(a.pk)
        for _ in range(moves):
            state = services.engine_state(game)
            seat = cribbage.to_act(state)[0]
            legal = [m for m in cribbage.legal_moves(state, seat) if m["kind"] != "resign"]
            game = services.submit_move(game, seat, rng.choice(legal)).game
        return game

    def timed_requests(self, calls):
        """Run the callables CLIENTS at a time; (latencies, errors, wall seconds, Phase)."""
        latencies, errors = [], []

        def one(call):
            start = time.perf_counter()
            response = call()
            latencies.append(time.perf_counter() - start)
            if response.status_code >= 400:
                errors.append(response.status_code)
            return response

        with Phase(self.web, self.worker) as phase, ThreadPoolExecutor(CLIENTS) as pool:
            list(pool.map(one, calls))
        return latencies, errors, phase

    def report(self, name, latencies, errors, phase, per=None):
        count = per or len(latencies)
        web_ms = phase.web_cpu / count * 1000
        self.figures[name] = web_ms
        print(
            f"{name:<28} {len(latencies) / phase.seconds:7.1f}/s  {_latency(latencies)}  errors {len(errors)}"
            f"  web CPU {web_ms:6.2f} ms each"
        )
        return web_ms

    def warm_up(self):
        """Every server process past its first requests (imports, connections) before any figure."""
        a, b = self.users[-2], self.users[-1]
        game = self.game(a, b, moves=6)
        client = self.session(a, "warm-up")
        calls = [f"{self.base}/healthz", f"{self.base}/games/{game.pk}/", f"{self.base}/games/{game.pk}/state.json"]
        with ThreadPoolExecutor(CLIENTS) as pool:
            list(pool.map(client.get, calls * 20))
        self.drain()

    def healthz(self):
        import requests

        client = requests.Session()  # as a probe asks: no session, no player to read
        client.headers["X-Bench"] = "healthz"
        latencies, errors, phase = self.timed_requests([lambda: client.get(f"{self.base}/healthz")] * REQUESTS)
        whole = self.report("/healthz (the floor)", latencies, errors, phase)
        inside = _mean_ms(self.noted("healthz"))
        self.figures["outside"] = max(whole - inside, 0.0)
        print(
            f"{'':<28} of which inside the request {inside:6.2f} ms; outside it (accept, headers,"
            f" close) {self.figures['outside']:6.2f} ms, which every request pays"
        )

    def polls(self):
        from django.db import connection

        a, b = self.users[-4], self.users[-3]
        game = self.game(a, b, moves=4)
        self.drain()  # its emails are sent before the polls: what is written meanwhile is theirs
        client = self.session(a, "poll")
        url = f"{self.base}/games/{game.pk}/state.json"
        etag = client.get(url).headers.get("ETag", "")
        written = _rows_written(connection)
        latencies, errors, phase = self.timed_requests(
            [lambda: client.get(url, headers={"If-None-Match": etag})] * REQUESTS
        )
        self.report("state.json unchanged", latencies, errors, phase)
        time.sleep(1.5)  # the statistics views are written a moment after the transaction
        print(f"{'':<28} rows written by {REQUESTS} polls: {_rows_written(connection) - written}")

    def pages(self):
        a, b = self.users[-2], self.users[-1]
        game = self.game(a, b, moves=6)
        client = self.session(a, "page")
        url = f"{self.base}/games/{game.pk}/"
        client.get(url)
        latencies, errors, phase = self.timed_requests([lambda: client.get(url)] * (REQUESTS // 4))
        self.report("game page (in play)", latencies, errors, phase)

    def web_games(self):
        """Each game played by its two players' clients, one thread a game: look at the page; if
        it offers a move, POST it and follow to the page; else the other player looks."""
        from django.db import connection

        games = [self.game(self.users[2 * i], self.users[2 * i + 1]) for i in range(GAMES)]
        self.drain()  # the deals' emails are no move's
        posts, looks, errors, lock = [], [], [], threading.Lock()

        def play(game):
            clients = [self.session(seat.player, "web-page") for seat in game.seats.order_by("number")]
            url = f"{self.base}/games/{game.pk}/"
            moved, idle, seat = 0, 0, 0
            while moved < MOVES and idle < 4:
                client = clients[seat]
                start = time.perf_counter()
                page = client.get(url)
                with lock:
                    looks.append(time.perf_counter() - start)
                fields = _move_form(page.text)
                if fields is None:
                    idle, seat = idle + 1, 1 - seat
                    continue
                idle = 0
                fields["csrfmiddlewaretoken"] = client.cookies.get("csrftoken", "")
                start = time.perf_counter()
                response = client.post(
                    f"{url}move/", data=fields, allow_redirects=False, headers={"Referer": url, "X-Bench": "web-post"}
                )
                with lock:
                    posts.append(time.perf_counter() - start)
                    if response.status_code != 302:
                        errors.append(response.status_code)
                moved += 1
            connection.close()

        with Phase(self.web, self.worker) as phase, ThreadPoolExecutor(GAMES) as pool:
            list(pool.map(play, games))
        drained = self.drain()
        outside = self.figures["outside"]
        post_ms = _mean_ms(self.noted("web-post")) + outside
        look_ms = _mean_ms(self.noted("web-page")) + outside
        worker_ms = (phase.worker_cpu + drained) * 1000 / max(len(posts), 1)
        self.figures.update(post=post_ms, look=look_ms, turn_emails=worker_ms)
        print(
            f"{'moves by the web':<28} {len(posts) / phase.seconds:7.1f}/s  POST {_latency(posts)}  errors {len(errors)}"
            f" ({GAMES} games at once, {len(posts)} moves, {len(looks)} pages)"
        )
        print(f"{'':<28} page {_latency(looks)}")
        print(
            f"{'':<28} web CPU {phase.web_cpu * 1000 / max(len(posts), 1):6.2f} ms a move (POST and pages);"
            f" noted by the workers, each with {outside:.2f} ms outside: the POST {post_ms:6.2f} ms,"
            f" a page looked at {look_ms:6.2f} ms ({len(looks) / max(len(posts), 1):.2f} a move)"
        )
        print(f"{'':<28} worker CPU {worker_ms:6.2f} ms a move (its turn emails and follow-ups)")

    def drain(self):
        """Wait for the worker's queue to empty and its CPU to settle; the CPU it spent meanwhile."""
        start = _cpu_seconds(self.worker.pid)
        deadline = time.monotonic() + 120
        last = None
        while time.monotonic() < deadline:
            now = _cpu_seconds(self.worker.pid)
            if self.queue.llen(self.queue_name) == 0 and now == last:
                break
            last = now
            time.sleep(0.5)
        return _cpu_seconds(self.worker.pid) - start

    def reply_games(self):
        """Games played by email: every move a reply to the webhook, read and applied by the worker."""
        import requests
        from django.db import connection

        from games.models import Game

        first = 2 * GAMES
        games = [self.game(self.users[first + 2 * i], self.users[first + 2 * i + 1]) for i in range(REPLY_GAMES)]
        posted, applied, errors, lock = [], [], [], threading.Lock()
        auth = tuple(WEBHOOK_SECRET.split(":", 1))

        def play(game):
            session = requests.Session()
            session.headers["X-Bench"] = "reply-webhook"
            for _ in range(MOVES // 2):
                game = Game.objects.get(pk=game.pk)
                if game.is_finished:
                    break
                body, content_type, _ = _reply_payload(game)
                start = time.perf_counter()
                response = session.post(
                    f"{self.base}/anymail/postmark/inbound/",
                    data=body.encode(),
                    headers={"Content-Type": content_type},
                    auth=auth,
                )
                accepted = time.perf_counter()
                ok = response.status_code == 200 and _applied(game)
                with lock:
                    posted.append(accepted - start)
                    if ok:
                        applied.append(time.perf_counter() - start)
                    else:
                        errors.append(response.status_code)
                if not ok:
                    break
            connection.close()

        self.drain()
        with Phase(self.web, self.worker) as phase, ThreadPoolExecutor(max(REPLY_GAMES, 1)) as pool:
            list(pool.map(play, games))
        drained = self.drain()
        moves = max(len(applied), 1)
        print(
            f"{'moves by reply':<28} {len(applied) / phase.seconds:7.1f}/s  applied {_latency(applied)}"
            f"  errors {len(errors)} ({REPLY_GAMES} games at once)"
        )
        print(
            f"{'':<28} webhook {_latency(posted)};  web CPU {phase.web_cpu * 1000 / moves:6.2f} ms,"
            f" worker CPU {(phase.worker_cpu + drained) * 1000 / moves:6.2f} ms a move (reading, move, emails)"
        )

    def summary(self):
        floor = self.figures["/healthz (the floor)"]
        f = self.figures
        print("\nRatios (the issue's goals in brackets; `make bench moves` gives submit_move against the SQL floor):")
        print(f"  POST / /healthz CPU:                  {f['post'] / floor:5.2f}x  (<= 3)")
        print(f"  game page unchanged / /healthz CPU:   {f['game page (in play)'] / floor:5.2f}x  (<= 3)")
        print(f"  game page during play / /healthz CPU: {f['look'] / floor:5.2f}x  (<= 3; changed or not)")
        print(f"  turn emails (worker) / POST CPU:      {f['turn_emails'] / f['post']:5.2f}x  (<= 1)")
        print(f"  state.json unchanged / /healthz CPU:  {f['state.json unchanged'] / floor:5.2f}x  (<= 1.2)")


def _mean_ms(seconds):
    return sum(seconds) / len(seconds) * 1000 if seconds else 0.0


def _rows_written(connection):
    with connection.cursor() as cursor:
        cursor.execute("SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) FROM pg_stat_user_tables")
        return int(cursor.fetchone()[0])


FORM = re.compile(r"<form\b[^>]*>.*?</form>", re.S)


def _move_form(html):
    """The fields of the discard or play the page offers: the first two cards, the first card
    that fits the count. None when the page offers neither."""
    for form in FORM.findall(html):
        action = re.search(r'name="action" value="(discard|play)"', form)
        if not action:
            continue
        fields = {
            "action": action.group(1),
            "expected_seq": re.search(r'name="expected_seq" value="(\d+)"', form).group(1),
            "token": re.search(r'name="token" value="([0-9a-f]+)"', form).group(1),
        }
        if action.group(1) == "discard":
            fields["cards"] = re.findall(r'name="cards" value="(\w+)"', form)[:2]
        else:
            playable = re.findall(r'<button type="submit" name="card" value="(\w+)" class="card-button" aria', form)
            if not playable:
                continue
            fields["card"] = playable[0]
        return fields
    return None


def _reply_payload(game):
    """A player's reply to their turn email, as Postmark posts it: the move in words."""
    from games import cribbage, services
    from games.cribbage import notation
    from mail import links
    from tests.factories import genuine
    from tests.mail.payloads import compose, postmark

    state = services.engine_state(game)
    seat = cribbage.to_act(state)[0]
    move = next(m for m in cribbage.legal_moves(state, seat) if m["kind"] != "resign")
    player = game.seats.get(number=seat).player
    sender = f"{player.display_name} <{player.email}>"
    message = compose(
        sender=sender,
        to=links.reply_address(game.pk, seat),
        subject=f"Re: Your move (game {game.pk})",
        text=notation.write(move) + "\n",
        headers=genuine(sender),
    )
    return postmark(message)


def _applied(game, timeout=30):
    from games.models import Game

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if Game.objects.filter(pk=game.pk, seq__gt=game.seq).exists():
            return True
        time.sleep(0.01)
    return False
