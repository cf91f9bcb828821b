"""Two players play whole games by email alone, and one by clicking links alone.

Real parts: the Django app, a real Celery worker on the real Redis broker,
outgoing mail by SMTP to an aiosmtpd server started here, and replies posted
to anymail's inbound webhook in Postmark's (or Mailgun's) documented format,
written as a mail client writes them: the words on top, the email quoted below.

PostgreSQL only: SQLite's shared in-memory test database answers a second
thread's write with "table is locked" at once (no busy wait), which turns a
real worker into a test of retries.
"""

import queue
import random
import re
from email.utils import format_datetime

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Game
from mail.models import OutboundEmail
from tests.factories import make_user

from . import payloads
from .server_down import smtp_at
from .smtp_sink import SmtpSink, text_part

MOVE_LINE = re.compile(
    r"^(?P<words>(crib|play|count|muggins)\b.*?)(\s{3}\(.*\))?\s{3}(?P<url>https?://\S+/m/move/\S+/)$", re.MULTILINE
)
GAME_TIMEOUT = 20  # seconds to wait for the next turn email before calling it lost


@pytest.fixture
def smtp(settings):
    with SmtpSink() as sink:
        smtp_at(settings, sink.port)
        payloads.configure(settings)
        yield sink


def quoted_reply(message, words):
    """The player's words, then the turn email quoted as Gmail does."""
    when = format_datetime(timezone.now())
    quote = "\n".join("> " + line for line in text_part(message).splitlines())
    return f"{words}\n\nOn {when}, Cribbage by mail <cribbage@localhost> wrote:\n\n{quote}\n"


def play_by_mail(smtp, game, players, answer, rng):
    """Answer every turn email with `answer(message, move lines)` until the game ends and each
    player has the game-over email."""
    emails, results = 0, {}
    while True:
        waited = 0.0
        while True:
            try:
                _, rcpt_tos, message = smtp.next(timeout=0.5)
                break
            except queue.Empty:
                waited += 0.5
            # The last move (or a forced play after it) ended the game: no turn email, a result each.
            if _finished(game) and set(results) == players:
                return emails
            if waited > GAME_TIMEOUT:
                pytest.fail(
                    f"no turn email for {GAME_TIMEOUT}s after {emails} emails "
                    f"(results to {sorted(results)}): {_diagnosis(game)}"
                )
        # Every email of the game names it the one way after what it asks or tells (threaded by the
        # headers); the game-over one tells the result.
        assert re.fullmatch(rf".+ — Alice v Bob(, hand \d+)? \(game {game.pk}\)", message["Subject"]), message[
            "Subject"
        ]
        if text_part(message).startswith(f"Game {game.pk} (Alice v Bob) is over."):
            assert rcpt_tos[0] not in results, "one result email per player"
            results[rcpt_tos[0]] = text_part(message)
            assert "Final scores:" in results[rcpt_tos[0]] and "/record/" in results[rcpt_tos[0]]
            continue
        assert "it is your turn to" in text_part(message), text_part(message)[:400]
        assert rcpt_tos[0] in players
        emails += 1
        moves = [m.groupdict() for m in MOVE_LINE.finditer(text_part(message))]
        assert moves, text_part(message)
        answer(message, rng.choice(moves))


def _finished(game):
    return Game.objects.filter(pk=game.pk, status=Game.Status.FINISHED).exists()


def _diagnosis(game):
    from games.selectors import view_for
    from mail.models import InboundEmail

    view = view_for(game, None)
    last = list(InboundEmail.objects.order_by("-pk").values_list("status", "outcome")[:3])
    rows = list(
        OutboundEmail.objects.filter(game=game).order_by("-pk").values_list("seat", "seq", "status", "last_error")[:3]
    )
    from games.models import Event

    events = list(Event.objects.filter(game=game).order_by("-seq").values_list("seq", "kind", "seat", "source")[:6])
    return (
        f"game at seq {game.seq}, phase {view.phase}, to act {view.to_act}; events {events}; "
        f"replies {InboundEmail.objects.count()}; "
        f"last replies {last}; last outbox rows {rows}"
    )


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("esp", ["postmark", "mailgun"])
def test_two_players_play_a_whole_game_by_replying(celery_worker_on_redis, smtp, esp):
    rng = random.Random(esp)
    alice, bob = (
        make_user("alice@example.com", "Alice", password=None),
        make_user("bob@example.com", "Bob", password=None),
    )
    from games import lifecycle

    game = lifecycle.start_game(players=[alice, bob], rng=random.Random(11))
    client = Client()

    def reply(message, move):
        answer = payloads.compose(
            sender=message["To"],
            to=message["Reply-To"],
            subject="Re: " + message["Subject"],
            text=quoted_reply(message, move["words"]),
            headers={"In-Reply-To": message["Message-ID"], "References": message["Message-ID"]},
        )
        response = payloads.post(client, esp, answer)
        assert response.status_code == 200

    emails = play_by_mail(smtp, game, {alice.email, bob.email}, reply, rng)
    game.refresh_from_db()
    assert game.is_finished and game.finish == "target"
    assert emails > 20
    assert game.events.filter(source="email").count() == emails
    assert (
        list(
            OutboundEmail.objects.exclude(status__in=["sent", "skipped"]).values_list(
                "seq", "status", "last_error", "attempts"
            )
        )
        == []
    )


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_players_play_a_whole_game_by_clicking_links(celery_worker_on_redis, smtp):
    """The 61-point game, to keep the run short."""
    rng = random.Random(5)
    alice, bob = (
        make_user("alice@example.com", "Alice", password=None),
        make_user("bob@example.com", "Bob", password=None),
    )
    from games import lifecycle

    game = lifecycle.start_game(players=[alice, bob], target=61, rng=random.Random(12))
    client = Client()

    def click(message, move):
        path = re.sub(r"^https?://[^/]+", "", move["url"])
        page = client.get(path)
        assert page.status_code == 200
        form = re.search(r'<form method="post" action="([^"]*)"[^>]*>', page.content.decode())
        assert form, page.content.decode()
        response = client.post(form.group(1) or path)
        assert response.status_code == 200, response.content.decode()

    emails = play_by_mail(smtp, game, {alice.email, bob.email}, click, rng)
    game.refresh_from_db()
    assert game.is_finished and game.events.filter(source="link").count() == emails > 10
