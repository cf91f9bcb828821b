"""The game page (and the site's other pages) as one tree of the code draws them, for comparing
two trees: a change meant to make a page faster must leave its HTML as it was.

    cd <old tree> && PYTHONPATH=$PWD python -m bench.pages_compared dump /tmp/old.json
    cd <new tree> && PYTHONPATH=$PWD python -m bench.pages_compared dump /tmp/new.json
    python -m bench.pages_compared compare /tmp/old.json /tmp/new.json

`dump` plays games move by move at a frozen moment (the shuffles seeded, so two trees play the
same games): two players to 61 and to 121, three with muggins, a time bank, table talk, a note,
a mute, a block, a vacation and a timeout to claim, four in partnerships in an event then
resigned, five-card cribbage; players in two time zones. At each state it asks the game page
for every seat, a watcher and an anonymous reader, twice (rendered, then its fragments from the
cache), then the site's other pages in every theme. Each page is kept with its CSRF and move
tokens masked. `compare` says how many pages were compared, which differ (the first few as
diffs), and which page looked at again differs from its first look. Not run by `make bench`:
it measures nothing. Needs PostgreSQL (DATABASE_URL), in a throwaway test database.
"""

import difflib
import json
import os
import random
import re
import sys
from datetime import UTC, datetime, timedelta

MOMENT = datetime(2026, 11, 3, 15, 30, tzinfo=UTC)


def mask(html):
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', 'name="csrfmiddlewaretoken" value="CSRF"', html)
    return re.sub(r'name="token" value="[0-9a-f]+"', 'name="token" value="TOKEN"', html)


def dump(path):
    import time_machine

    with time_machine.travel(MOMENT, tick=False):
        import django

        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cribsite.settings")
        django.setup()
        from django.conf import settings
        from django.core.cache import cache
        from django.test.utils import setup_databases, teardown_databases

        from cribsite.celery import app

        settings.DEBUG = False
        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
        settings.SECURE_SSL_REDIRECT = False
        settings.EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
        app.conf.update(task_always_eager=False, broker_url="memory://", result_backend="cache+memory://")
        cache.clear()
        old = setup_databases(verbosity=0, interactive=False, serialized_aliases=())
        try:
            pages = _pages()
        finally:
            teardown_databases(old, verbosity=0)
    with open(path, "w") as out:
        json.dump(pages, out, indent=0, sort_keys=True)
    print(f"{len(pages)} pages")


def _pages():  # noqa: C901, PLR0915 (one script of states, told in order)
    from django.test import Client
    from django.urls import reverse
    from django.utils import timezone

    from accounts.models import Block, User
    from games import cribbage, event_games, services, talk
    from games.lifecycle import start_game
    from games.models import Seat

    services._shuffler = random.Random(12345)  # the same deals in both trees
    in_event = []
    named = event_games.EventGame("Winter <League>", "/events/w/", "Round 2, table 3", "Winter League, round 2")
    event_games._NAMERS.insert(0, lambda game_id: named if game_id in in_event else None)
    pages = {}
    made = [0]

    def user(**fields):
        made[0] += 1
        n = made[0]
        zone = "America/St_Johns" if n % 3 == 1 else "UTC"
        return User.objects.create_user(
            f"p{n}@example.com", None, display_name=f"P{n} <b>&", allow_forced_moves=False, time_zone=zone, **fields
        )

    watcher, anonymous = Client(), Client()
    watcher.force_login(user())

    def clients_for(players):
        clients = {}
        for number, player in enumerate(players):
            clients[f"seat{number}"] = Client()
            clients[f"seat{number}"].force_login(player)
        return {**clients, "watcher": watcher, "anon": anonymous}

    def look(game, label, clients):
        url = reverse("games:game", args=[game.pk])
        for who, client in clients.items():
            for look in ("first", "again"):
                response = client.get(url)
                pages[f"{label}|{who}|{look}|{response.status_code}"] = mask(response.content.decode())

    def play(game, rng, label, clients, every=1, most=10**6, before=None):
        k = 0
        while not game.is_finished and k < most:
            if before:
                before(game, k)
                game.refresh_from_db()
            if k % every == 0:
                look(game, f"{label}#{k}", clients)
            state = services.engine_state(game)
            seat = cribbage.to_act(state)[0]
            services.submit_move(game, seat, rng.choice(cribbage.legal_moves(state, seat)))
            game.refresh_from_db()
            k += 1
        look(game, f"{label}#end{k}", clients)

    players = [user(), user()]
    game = start_game(players=players, rng=random.Random(1), target=61)
    play(game, random.Random(2), "two61", clients_for(players))

    three = [user(), user(), user()]

    def at_the_table(game, k):
        now = timezone.now()
        if k == 3:
            talk.say(game, three[1], 'Good <luck> & "fun"')
        if k == 5:
            talk.save_note(game, three[0], "my <note>")
        if k == 7:
            talk.mute(three[0], three[2])
            talk.say(game, three[2], "muted words")
        if k == 9:
            Block.objects.create(blocker=three[1], blocked=three[0])
        if k == 11:
            Seat.objects.filter(game=game).update(paused_until=now + timedelta(days=2))
        if k == 13:
            late = now - timedelta(hours=1)
            Seat.objects.filter(game=game).update(paused_until=None, timed_out_at=late, deadline=late)
        if k == 15:
            Seat.objects.filter(game=game).update(timed_out_at=None)

    game = start_game(
        players=three,
        rng=random.Random(3),
        variant="three",
        muggins=True,
        time_bank_days=2,
        rated=True,
        timeout_policy="opponent_chooses",
    )
    play(game, random.Random(4), "three", clients_for(three), most=60, before=at_the_table)

    four = [user(), user(), user(), user()]
    game = start_game(players=four, rng=random.Random(5), variant="four", pause_weekends=True)
    in_event.append(game.pk)
    play(game, random.Random(6), "four", clients_for(four), every=2, most=50)
    services.submit_move(game, 1, {"kind": "resign", "seat": 1})
    game.refresh_from_db()
    look(game, "four-resigned", clients_for(four))

    players = [user(), user()]
    game = start_game(players=players, rng=random.Random(7), variant="five_card", rated=True, muggins=True)
    play(game, random.Random(8), "five", clients_for(players), every=3)

    players = [user(), user()]
    game = start_game(players=players, rng=random.Random(9))
    play(game, random.Random(10), "two121", clients_for(players), every=5)

    urls = [
        "/",
        "/help/",
        '/help/?next=<b>&x="1"',
        reverse("accounts:profile"),
        "/ladders/",
        "/events/",
        reverse("games:my_games"),
        reverse("games:calculator"),
        reverse("games:record", args=[game.pk]),
        "/no-such-page/",
        "/accounts/login/",
    ]
    for theme in ("", "light", "dark", "bogus"):
        readers = {"anon": Client(), "player": Client(), "chosen": Client()}
        readers["player"].force_login(players[0])
        readers["chosen"].force_login(user(theme=theme if theme in ("light", "dark") else "auto"))
        for who, client in readers.items():
            if theme:
                client.cookies["theme"] = theme
            for url in urls:
                for look in ("first", "again"):
                    response = client.get(url)
                    key = f"other|{theme}|{who}|{url}|{look}|{response.status_code}"
                    pages[key] = mask(response.content.decode(errors="replace"))
    return pages


def compare(old_path, new_path):
    with open(old_path) as old_file, open(new_path) as new_file:
        old, new = json.load(old_file), json.load(new_file)
    if old.keys() != new.keys():
        print(f"not the same pages: {sorted(old.keys() ^ new.keys())[:5]}")
        return 1
    differ = [key for key in old if old[key] != new[key]]
    for name, pages in (("old", old), ("new", new)):
        again = [k for k in pages if "|first|" in k and pages[k] != pages[k.replace("|first|", "|again|")]]
        print(f"{name}: {len(again)} pages differ looked at again {again[:3]}")
    print(f"{len(old)} pages compared; {len(differ)} differ")
    for key in differ[:3]:
        print(f"== {key}")
        print("".join(list(difflib.unified_diff(old[key].splitlines(True), new[key].splitlines(True), n=1))[:40]))
    return 1 if differ else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["dump"] and len(sys.argv) == 3:
        dump(sys.argv[2])
    elif sys.argv[1:2] == ["compare"] and len(sys.argv) == 4:
        sys.exit(compare(sys.argv[2], sys.argv[3]))
    else:
        sys.exit(__doc__)
