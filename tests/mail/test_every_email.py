"""Every kind of email, each made the one way: built by mail.messages from its template triplet on
the one HTML base (its stylesheet inlined), and owed in the outbox with a kind (an answer to a
reply too), sent after commit, with the list and auto-submitted headers unless a person just
asked for it on the site."""

import random
from datetime import UTC, datetime, timedelta

import pytest
from anymail.inbound import AnymailInboundMessage
from django.core import mail

from accounts import privacy
from accounts import services as accounts
from accounts.forms import ResetForm
from clock import digest, notices, reminders
from games import challenges
from ladders import notices as ladder_notices
from ladders.models import Ladder
from mail import (
    announcements,
    event_replies,
    inbound,
    kinds,
    links,
    messages,
    reception,
    service_replies,
)
from mail.models import OutboundEmail
from tests.factories import at, committed, finish_game, genuine, make_user, start_two_player_game
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db
START = datetime(2024, 3, 4, 9, tzinfo=UTC)
Kind = OutboundEmail.Kind


def two_players(**bob_fields):
    alice = make_user(display_name="Alice", allow_forced_moves=False)
    bob = make_user(display_name="Bob", allow_forced_moves=False, **bob_fields)
    return alice, bob


def a_game(**bob_fields):
    alice, bob = two_players(**bob_fields)
    game = start_two_player_game(players=[alice, bob], rng=random.Random(7), days_per_move=1)
    return game, alice, bob


def turn():
    with at(START):
        a_game()


def result():
    game, _, _ = a_game()
    finish_game(game, winner=0)


def to_the_game(game, player, words):
    """`player`'s reply to their seat 0's email, read by the worker."""
    inbound.process(
        reception.receive(
            AnymailInboundMessage.construct(
                from_email=player.email,
                to=links.reply_address(game.pk, 0),
                subject=f"Re: game {game.pk}",
                text=f"{words}\n",
                headers={"Message-ID": f"<{words}-{game.pk}@mail.example.com>", **genuine(player.email)},
            ),
            esp_name="test",
        ).pk
    )


def answer():
    game, alice, _ = a_game()
    to_the_game(game, alice, "That is not a move.")


def the_review():
    game, alice, _ = a_game()
    finish_game(game, winner=0)
    to_the_game(game, alice, "review")


def reminder():
    with at(START):
        a_game()
    mail.outbox.clear()
    with at(START + timedelta(hours=20)):
        assert reminders.send_due_reminders() == 2


def daily_digest():
    with at(START):
        game, alice, bob = a_game(notify="digest", digest_hour=0)
    mail.outbox.clear()
    with at(START + timedelta(hours=1)):
        assert digest.send_digest(bob) == 1


def stand_in():
    game, _, _ = a_game()
    mail.outbox.clear()
    notices.owe_stand_in(game.pk, 1, {"kind": "play", "card": "7C"}, seq=game.seq)


def claim_offer():
    game, _, _ = a_game()
    mail.outbox.clear()
    notices.owe_claim_offer(game.pk, 1)


def vacation_day():
    game, _, _ = a_game()
    mail.outbox.clear()
    notices.owe_vacation_day(game.pk, 1, game.seq)


def vacation_notice():
    game, _, bob = a_game()
    mail.outbox.clear()
    notices.owe_vacation_notices(bob.pk, "start")


def challenge_made():
    alice, bob = two_players()
    challenges.create_challenge(alice, [bob.email])


def challenge_accepted():
    alice, bob = two_players()
    made = challenges.create_challenge(alice, [bob.email])
    challenges.accept(made, bob)


def challenge_answer():
    alice, bob = two_players()
    made = challenges.create_challenge(alice, [bob.email])
    inbound.process(
        reception.receive(
            AnymailInboundMessage.construct(
                from_email=bob.email,
                to=links.challenge_reply_address(made.pk, bob.pk),
                subject="Re: a challenge",
                text="maybe\n",
                headers={"Message-ID": "<maybe@mail.example.com>", **genuine(bob.email)},
            ),
            esp_name="test",
        ).pk
    )


def challenge_declined():
    alice, bob = two_players()
    made = challenges.create_challenge(alice, [bob.email])
    challenges.decline(made, bob)


def ladder_notice():
    ladder_notices.send(
        [make_user()],
        "Club ladder: you moved up to position 2",
        ["You moved from position 3 to 2 on Club ladder."],
        url="/ladders/",
        cause="test",
    )


def announcement():
    announcements.announce(
        [make_user(), make_user()],
        "Club night moves to Thursday",
        "The hall is booked on Tuesday.\n\nSee you on Thursday.",
        event_label="Club ladder",
        key="ladder:1",
        sender=make_user(display_name="Olive"),
        url="/ladders/club/",
    )


def club_night_opened():
    from tournaments import club_nights, entries
    from tournaments import services as tournament_services
    from tournaments.models import Tournament

    season = Tournament.objects.create(name="Tuesday club", slug="tuesday-club", kind=Tournament.Kind.CLUB_NIGHT)
    ann, bob = make_user(display_name="Ann"), make_user(display_name="Bob")
    entries.add_entrants(season, f"{ann.email}\n{bob.email}", actor=None)
    tournament_services.start(season)
    return club_nights.open_night(season), list(season.entrants.order_by("entered_at", "pk"))


def club_night():
    from tournaments import club_nights

    night, (first, second) = club_night_opened()
    club_nights.enter_game(night, first, second, 121, 95, actor=None)
    club_nights.close_night(night)


def club_night_report():
    from tournaments import club_nights

    night, (first, second) = club_night_opened()
    club_nights.report_game(night, first.player, second, 121, 95)


def to_the_ladder(words):
    ladder = Ladder.objects.create(name="Club ladder", slug="club")
    player = make_user(display_name="Ann")
    inbound.process(
        reception.receive(
            AnymailInboundMessage.construct(
                from_email=player.email,
                to=ladder_notices.ladder_address(ladder),
                subject="Ladder",
                text=f"{words}\n",
                headers={"Message-ID": f"<{words}@mail.example.com>", **genuine(player.email)},
            ),
            esp_name="test",
        ).pk
    )


def ladder_answer():
    to_the_ladder("standings")


def event_answer():
    event = Tournament.objects.create(name="Club league", slug="club-league")
    player = make_user(display_name="Ann")
    inbound.process(
        reception.receive(
            AnymailInboundMessage.construct(
                from_email=player.email,
                to=event_replies.event_address("event", event.slug),
                subject="Event",
                text="standings\n",
                headers={"Message-ID": "<event-standings@mail.example.com>", **genuine(player.email)},
            ),
            esp_name="test",
        ).pk
    )


def service_answer():
    player = make_user(display_name="Ann")
    inbound.process(
        reception.receive(
            AnymailInboundMessage.construct(
                from_email=player.email,
                to=service_replies.service_address(),
                subject="Hello",
                text="help\n",
                headers={"Message-ID": "<service-help@mail.example.com>", **genuine(player.email)},
            ),
            esp_name="test",
        ).pk
    )


def invitation():
    accounts.invite("newcomer@example.com", make_user(display_name="Ann"), "/calculator/")


def confirm():
    accounts.send_confirmation(make_user(email_confirmed=False))


def already_registered():
    accounts.sign_up(email=make_user().email, display_name="Ann again", password="pw-Secret-123")


def login_link():
    accounts.request_login_link(make_user().email)


def password_reset():
    form = ResetForm(data={"email": make_user().email})
    assert form.is_valid()
    form.save(domain_override="cribbage.example")


def delete_account():
    privacy.request_deletion(make_user())


def change_email():
    privacy.request_email_change(make_user(), "somewhere.new@example.com")


def address_changed():
    user = make_user()
    with committed():
        privacy.request_email_change(user, "somewhere.new@example.com")
    token = mail.outbox[-1].body.split("/accounts/email/", 1)[1].split("/", 1)[0]
    privacy.change_email(token)


def address_wanted():
    privacy.request_email_change(make_user(), make_user().email)


GAME_EMAIL_NAMES = (
    "challenge_accepted",
    "turn",
    "result",
    "answer",
    "review",
    "reminder",
    "stand_in",
    "claim_offer",
    "vacation_day",
    "vacation_notice",
)

# Every email there is: (its name, how it is caused, its outbox kind).
EMAILS = [
    ("turn", turn, Kind.TURN),
    ("result", result, Kind.RESULT),
    ("answer", answer, Kind.REPLY_ANSWER),
    ("review", the_review, Kind.REVIEW),
    ("reminder", reminder, Kind.REMINDER),
    ("digest", daily_digest, Kind.DIGEST),
    ("stand_in", stand_in, Kind.STAND_IN),
    ("claim_offer", claim_offer, Kind.CLAIM_OFFER),
    ("vacation_day", vacation_day, Kind.VACATION_DAY),
    ("vacation_notice", vacation_notice, Kind.VACATION_NOTICE),
    ("challenge_challenge", challenge_made, Kind.CHALLENGE),
    ("challenge_accepted", challenge_accepted, Kind.CHALLENGE),
    ("challenge_declined", challenge_declined, Kind.CHALLENGE),
    ("challenge_answer", challenge_answer, Kind.CHALLENGE_ANSWER),
    ("ladder_notice", ladder_notice, Kind.LADDER),
    ("invitation", invitation, Kind.INVITATION),
    ("ladder_answer", ladder_answer, Kind.EVENT_ANSWER),
    ("event_answer", event_answer, Kind.EVENT_ANSWER),
    ("service_answer", service_answer, Kind.SERVICE_ANSWER),
    ("announcement", announcement, Kind.ANNOUNCEMENT),
    ("club_night", club_night, Kind.CLUB_NIGHT),
    ("club_night_report", club_night_report, Kind.CLUB_NIGHT),
    ("confirm", confirm, Kind.CONFIRM),
    ("already_registered", already_registered, Kind.ALREADY_REGISTERED),
    ("login_link", login_link, Kind.LOGIN_LINK),
    ("password_reset", password_reset, Kind.PASSWORD_RESET),
    ("delete_account", delete_account, Kind.DELETE_ACCOUNT),
    ("change_email", change_email, Kind.CHANGE_EMAIL),
    ("address_changed", address_changed, Kind.ADDRESS_CHANGED),
    ("address_wanted", address_wanted, Kind.ADDRESS_WANTED),
]


# What a person asks for on the site (accounts.emails): owed like the rest, sent without list headers.
ASKED = {
    Kind.CONFIRM,
    Kind.LOGIN_LINK,
    Kind.ALREADY_REGISTERED,
    Kind.PASSWORD_RESET,
    Kind.DELETE_ACCOUNT,
    Kind.CHANGE_EMAIL,
    Kind.ADDRESS_WANTED,
}


def test_the_list_covers_every_outbox_kind_and_each_has_a_composer():
    assert {kind for _, _, kind in EMAILS if kind} == set(Kind.values)
    assert kinds.registered() | {Kind.TURN, Kind.RESULT} == set(Kind.values)


@pytest.mark.parametrize("name, cause, kind", EMAILS, ids=[name for name, _, _ in EMAILS])
def test_each_email_is_built_the_one_way(settings, name, cause, kind):
    settings.SITE_URL = "https://cribbage.example"
    with committed():
        cause()
    built = [m for m in mail.outbox if m.tags == [name]]
    assert built, f"no {name} email among {[m.tags for m in mail.outbox]}"
    for message in built:
        assert message.subject and message.subject == " ".join(message.subject.split())
        assert message.body.strip()
        html, mimetype = message.alternatives[0]
        assert mimetype == "text/html"
        # The one base, its stylesheet written into the elements by css-inline.
        assert '<p class="brand" style="' in html and '<div class="email" style="' in html
        assert "<style" not in html
        # Every email's foot links the rules and help page.
        assert "Rules and help: https://cribbage.example/help/" in message.body
        assert 'href="https://cribbage.example/help/"' in html
        headers = message.extra_headers
        rows = OutboundEmail.objects.filter(message_id=headers["Message-ID"])
        row = rows.get()
        assert (row.kind, row.status, row.to) == (kind, OutboundEmail.Status.SENT, message.to[0])
        assert row.key.startswith(f"{kind}:")
        if kind in ASKED:  # what a person just asked for: not automatic, no list to leave
            assert not {"Auto-Submitted", "List-Unsubscribe"} & set(headers)
            continue
        assert headers["Auto-Submitted"] == "auto-generated"
        assert headers["List-Unsubscribe"].startswith("<https://cribbage.example/m/unsubscribe/")
        assert headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


# The reminder and the digest are caused at a moment (`at`), which runs the on-commit work.
OWED_HERE = [e for e in EMAILS if e[2] not in (Kind.TURN, Kind.RESULT, Kind.REMINDER, Kind.DIGEST)]


@pytest.mark.parametrize("name, cause, kind", OWED_HERE, ids=[e[0] for e in OWED_HERE])
def test_an_owed_email_waits_for_the_commit_and_is_owed_once(name, cause, kind):
    cause()  # the test's transaction never commits: nothing may have gone out
    assert not [m for m in mail.outbox if m.tags == [name]]
    assert OutboundEmail.objects.filter(kind=kind, status=OutboundEmail.Status.READY).exists()


def test_a_clock_notice_told_twice_is_owed_once():
    game, _, bob = a_game()
    for _ in range(2):
        notices.owe_stand_in(game.pk, 1, {"kind": "play", "card": "7C"}, seq=game.seq)
        notices.owe_claim_offer(game.pk, 1, timed_out_at=START)
        notices.owe_vacation_notices(bob.pk, "start", vacation_id=1)
    owed = OutboundEmail.objects.exclude(kind=Kind.TURN)
    assert sorted(owed.values_list("kind", "seat")) == [
        (Kind.CLAIM_OFFER, 0),
        (Kind.CLAIM_OFFER, 1),
        (Kind.STAND_IN, 1),
        (Kind.VACATION_NOTICE, 0),
    ]


# The emails about one game: each names the game the one way and refers to its thread's root.
GAME_EMAILS = [e for e in EMAILS if e[0] in GAME_EMAIL_NAMES]


@pytest.mark.parametrize("name, cause, kind", GAME_EMAILS, ids=[e[0] for e in GAME_EMAILS])
def test_every_email_of_a_game_has_its_one_subject_and_thread(name, cause, kind):
    with committed():
        cause()
    built = [m for m in mail.outbox if m.tags == [name]]
    assert built
    games = {m.extra_headers["References"] for m in mail.outbox if "References" in m.extra_headers}
    assert len(games) == 1  # one game made: every email of it in one thread
    for message in built:
        game_id = int(message.subject.rpartition("(game ")[2].rstrip(")"))
        # What it asks or tells, then the game's one name (mail/email/_game_subject.txt).
        lead, _, place = message.subject.partition(" — ")
        assert lead and place.startswith("Alice v Bob") and place.endswith(f" (game {game_id})")
        root = messages.thread_root(game_id)
        assert message.extra_headers["In-Reply-To"] == root and message.extra_headers["References"] == root
        assert message.extra_headers["Message-ID"] != root
