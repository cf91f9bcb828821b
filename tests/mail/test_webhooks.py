"""Each provider's real inbound payload, posted to anymail's webhook with basic auth."""

import pytest
from django.core import mail

from games.models import Event
from games.selectors import view_for
from mail import links
from mail.models import InboundEmail
from tests.factories import make_user, start_two_player_game

from . import payloads

ESPS = ["postmark", "mailgun", "amazon_ses", "brevo"]


@pytest.fixture(autouse=True)
def anymail_settings(settings):
    payloads.configure(settings)


def alice_reply(game, words, **kwargs):
    return payloads.compose(
        sender="Alice <alice@example.com>",
        to=links.reply_address(game.pk, 0),
        subject=f"Re: Your move: Alice v Bob (game {game.pk})",
        text=f"{words}\n\nOn Mon, Jun 2, 2025 at 10:00 AM Cribbage by mail <cribbage@localhost> wrote:\n> crib 5H JD\n",
        **kwargs,
    )


@pytest.mark.parametrize("esp", ESPS)
def test_a_reply_through_each_provider_makes_the_move_once(client, game, on_commit, esp):
    hand = list(view_for(game, 0).hand)
    message = alice_reply(game, f"crib {hand[0]} {hand[1]}")
    for _ in range(2):  # the provider delivers the webhook twice
        with on_commit():
            response = payloads.post(client, esp, message)
        assert response.status_code == 200
    row = InboundEmail.objects.get()
    assert row.esp_name.lower().replace(" ", "_") == esp
    assert row.status == InboundEmail.Status.APPLIED
    event = Event.objects.get(game=game, source=Event.Source.EMAIL)
    assert event.data["cards"] == hand[:2]


@pytest.mark.parametrize("esp", ESPS)
def test_a_wrong_secret_is_refused(client, game, esp):
    hand = list(view_for(game, 0).hand)
    response = payloads.post(client, esp, alice_reply(game, f"crib {hand[0]} {hand[1]}"), secret="hook-user:wrong")
    assert response.status_code == 400
    assert not InboundEmail.objects.exists()


@pytest.mark.parametrize("esp", ["postmark", "brevo"])
def test_the_providers_stripped_reply_is_preferred(client, game, on_commit, esp):
    hand = list(view_for(game, 0).hand)
    message = alice_reply(game, "see below")  # the full text has no move; the provider's stripped reply has
    with on_commit():
        payloads.post(client, esp, message, stripped_text=f"crib {hand[2]} {hand[3]}")
    assert Event.objects.get(game=game, source=Event.Source.EMAIL).data["cards"] == hand[2:4]


def test_a_players_mistake_never_fails_the_webhook(client, game, on_commit):
    mail.outbox.clear()
    with on_commit():
        response = payloads.post(client, "postmark", alice_reply(game, "crib ZZ"))
    assert response.status_code == 200
    assert InboundEmail.objects.get().status == InboundEmail.Status.ANSWERED
    assert [m.to for m in mail.outbox] == [["alice@example.com"]]


def test_ses_reports_a_failed_dmarc_check(client, game, on_commit):
    hand = list(view_for(game, 0).hand)
    with on_commit():
        payloads.post(
            client,
            "amazon_ses",
            alice_reply(game, f"crib {hand[0]} {hand[1]}"),
            verdicts={"dmarc": "FAIL", "spf": "FAIL", "dkim": "FAIL"},
        )
    row = InboundEmail.objects.get()
    assert row.status == InboundEmail.Status.REFUSED and row.outcome == "DMARC failed"
    assert not Event.objects.filter(source=Event.Source.EMAIL).exists()


@pytest.mark.parametrize(
    "esp, options, headers",
    [
        ("amazon_ses", {"verdicts": {"spam": "FAIL"}}, None),
        ("mailgun", {}, {"X-Mailgun-Sflag": "Yes"}),
    ],
    ids=["ses-spam-verdict", "mailgun-sflag"],
)
def test_a_reply_the_provider_flags_as_spam_is_refused(client, game, on_commit, esp, options, headers):
    hand = list(view_for(game, 0).hand)
    mail.outbox.clear()
    with on_commit():
        response = payloads.post(
            client, esp, alice_reply(game, f"crib {hand[0]} {hand[1]}", headers=headers), **options
        )
    assert response.status_code == 200  # the provider is never asked to deliver it again
    row = InboundEmail.objects.get()
    assert row.spam_detected is True
    assert row.status == InboundEmail.Status.REFUSED and row.outcome == "the provider flagged it as spam"
    assert not Event.objects.filter(source=Event.Source.EMAIL).exists()
    assert mail.outbox == []  # spam is refused without an answer


def test_another_senders_message_id_does_not_block_a_genuine_reply(client, game, on_commit):
    """Bob's reply reaches us first carrying the Message-ID Alice's client then gives hers (a
    sender chooses their own Message-ID): hers still moves, the key being (Message-ID, sender,
    recipient)."""
    alice_hand, bob_hand = view_for(game, 0).hand, view_for(game, 1).hand
    taken = "<reused@mail.example.com>"
    bobs = payloads.compose(
        sender="Bob <bob@example.com>",
        to=links.reply_address(game.pk, 1),
        subject=f"Re: Your move: Alice v Bob (game {game.pk})",
        text=f"crib {bob_hand[0]} {bob_hand[1]}",
        message_id=taken,
    )
    with on_commit():
        payloads.post(client, "mailgun", bobs)
        payloads.post(client, "mailgun", alice_reply(game, f"crib {alice_hand[0]} {alice_hand[1]}", message_id=taken))
    assert sorted(InboundEmail.objects.values_list("status", flat=True)) == [InboundEmail.Status.APPLIED] * 2
    assert sorted(e.seat for e in Event.objects.filter(game=game, source=Event.Source.EMAIL)) == [0, 1]


def test_one_message_to_two_games_is_read_for_each_and_a_repeat_for_neither(client, game, on_commit):
    """Alice writes once to the reply addresses of two of her games: Mailgun posts the message once
    per recipient (its `recipient` field), and each is read; the same posts again are not."""
    carol = make_user("carol@example.com", "Carol", allow_forced_moves=False)
    with on_commit():
        other = start_two_player_game(players=[game.seats.get(number=0).player, carol])
    to = [links.reply_address(game.pk, 0), links.reply_address(other.pk, 0)]
    message = payloads.compose(
        sender="Alice <alice@example.com>", to=", ".join(to), subject="Re: my games", text="status"
    )
    for _ in range(2):
        for recipient in to:
            data = payloads.mailgun_mime(message)
            data["recipient"] = recipient
            with on_commit():
                response = client.post("/anymail/mailgun/inbound_mime/", data, **payloads.auth_header())
            assert response.status_code == 200
    rows = InboundEmail.objects.order_by("pk")
    assert [(r.recipient, r.status) for r in rows] == [(a, InboundEmail.Status.ANSWERED) for a in to]
    assert {r.game_id for r in rows} == {game.pk, other.pk}
