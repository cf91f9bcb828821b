import time
from pathlib import Path
from types import SimpleNamespace

from django.conf import settings
from django.db import connection
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.cache import never_cache

from cribsite import help as help_facts
from cribsite import mailbox
from cribsite.celery import app
from games.board import DEFAULT_COLOURS
from games.cribbage import SHORT_GAME, rules_for
from games.presentation import cards_text
from games.presenter.table_text import board_rows
from games.presenter.turn import OTHER_WORDS
from mail import links

# The home page's picture of a game: fixed sample data drawn by the real board and turn email.
SAMPLE_SIDES = (("Alice", 78, 71), ("Bob", 85, 76))
SAMPLE_HAND = ("5H", "5C", "JD", "6S", "4D", "QH")
SAMPLE_MOVES = ("crib QH 4D", "crib 6S 4D", "crib 6S QH")


def sample_game():
    """A game between Alice and Bob as Alice sees it: the board, her hand, and her turn email."""
    tracks = [
        {"name": name, "score": score, "previous": was, "colour": DEFAULT_COLOURS[i]}
        for i, (name, score, was) in enumerate(SAMPLE_SIDES)
    ]
    # What the board and the email read of a seat's view (games.selectors.TableView), no more.
    view = SimpleNamespace(
        target=121,
        scores=tuple(score for _, score, _ in SAMPLE_SIDES),
        previous_scores=tuple(was for _, _, was in SAMPLE_SIDES),
        players=tuple(SimpleNamespace(seat=i, name=name) for i, (name, _, _) in enumerate(SAMPLE_SIDES)),
        side_of_seat=(0, 1),
    )
    email = {
        "me": "Alice",
        "asked": "lay away 2 cards to Bob's crib",
        "subject_lead": "Your discard",
        "subject_hand": 9,
        "game_id": 42,
        "title": "Alice v Bob",
        "view": view,
        "hand_text": cards_text(SAMPLE_HAND),
        "starter_text": "not turned yet",
        "crib_owner": "Bob",
        "board": board_rows(view),
        "deadline": "Friday 4 December, 18:00",
        "moves": [{"words": words, "url": links.absolute(reverse("games:my_games"))} for words in SAMPLE_MOVES],
        "other_words": OTHER_WORDS[:3],
        "game_url": links.absolute(reverse("games:my_games")),
        "unsubscribe_url": links.absolute(reverse("accounts:profile")),
    }
    return {
        "tracks": tracks,
        "hand": SAMPLE_HAND,
        "subject": render_to_string("mail/email/turn.subject.txt", email).strip(),
        "email": render_to_string("mail/email/turn.txt", email).strip(),
    }


def home(request):
    return render(
        request, "home.html", {"standard": rules_for("two"), "short_game": SHORT_GAME, "sample": sample_game()}
    )


def help_page(request):
    """The rules of every variant and how to play here: by email, with plans, in ladders and events."""
    return render(request, "help.html", help_facts.context())


def favicon(request):
    """Browsers ask for /favicon.ico on pages that name no icon (the admin's)."""
    return redirect(static("favicon.svg"), permanent=True)


def _database_status():
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return "ok"
    except Exception as exc:  # any failure means "unreachable" to a probe
        return f"error: {exc.__class__.__name__}"


# A reachable broker is believed for this many seconds: a probe every second or two does not open
# a broker connection each time. A failure is never remembered: the next probe tries again.
BROKER_CHECK_SECONDS = 10
_broker_seen_ok: dict[str, float] = {}  # the broker's URL -> when this process last reached it (monotonic)


def _broker_status():
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "ok (eager: no broker configured)"
    url, now = str(app.conf.broker_url), time.monotonic()
    seen = _broker_seen_ok.get(url)
    if seen is not None and now - seen < BROKER_CHECK_SECONDS:
        return "ok"
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as exc:
        _broker_seen_ok.pop(url, None)
        return f"error: {exc.__class__.__name__}"
    _broker_seen_ok[url] = now
    return "ok"


@never_cache
def healthz(request):
    checks = {"database": _database_status(), "broker": _broker_status()}
    healthy = all(value.startswith("ok") for value in checks.values())
    return JsonResponse({"status": "ok" if healthy else "error", **checks}, status=200 if healthy else 503)


LOOPBACK = {"127.0.0.1", "::1"}


def dev_mail(request):
    """DEBUG only, to this machine only: the mail the site would have sent, newest first.

    With no mail provider configured, outgoing mail is written to files (EMAIL_FILE_PATH);
    this page lets someone trying the project read it and click its links. It shows login
    and move links, so a request through a proxy (X-Forwarded-For) is not from here.
    """
    if not settings.DEBUG or request.META.get("REMOTE_ADDR") not in LOOPBACK or "HTTP_X_FORWARDED_FOR" in request.META:
        raise Http404
    folder = Path(settings.EMAIL_FILE_PATH)
    # The links in the mail name SITE_URL; a trial may be served on another port or host.
    mails, styles = mailbox.read(folder, settings.SITE_URL, f"{request.scheme}://{request.get_host()}")
    return render(request, "dev_mail.html", {"mails": mails, "folder": folder, "mail_styles": styles})
