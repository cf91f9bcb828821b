"""A reply is taken as its sender's only if the receiving side's checks say so (mail.authentication)."""

import pytest
from django.core import mail

from games.models import Event
from games.selectors import view_for
from mail import reception
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
        ({"Received-SPF": "pass (sender SPF authorized)", "X-SES-DKIM-Verdict": "FAIL"}, "DKIM failed"),
        ({"X-Mailgun-Spf": "Pass", "X-Mailgun-Dkim-Check-Result": "Fail"}, "DKIM failed"),
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
        "ses-dkim-fail-spf-pass",
        "mailgun-dkim-fail-spf-pass",
        "spf-softfail",
    ],
)
def test_a_dkim_or_dmarc_failure_is_refused_whatever_spf_says(game, on_commit, headers, why):
    hand, seq = view_for(game, 0)["hand"], game.seq
    row = deliver(reply(game, 0, f"crib {hand[0]} {hand[1]}", headers=headers), on_commit)
    assert (row.status, row.auth_failure) == (InboundEmail.Status.REFUSED, why)
    game.refresh_from_db()
    assert game.seq == seq and moves_by_email(game) == 0


def test_a_forged_pass_below_the_providers_own_result_is_not_believed(game, on_commit):
    hand = view_for(game, 0)["hand"]
    message = reply(game, 0, f"crib {hand[0]} {hand[1]}")
    # The provider's MX puts its header on top; the sender's own claim is below it.
    message["Authentication-Results"] = "attacker.example; spf=pass; dkim=pass; dmarc=pass"
    message._headers.insert(0, ("Authentication-Results", "mx.provider.net; spf=none; dkim=fail; dmarc=none"))
    row = deliver(message, on_commit)
    assert row.status == InboundEmail.Status.REFUSED and row.auth_failure == "DKIM failed"


@pytest.mark.parametrize(
    "esp_name, refused",
    [
        ("Postmark", True),
        ("Mailgun", True),
        ("Amazon SES", True),
        ("Brevo", False),
        ("stdin", False),
    ],
)
def test_no_result_at_all_is_refused_from_a_provider_that_always_reports_them(game, on_commit, esp_name, refused):
    hand = view_for(game, 0)["hand"]
    mail.outbox.clear()
    row = deliver(reply(game, 0, f"crib {hand[0]} {hand[1]}"), on_commit, esp_name=esp_name)
    if refused:
        assert row.status == InboundEmail.Status.REFUSED
        assert row.auth_failure == "no SPF, DKIM or DMARC result from the provider"
        assert moves_by_email(game) == 0
        assert "could not be verified as yours (no SPF, DKIM or DMARC result" in mail.outbox[0].body
    else:
        assert row.status == InboundEmail.Status.APPLIED and moves_by_email(game) == 1


def test_the_providers_that_must_report_results_are_a_setting(game, on_commit, settings):
    settings.MAIL_REQUIRE_SENDER_CHECKS = ["stdin"]
    hand = view_for(game, 0)["hand"]
    assert deliver(reply(game, 0, f"crib {hand[0]} {hand[1]}"), on_commit, "stdin").status == "refused"
    assert deliver(reply(game, 0, f"crib {hand[0]} {hand[1]}"), on_commit, "Postmark").status == "applied"


def test_a_mailgun_reply_without_mailguns_results_is_refused(client, game, on_commit, settings):
    payloads.configure(settings)
    hand = view_for(game, 0)["hand"]
    with on_commit():
        response = payloads.post(client, "mailgun", alice_reply(game, f"crib {hand[0]} {hand[1]}"), checks={})
    assert response.status_code == 200
    assert InboundEmail.objects.get().status == InboundEmail.Status.REFUSED
    assert moves_by_email(game) == 0


@pytest.mark.parametrize("esp", payloads.PROVIDERS)
def test_a_provider_not_configured_for_replies_is_not_read(client, game, on_commit, settings, esp):
    payloads.configure(settings)
    settings.MAIL_INBOUND_PROVIDERS = [p for p in payloads.PROVIDERS if p != esp]
    hand = view_for(game, 0)["hand"]
    with on_commit():
        response = payloads.post(client, esp, alice_reply(game, f"crib {hand[0]} {hand[1]}"))
    assert response.status_code == 200  # nothing for the provider to retry
    assert not InboundEmail.objects.exists() and moves_by_email(game) == 0
