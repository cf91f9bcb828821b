"""A reply is taken as its sender's only if the receiving side's checks say so (mail.authentication)."""

import pytest
from django.core import mail

from games.models import Event
from games.selectors import view_for
from mail import authentication, reception
from mail.models import InboundEmail

from . import payloads
from .conftest import reply
from .test_webhooks import alice_reply


def deliver(message, on_commit, esp_name="test"):
    with on_commit():
        row = reception.receive(message, esp_name=esp_name)
    row.refresh_from_db()
    return row


def moves_by_email(game):
    return Event.objects.filter(game=game, source=Event.Source.EMAIL).count()


@pytest.mark.parametrize(
    "headers, why",
    [
        ({"Authentication-Results": "mx.example.net; dkim=fail header.d=example.com"}, "DKIM failed"),
        ({"Authentication-Results": "mx.example.net; spf=pass smtp.mailfrom=example.com; dkim=fail"}, "DKIM failed"),
        ({"Authentication-Results": "mx.example.net; spf=pass; dkim=pass; dmarc=fail"}, "DMARC failed"),
        (
            {"Authentication-Results": "mx.example.net; spf=pass; dkim=pass header.d=a.org; dkim=fail header.d=b.org"},
            "DKIM failed",
        ),
        (
            {"Authentication-Results": "mx.example.net; spf=softfail; dkim=none"},
            "SPF softfail and no passing DKIM signature",
        ),
    ],
    ids=[
        "dkim-fail-no-spf",
        "dkim-fail-spf-pass",
        "dmarc-fail-all-else-pass",
        "one-of-two-signatures-fails",
        "spf-softfail",
    ],
)
def test_a_dkim_or_dmarc_failure_is_refused_whatever_spf_says(game, on_commit, headers, why):
    hand, seq = view_for(game, 0).hand, game.seq
    row = deliver(reply(game, 0, f"crib {hand[0]} {hand[1]}", headers=headers), on_commit)
    assert (row.status, row.auth_failure) == (InboundEmail.Status.REFUSED, why)
    game.refresh_from_db()
    assert game.seq == seq and moves_by_email(game) == 0


def test_a_forged_pass_below_the_providers_own_result_is_not_believed(game, on_commit):
    hand = list(view_for(game, 0).hand)
    message = reply(
        game,
        0,
        f"crib {hand[0]} {hand[1]}",
        headers={"Authentication-Results": "attacker.example; spf=pass; dkim=pass; dmarc=pass"},
    )
    message["Authentication-Results"] = "mx.example.net; spf=pass; dkim=pass; dmarc=pass"  # forged, lower down
    # The trusted MX puts its header on top; the sender's own claims are below it.
    message._headers.insert(0, ("Authentication-Results", "mx.example.net; spf=none; dkim=fail; dmarc=none"))
    row = deliver(message, on_commit)
    assert row.status == InboundEmail.Status.REFUSED and row.auth_failure == "DKIM failed"


@pytest.mark.parametrize("esp_name", ["Postmark", "Mailgun", "Amazon SES", "Brevo", "stdin"])
def test_no_trusted_result_at_all_is_refused_unanswered_from_every_channel(game, on_commit, esp_name):
    hand = list(view_for(game, 0).hand)
    mail.outbox.clear()
    message = reply(
        game, 0, f"crib {hand[0]} {hand[1]}", headers={"Authentication-Results": "elsewhere.example; dkim=pass"}
    )
    row = deliver(message, on_commit, esp_name=esp_name)
    assert row.status == InboundEmail.Status.REFUSED
    assert row.auth_failure == "no SPF, DKIM or DMARC result from the provider"
    assert moves_by_email(game) == 0 and mail.outbox == []


def test_the_trusted_authserv_ids_are_a_setting(game, on_commit, settings):
    hand = list(view_for(game, 0).hand)
    assert deliver(reply(game, 0, f"crib {hand[0]} {hand[1]}"), on_commit).status == "applied"
    settings.MAIL_TRUSTED_AUTHSERV_IDS = ["mx.elsewhere.example"]
    row = deliver(reply(game, 0, f"crib {hand[2]} {hand[3]}"), on_commit)
    assert row.status == "refused" and moves_by_email(game) == 1


def test_a_mailgun_reply_without_mailguns_results_is_refused(client, game, on_commit, settings):
    payloads.configure(settings)
    hand = list(view_for(game, 0).hand)
    with on_commit():
        response = payloads.post(client, "mailgun", alice_reply(game, f"crib {hand[0]} {hand[1]}"), checks={})
    assert response.status_code == 200
    assert InboundEmail.objects.get().status == InboundEmail.Status.REFUSED
    assert moves_by_email(game) == 0


@pytest.mark.parametrize("esp", payloads.PROVIDERS)
def test_a_provider_not_configured_for_replies_is_not_read(client, game, on_commit, settings, esp):
    payloads.configure(settings)
    settings.MAIL_INBOUND_PROVIDERS = [p for p in payloads.PROVIDERS if p != esp]
    hand = list(view_for(game, 0).hand)
    with on_commit():
        response = payloads.post(client, esp, alice_reply(game, f"crib {hand[0]} {hand[1]}"))
    assert response.status_code == 200  # nothing for the provider to retry
    assert not InboundEmail.objects.exists() and moves_by_email(game) == 0


# --- Forgeries as an attacker sends them: each provider's documented payload, through the real
# webhook with its secret, From: the player's address; nothing applied and nothing answered.

EVIL_SIGNATURE = {"DKIM-Signature": "v=1; a=rsa-sha256; d=evil.example; s=s1; h=from:to:subject; bh=AAAA; b=BBBB"}
OWN_CLAIM = {
    "Authentication-Results": "mx.evil.example; spf=pass smtp.mailfrom=example.com; dkim=pass header.d=example.com; dmarc=pass"
}
FORGERIES = [
    ("postmark", {"envelope_sender": "mallory@evil.example"}, {}),
    ("postmark", {"spf": "Neutral"}, {}),
    ("postmark", {"spf": "None"}, {}),
    ("postmark", {"spf": "Neutral"}, OWN_CLAIM),
    (
        "postmark",
        {"spf": "Pass", "envelope_sender": "bounce@evil.example"},
        {"Received-SPF": "Pass identity=mailfrom; envelope-from=alice@example.com"},
    ),
    ("mailgun", {"envelope_sender": "mallory@evil.example"}, EVIL_SIGNATURE),
    ("mailgun", {"checks": {"X-Mailgun-Spf": "Neutral"}}, {}),
    ("mailgun", {"checks": {"X-Mailgun-Spf": "Fail", "X-Mailgun-Dkim-Check-Result": "Fail"}}, OWN_CLAIM),
    (
        "mailgun",
        {"checks": {"X-Mailgun-Spf": "SoftFail"}},
        {"X-Mailgun-Spf": "Pass", "X-Mailgun-Dkim-Check-Result": "Pass"},
    ),
    ("amazon_ses", {"verdicts": {"spf": "FAIL", "dkim": "FAIL", "dmarc": "FAIL"}}, OWN_CLAIM),
    ("amazon_ses", {"envelope_sender": "mallory@evil.example", "verdicts": {"dmarc": "GRAY"}}, EVIL_SIGNATURE),
    ("brevo", {"authenticated": False}, OWN_CLAIM),
]
FORGERY_IDS = [
    "postmark-unaligned-spf-pass",
    "postmark-spf-neutral",
    "postmark-spf-none",
    "postmark-neutral-and-own-results",
    "postmark-own-received-spf",
    "mailgun-unaligned-spf-and-dkim-pass",
    "mailgun-spf-neutral-only",
    "mailgun-fail-and-own-results",
    "mailgun-own-pass-headers",
    "ses-fail-and-own-results",
    "ses-unaligned-passes",
    "brevo-own-results-only",
]


@pytest.mark.parametrize("esp, options, headers", FORGERIES, ids=FORGERY_IDS)
def test_a_forged_reply_through_each_provider_applies_and_answers_nothing(
    client, game, on_commit, settings, esp, options, headers
):
    payloads.configure(settings)
    hand, seq = view_for(game, 0).hand, game.seq
    mail.outbox.clear()
    with on_commit():
        response = payloads.post(
            client, esp, alice_reply(game, f"crib {hand[0]} {hand[1]}", headers=headers), **options
        )
    assert response.status_code == 200
    row = InboundEmail.objects.get()
    assert row.status == InboundEmail.Status.REFUSED and row.auth_failure
    game.refresh_from_db()
    assert game.seq == seq and moves_by_email(game) == 0 and mail.outbox == []


GENUINE = [
    ("postmark", {"envelope_sender": "bounces+x@mail.example.com"}, {}),
    (
        "mailgun",
        {"envelope_sender": "bounce@mailer.elsewhere.example"},
        {"DKIM-Signature": "v=1; d=example.com; s=s1; b=X"},
    ),
    ("amazon_ses", {"envelope_sender": "bounce@mailer.elsewhere.example"}, {}),
    ("brevo", {}, {}),
]


@pytest.mark.parametrize(
    "esp, options, headers",
    GENUINE,
    ids=["postmark-aligned-subdomain-spf", "mailgun-aligned-dkim", "ses-dmarc-pass", "brevo-trusted-mx"],
)
def test_genuine_aligned_mail_still_moves(client, game, on_commit, settings, esp, options, headers):
    payloads.configure(settings)
    hand = list(view_for(game, 0).hand)
    with on_commit():
        payloads.post(client, esp, alice_reply(game, f"crib {hand[0]} {hand[1]}", headers=headers), **options)
    assert InboundEmail.objects.get().status == InboundEmail.Status.APPLIED and moves_by_email(game) == 1


@pytest.mark.parametrize(
    "domain, from_domain, aligned",
    [
        ("mail.example.com", "example.com", True),
        ("example.com", "news.example.com", True),
        ("evil.example", "example.com", False),
        ("other.co.uk", "example.co.uk", False),
        ("example.co.uk", "mail.example.co.uk", True),
        ("co.uk", "example.co.uk", False),
    ],
)
def test_alignment_is_by_organisational_domain(domain, from_domain, aligned):
    assert authentication.aligned(domain, from_domain) is aligned
