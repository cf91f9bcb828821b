"""Whether a reply really comes from its sender: the SPF, DKIM and DMARC results the receiving side reported.

Only the receiving side's own results are read: the topmost Authentication-Results
(or Received-SPF) header, which the provider's MX adds above anything the sender
wrote, and the provider's own verdicts (SES receipt, Mailgun's X-Mailgun-* headers).

Refused: a DMARC failure; a DKIM failure, whatever SPF says; an SPF failure with no
passing DKIM signature (forwarders break SPF, not DKIM). A message with no result at
all is refused when it came through a provider listed in
settings.MAIL_REQUIRE_SENDER_CHECKS (those that always report them), else accepted.
"""

import re

from django.conf import settings

METHODS = ("spf", "dkim", "dmarc")
_SES_VERDICTS = {"PASS": "pass", "FAIL": "fail", "GRAY": "none", "PROCESSING_FAILED": "temperror"}


def provider_name(esp_name):
    """anymail's display name ("Amazon SES") as its settings spell it ("amazon_ses")."""
    return (esp_name or "").strip().lower().replace(" ", "_")


def sender_checks(message, esp_event=None):
    """{method: set of verdicts} for spf, dkim and dmarc, as the receiving side reported them."""
    results = {method: set() for method in METHODS}
    header = message.get("Authentication-Results") or message.get("ARC-Authentication-Results") or ""
    for method, verdict in re.findall(r"\b(spf|dkim|dmarc)\s*=\s*(\w+)", str(header), re.IGNORECASE):
        results[method.lower()].add(verdict.lower())
    received_spf = str(message.get("Received-SPF") or "").split(" ", 1)[0].strip().lower()
    if received_spf and not results["spf"]:
        results["spf"].add(received_spf)
    verdicts = {method: message.get(f"X-SES-{method.upper()}-Verdict") for method in METHODS}
    if isinstance(esp_event, dict):
        receipt = esp_event.get("receipt") or {}
        for method in METHODS:
            verdict = receipt.get(f"{method}Verdict")
            if isinstance(verdict, dict) and verdict.get("status"):
                verdicts[method] = verdict["status"]
    verdicts["spf"] = verdicts["spf"] or message.get("X-Mailgun-Spf")
    verdicts["dkim"] = verdicts["dkim"] or message.get("X-Mailgun-Dkim-Check-Result")
    for method, verdict in verdicts.items():
        if verdict and not results[method]:
            verdict = str(verdict).strip()
            results[method].add(_SES_VERDICTS.get(verdict.upper(), verdict.lower()))
    return results


def auth_failure(message, esp_event=None, esp_name=""):
    """Why the message cannot be taken as its sender's, in words; "" if it can."""
    results = sender_checks(message, esp_event)
    spf, dkim, dmarc = results["spf"], results["dkim"], results["dmarc"]
    if "fail" in dmarc:
        return "DMARC failed"
    bad_spf = spf & {"fail", "softfail"}
    if bad_spf and "pass" not in dkim:
        return f"SPF {sorted(bad_spf)[0]} and no passing DKIM signature"
    if "fail" in dkim:
        return "DKIM failed"
    if not (spf | dkim | dmarc) and provider_name(esp_name) in settings.MAIL_REQUIRE_SENDER_CHECKS:
        return "no SPF, DKIM or DMARC result from the provider"
    return ""
