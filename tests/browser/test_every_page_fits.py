"""Every page of the site fits a phone (390 px) and a desktop (1366 px).

One browser, one tab per person (a visitor, a player, an organiser, the site's admin);
each page is opened once and measured at both widths: the page never scrolls sideways,
no picture (img, svg) is wider than the screen unless it sits in a scroller of its own
that fits, no id is used twice, and the browser reports no console error. A screenshot of each page at each
width goes to test-artifacts/<page>-<width>.png for a person to look at.
"""

import random
import time
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts import services as accounts
from accounts import tokens
from clock import calendar, vacation
from games import challenges, computer_games, lifecycle, services
from games.selectors import view_for
from ladders import membership, seasons
from ladders.models import Ladder
from mail import links
from tests.browser.fit import WIDTHS, logged_in, misfits
from tests.factories import finish_game, make_user, moved_until
from tournaments import entries
from tournaments import services as tournaments
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-Long-secret-42"
PLAYERS = {"two": 2, "three": 3, "four": 4}
REFUSALS = {
    "not-found",
    "bad-link",
    "move-link-broken",
    "calculator-wrong",
    "new-challenge-namesakes",
    "signup-refused",
}  # pages answered 4xx on purpose


def games_in_every_phase(alice, others):
    """{"<variant>-<phase>": game} with Alice in seat 0: the discard, the play, the show
    (a muggins game, where each seat counts its own), and the finished game."""
    games = {}
    for variant, n in PLAYERS.items():
        people = [alice, *others[: n - 1]]
        rng = random.Random(n)
        games[f"{variant}-discard"] = lifecycle.start_game(players=people, variant=variant, rng=rng)
        playing = lifecycle.start_game(players=people, variant=variant, rng=rng)
        games[f"{variant}-play"] = moved_until(
            playing, lambda s: s.phase == "play" and len(s.plays) >= 3 and s.turn == 0, rng
        )
        counting = lifecycle.start_game(players=people, variant=variant, muggins=True, rng=rng)
        games[f"{variant}-show"] = moved_until(counting, lambda s: s.phase == "show", rng)
        over = lifecycle.start_game(players=people, variant=variant, rng=rng)
        if variant == "two":
            over = finish_game(over, winner=0)
        else:
            over = moved_until(over, lambda s: s.scores[0] > 20, rng)
            services.submit_move(over, 1, {"kind": "resign"})
        games[f"{variant}-finished"] = over
    return games


def the_site(settings, tmp_path):
    """Everything a page needs, and the pages: [(name, path, who)], who being a key of the people."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"  # read back at /dev/mail/
    settings.EMAIL_FILE_PATH = tmp_path
    # Quiet while the games are played out (hundreds of turn emails would take minutes to write).
    alice = make_user("alice@example.com", "Alice", password=PASSWORD, allow_forced_moves=False, notify="none")
    others = [
        make_user(f"{name.lower()}@example.com", name, allow_forced_moves=False, notify="none")
        for name in ("Bob", "Carol", "Dave")
    ]
    organiser = make_user("olive@example.com", "Olive the organiser", is_staff=True)
    admin = make_user("root@example.com", "Root", is_staff=True, is_superuser=True)
    invited = accounts.invite("newcomer@example.com", alice, "/games/")
    unconfirmed = make_user("uma@example.com", "Uma", email_confirmed=False)
    games = games_in_every_phase(alice, others)
    type(alice).objects.filter(pk=alice.pk).update(notify="every_turn")
    lifecycle.start_game(players=[others[0], alice], rng=random.Random(3))  # a turn email in /dev/mail/

    ladder = Ladder.objects.create(name="The Tuesday club ladder", slug="club", rematch_days=0)
    ladder.organisers.add(organiser)
    seasons.current_season(ladder)
    for player in [alice, *others, *(make_user(display_name=f"Entrant with a long name {n}") for n in range(6))]:
        membership.join(ladder, player)
    seasons.close_season(ladder, actor=organiser)

    challenge = challenges.create_challenge(alice, [others[0].email], variant="two", target=121, days_per_move=3)
    seek = challenges.create_seek(others[1], variant="two", target=121, days_per_move=5)
    make_user("sam.one@example.com", "Sam")  # namesakes, for the challenge form's choice
    make_user("sam.two@example.org", "Sam")
    events = the_events(organiser)
    practice = computer_games.start_practice(alice)
    vacation.start_vacation(others[2], 7)
    calendar.new_key(alice)

    discard = games["two-discard"]
    move = view_for(discard, 0).legal_moves[0]
    move_link = urlsplit(links.move_url(discard.pk, 0, discard.seq, move)).path
    finished = games["two-finished"]
    stale_link = urlsplit(links.move_url(finished.pk, 0, 1, {"kind": "discard", "cards": ["AS", "2S"]})).path
    calc = reverse("games:calculator")
    pages = [
        ("home", "/", "visitor"),
        ("signup", reverse("accounts:signup"), "visitor"),
        ("login", reverse("accounts:login"), "visitor"),
        ("login-link", reverse("accounts:login_link"), "visitor"),
        ("login-link-sent", reverse("accounts:login_link_sent"), "visitor"),
        (
            "login-link-use",
            reverse("accounts:login_link_use", args=[tokens.make_token(alice, tokens.LOGIN)]),
            "visitor",
        ),
        ("bad-link", reverse("accounts:login_link_use", args=["not-a-token"]), "visitor"),
        (
            "confirm-email",
            reverse("accounts:confirm_email", args=[tokens.make_token(unconfirmed, tokens.CONFIRM)]),
            "visitor",
        ),
        (
            "invitation",
            reverse("accounts:invitation", args=[tokens.make_token(invited, tokens.INVITE, n="")]),
            "visitor",
        ),
        ("password-reset", reverse("accounts:password_reset"), "visitor"),
        ("password-reset-sent", reverse("accounts:password_reset_done"), "visitor"),
        (
            "password-reset-confirm",
            reverse(
                "accounts:password_reset_confirm",
                args=[urlsafe_base64_encode(force_bytes(alice.pk)), default_token_generator.make_token(alice)],
            ),
            "visitor",
        ),
        ("password-reset-complete", reverse("accounts:password_reset_complete"), "visitor"),
        ("calculator", calc, "visitor"),
        ("calculator-counted", f"{calc}?hand=5H+5C+5S+JD&starter=5D", "visitor"),
        ("calculator-wrong", f"{calc}?hand=5H+5C+ZZ&starter=", "visitor"),
        ("calculator-throws", f"{calc}?deal=5H+5C+JD+6S+9C+KH", "visitor"),
        ("move-confirm", move_link, "visitor"),
        ("move-stale", stale_link, "visitor"),
        ("move-link-broken", reverse("mail:move", args=["broken"]), "visitor"),
        ("unsubscribe", urlsplit(links.unsubscribe_url(alice)).path, "visitor"),
        ("not-found", "/no-such-page/", "visitor"),
        ("ladders", reverse("ladders:list"), "visitor"),
        ("ladder-visitor", reverse("ladders:detail", args=[ladder.slug]), "visitor"),
        ("ladder-season", reverse("ladders:season", args=[ladder.slug, 1]), "visitor"),
        ("home-player", "/", "alice"),
        ("my-games", reverse("games:my_games"), "alice"),
        ("profile", reverse("accounts:profile"), "alice"),
        ("profile-on-vacation", reverse("accounts:profile"), "dave"),
        ("password-change", reverse("accounts:password_change"), "alice"),
        ("new-challenge", reverse("games:new_challenge"), "alice"),
        ("seeks", reverse("games:seeks"), "alice"),
        ("challenge", reverse("games:challenge", args=[challenge.pk]), "alice"),
        ("challenge-to-answer", reverse("games:challenge", args=[challenge.pk]), "bob"),
        ("seek", reverse("games:challenge", args=[seek.pk]), "alice"),
        ("player", reverse("ratings:player", args=[others[0].pk]), "alice"),
        ("player-self", reverse("ratings:player", args=[alice.pk]), "alice"),
        ("events", reverse("tournaments:list"), "visitor"),
        *((f"event-{kind}", reverse("tournaments:detail", args=[event.slug]), "alice") for kind, event in events),
        ("admin-event", reverse("admin:tournaments_tournament_change", args=[events[0][1].pk]), "olive"),
        ("admin-ladder-announce", reverse("admin:ladders_ladder_announce", args=[ladder.pk]), "olive"),
        ("practice", reverse("games:practice"), "alice"),
        ("practice-game", reverse("games:game", args=[practice.pk]), "alice"),
        ("move-confirm-player", move_link, "alice"),
        ("ladder", reverse("ladders:detail", args=[ladder.slug]), "alice"),
        ("ladder-organiser", reverse("ladders:detail", args=[ladder.slug]), "olive"),
        ("admin", reverse("admin:index"), "root"),
        ("admin-organiser", reverse("admin:index"), "olive"),
        ("admin-ladders", reverse("admin:ladders_ladder_changelist"), "olive"),
        ("admin-ladder", reverse("admin:ladders_ladder_change", args=[ladder.pk]), "olive"),
        ("admin-users", reverse("admin:accounts_user_changelist"), "root"),
        ("dev-mail", reverse("dev_mail"), "visitor"),
    ]
    for name, game in games.items():
        pages.append((f"game-{name}", reverse("games:game", args=[game.pk]), "alice"))
    pages.append(("record", reverse("games:record", args=[finished.pk]), "alice"))
    pages.append(("record-four", reverse("games:record", args=[games["four-finished"].pk]), "alice"))
    people = {"alice": alice, "bob": others[0], "dave": others[2], "olive": organiser, "root": admin}
    return pages, people


def the_events(organiser):
    """A league and a knockout under way, and an event taking entries: [(kind, event)]."""
    events = []
    for kind in ("league", "knockout", "draft"):
        event = Tournament.objects.create(
            name=f"The winter {kind} of the club",
            slug=f"winter-{kind}",
            kind="knockout" if kind == "knockout" else "league",
        )
        event.organisers.add(organiser)
        players = [make_user(display_name=f"{kind.title()} player {n}", notify="none") for n in range(6)]
        entries.add_entrants(event, "\n".join(p.email for p in players), actor=organiser)
        if kind != "draft":
            tournaments.start(event, actor=organiser)
        events.append((kind, event))
    return events


# Pages reached by sending a form: (name, the page with the form, who, {field: value}).
SENT = [
    ("new-challenge-namesakes", "/challenges/new/", "alice", {"#id_player1": "Sam"}),
    (
        "signup-refused",
        "/accounts/signup/",
        "visitor",
        {"#id_email": "x@example.com", "#id_display_name": "X", "#id_password1": "short", "#id_password2": "other"},
    ),
]


def test_every_page_fits_a_phone_and_a_desktop(live_server, browser, artifacts, console_errors, settings, tmp_path):
    started = time.monotonic()
    pages, people = the_site(settings, tmp_path)
    print(f"the site built in {time.monotonic() - started:.0f}s")
    tabs = {}
    problems = []
    for name, path, who, *sent in pages + SENT:
        if who not in tabs:
            tabs[who] = logged_in(browser, live_server.url, people.get(who))
        tab = tabs[who]
        settings.DEBUG = name == "dev-mail"  # the page exists only in development
        tab.set_viewport_size({"width": WIDTHS[0], "height": 844})
        response = tab.goto(live_server.url + path)
        if sent:
            for field, value in sent[0].items():
                tab.fill(field, value)
            with tab.expect_navigation() as sending:
                tab.click("main form button[type=submit] >> nth=-1")
            response = sending.value
        settings.DEBUG = False
        if name == "dev-mail":  # every mail opened, to be measured
            tab.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
        status = response.status if response else 0
        if status >= 400:
            # A refusal page (404, 400, 410) is meant: the browser's note of the status is not an error.
            console_errors[:] = [e for e in console_errors if f"status of {status}" not in e]
        if status >= 500 or (status >= 400 and name not in REFUSALS):
            problems.append(f"{name}: HTTP {status}")
        for width in WIDTHS:
            problems += misfits(tab, name, width, ids=True)
            tab.screenshot(path=str(artifacts / f"{name}-{width}.png"), full_page=True)
        for error in console_errors:
            problems.append(f"{name}: console error {error}")
        console_errors.clear()
    print(f"{len(pages) + len(SENT)} pages at {len(WIDTHS)} widths in {time.monotonic() - started:.0f}s")
    assert problems == [], "\n".join(problems)
