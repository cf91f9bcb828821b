"""Each provider's real inbound payload, posted to anymail's webhook with basic auth."""

import pytest
from django.core import mail

from games.models import Event
from games.selectors import view_for
from mail import links
from mail.models import InboundEmail

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
    hand = view_for(game, 0)["hand"]
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
    hand = view_for(game, 0)["hand"]
    response = payloads.post(client, esp, alice_reply(game, f"crib {hand[0]} {hand[1]}"), secret="hook-user:wrong")
    assert response.status_code == 400
    assert not InboundEmail.objects.exists()


@pytest.mark.parametrize("esp", ["postmark", "brevo"])
def test_the_providers_stripped_reply_is_preferred(client, game, on_commit, esp):
    hand = view_for(game, 0)["hand"]
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
    hand = view_for(game, 0)["hand"]
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
    hand = view_for(game, 0)["hand"]
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
