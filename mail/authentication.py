"""Whether a reply really comes from its From address, decided as a receiving mail system decides
it (DMARC, RFC 7489; Authentication-Results, RFC 8601), and whether it is spam.

Taken as its sender's only with a DMARC pass, or an *aligned* pass: SPF passing for a mail-from
domain, or a DKIM signature passing for a d= domain, that is the From domain or shares its
organisational domain (the Public Suffix List's registrable domain). A pass for any other domain
proves nothing about the From address. Neutral, none, temperror, permerror and no result at all
count as no result; a DMARC or DKIM failure refuses whatever else passed.

Whose word is read, and nothing else:
1. the provider's own verdicts, before anything in the message: the SES receipt (its spf, dkim,
   dmarc verdicts; the SPF domain is mail.source), Mailgun's X-Mailgun-Spf and
   X-Mailgun-Dkim-Check-Result, Postmark's Received-SPF. A sender may write those headers too, so
   every copy of one must pass; a DKIM pass reported without its domain counts as aligned only
   when every DKIM-Signature in the message is the From domain's;
2. Authentication-Results whose authserv-id is one of settings.MAIL_TRUSTED_AUTHSERV_IDS (the
   provider's MX, our own MTA), read from the top down to the first one that is not (everything
   below it was in the message before a trusted server saw it). Every other Authentication-Results,
   and every ARC header, was written by someone we cannot trust and is never read.
"""

import re
from dataclasses import dataclass, field
from email.utils import parseaddr
from functools import cache

from django.conf import settings
from publicsuffixlist import PublicSuffixList

_SES_VERDICTS = {"PASS": "pass", "FAIL": "fail", "GRAY": "none", "PROCESSING_FAILED": "temperror"}
_SPAM_STATUS = re.compile(r"^\s*yes\b", re.IGNORECASE)


@cache
def _suffixes():
    return PublicSuffixList()


def provider_name(esp_name):
    """anymail's display name ("Amazon SES") as its settings spell it ("amazon_ses")."""
    return (esp_name or "").strip().lower().replace(" ", "_")


def organisational_domain(domain):
    """RFC 7489 §3.2: the registrable domain under the public suffix ("mail.example.co.uk" -> "example.co.uk")."""
    domain = (domain or "").strip().strip(".").lower()
    return _suffixes().privatesuffix(domain) or domain


def aligned(domain, from_domain):
    """Relaxed alignment (RFC 7489 §3.1): the same organisational domain."""
    if not domain or not from_domain:
        return False
    return organisational_domain(domain) == organisational_domain(from_domain)


def _domain(address):
    address = parseaddr(str(address or ""))[1] or str(address or "")
    return address.strip().strip("<>").rpartition("@")[2].strip().lower()


@dataclass
class Verdicts:
    """What the trusted sources said: (result, domain or None) per method."""

    spf: list = field(default_factory=list)
    dkim: list = field(default_factory=list)
    dmarc: list = field(default_factory=list)

    def add(self, method, result, domain=None):
        getattr(self, method).append((str(result or "").strip().lower(), (domain or "").strip().lower() or None))


def _strip_comments(value):
    """RFC 5322 comments (nested parentheses) out of a header value, quoted strings kept."""
    out, depth, quoted = [], 0, False
    for char in value:
        if char == '"' and depth == 0:
            quoted = not quoted
        if not quoted and char == "(":
            depth += 1
            continue
        if not quoted and char == ")" and depth:
            depth -= 1
            continue
        if depth == 0:
            out.append(char)
    return "".join(out)


def parse_authentication_results(value):
    """(authserv-id, [(method, result, {property: value})]) of one Authentication-Results header."""
    parts = [part.strip() for part in _strip_comments(" ".join(str(value).split())).split(";")]
    authserv_id = parts[0].split()[0].lower() if parts and parts[0] else ""
    results = []
    for part in parts[1:]:
        match = re.match(r"([a-z0-9-]+)(?:/\d+)?\s*=\s*([a-z]+)(.*)$", part, re.IGNORECASE)
        if match is None:
            continue
        properties = dict(
            (name.lower(), val.strip('"').lower())
            for name, val in re.findall(r"([a-z0-9-]+\.[a-z0-9-]+)\s*=\s*(\"[^\"]*\"|\S+)", match[3], re.IGNORECASE)
        )
        results.append((match[1].lower(), match[2].lower(), properties))
    return authserv_id, results


def _trusted_results(message, verdicts):
    trusted = {name.lower() for name in settings.MAIL_TRUSTED_AUTHSERV_IDS}
    for header in message.get_all("Authentication-Results") or []:
        authserv_id, results = parse_authentication_results(header)
        if authserv_id not in trusted:
            break
        for method, result, props in results:
            if method == "spf":
                domain = props.get("smtp.mailfrom") or props.get("smtp.helo")
                verdicts.add("spf", result, _domain(domain) if domain else None)
            elif method == "dkim":
                verdicts.add("dkim", result, props.get("header.d") or _domain(props.get("header.i")) or None)
            elif method == "dmarc":
                verdicts.add("dmarc", result, props.get("header.from"))


def _signature_domains(message):
    """The d= of every DKIM-Signature in the message."""
    found = []
    for header in message.get_all("DKIM-Signature") or []:
        match = re.search(r"(?:^|;)\s*d\s*=\s*([^;\s]+)", " ".join(str(header).split()))
        found.append(match[1].lower() if match else "")
    return found


def _unnamed_dkim_domain(message, from_domain):
    """The From domain when every DKIM-Signature is aligned with it (so a pass reported without a
    domain is an aligned one's), else None."""
    domains = _signature_domains(message)
    return from_domain if domains and all(aligned(d, from_domain) for d in domains) else None


def _all_copies(message, name):
    """Every copy of a provider's header agreeing, or "fail" when they disagree, "" when absent."""
    values = {str(v).strip().split(" ", 1)[0].strip(";").lower() for v in message.get_all(name) or []}
    return "" if not values else values.pop() if len(values) == 1 else "fail"


def _provider_results(message, esp_event, provider, verdicts, from_domain):
    envelope_domain = _domain(getattr(message, "envelope_sender", None))
    if provider == "amazon_ses" and isinstance(esp_event, dict):
        receipt = esp_event.get("receipt") or {}
        source = _domain((esp_event.get("mail") or {}).get("source")) or envelope_domain
        for method, domain in (
            ("spf", source),
            ("dkim", _unnamed_dkim_domain(message, from_domain)),
            ("dmarc", from_domain),
        ):
            verdict = receipt.get(f"{method}Verdict")
            if isinstance(verdict, dict) and verdict.get("status"):
                status = str(verdict["status"]).upper()
                verdicts.add(method, _SES_VERDICTS.get(status, status.lower()), domain)
    elif provider == "mailgun":
        spf, dkim = _all_copies(message, "X-Mailgun-Spf"), _all_copies(message, "X-Mailgun-Dkim-Check-Result")
        if spf:
            verdicts.add("spf", spf, envelope_domain)
        if dkim:
            verdicts.add("dkim", dkim, _unnamed_dkim_domain(message, from_domain))
    elif provider == "postmark":
        spf = _all_copies(message, "Received-SPF")
        if spf:
            headers = " ".join(str(v) for v in message.get_all("Received-SPF"))
            envelopes = {_domain(e) for e in re.findall(r"envelope-from=\"?([^;\s\"]+)", headers, re.IGNORECASE)}
            domain = envelopes.pop() if len(envelopes) == 1 else (None if envelopes else envelope_domain)
            verdicts.add("spf", spf, domain)


def sender_checks(message, esp_event=None, esp_name=""):
    """Verdicts of the trusted sources: the provider's first, then the trusted Authentication-Results."""
    verdicts = Verdicts()
    from_domain = _domain(message.get("From"))
    _provider_results(message, esp_event, provider_name(esp_name), verdicts, from_domain)
    _trusted_results(message, verdicts)
    return verdicts


def auth_failure(message, esp_event=None, esp_name=""):
    """Why the message cannot be taken as its From address's, in words; "" if it can."""
    from_domain = _domain(message.get("From"))
    if len(message.get_all("From") or []) != 1 or not from_domain:
        return "not exactly one From address"
    verdicts = sender_checks(message, esp_event, esp_name)
    if any(result == "fail" for result, _ in verdicts.dmarc):
        return "DMARC failed"
    if any(result == "fail" for result, _ in verdicts.dkim):
        return "DKIM failed"
    if any(result == "pass" and (domain is None or aligned(domain, from_domain)) for result, domain in verdicts.dmarc):
        return ""
    for method in ("spf", "dkim"):
        if any(result == "pass" and aligned(domain, from_domain) for result, domain in getattr(verdicts, method)):
            return ""
    passes = [
        f"{m.upper()} pass for {d or 'another domain'}"
        for m in ("spf", "dkim")
        for r, d in getattr(verdicts, m)
        if r == "pass"
    ]
    if passes:
        return f"no pass aligned with {from_domain} ({', '.join(passes)})"[:255]
    failed = [result for result, _ in verdicts.spf if result in ("fail", "softfail")]
    if failed:
        return f"SPF {failed[0]} and no passing DKIM signature"
    return "no SPF, DKIM or DMARC result from the provider"


def spam_verdict(message):
    """Why the receiving side took the message for spam, in words; "" if it did not.

    The provider's (anymail's spam_detected: Mailgun's X-Mailgun-Sflag, the SES receipt, Postmark's
    X-Spam-Status), SpamAssassin's X-Spam-Flag / X-Spam-Status ("Yes, score=9.1 ..."), and a spam
    score at or above settings.MAIL_SPAM_SCORE. Only a "yes" is read: a sender's "No" changes nothing.
    """
    if getattr(message, "spam_detected", None):
        return "the provider flagged it as spam"
    if any(str(v).strip().upper() == "YES" for v in message.get_all("X-Spam-Flag") or []):
        return "X-Spam-Flag: YES"
    if any(_SPAM_STATUS.match(str(v)) for v in message.get_all("X-Spam-Status") or []):
        return "X-Spam-Status: Yes"
    score = getattr(message, "spam_score", None)
    try:
        score = float(score) if score is not None else None
    except (TypeError, ValueError):
        score = None
    if score is not None and score >= settings.MAIL_SPAM_SCORE:
        return f"spam score {score:g}"
    return ""
