"""System checks that keep the service from starting unsafe (run by runserver, migrate,
`check`, `check --deploy`, and by cribsite.wsgi before it serves a request)."""

from django.conf import settings
from django.core.checks import Error, Tags, register

# anymail's inbound webhooks we read replies from, and the ANYMAIL settings (any one of
# them) that let anymail check the provider's own signature, beyond basic auth.
KNOWN_PROVIDERS = {
    "postmark": (),
    "mailgun": ("MAILGUN_WEBHOOK_SIGNING_KEY", "MAILGUN_API_KEY"),
    "amazon_ses": (),
    "brevo": (),
}


@register(Tags.security)
def inbound_webhooks_have_secrets(app_configs, **kwargs):
    """With DEBUG off, every configured inbound provider's webhook needs its secret."""
    errors = []
    anymail = getattr(settings, "ANYMAIL", {}) or {}
    for provider in settings.MAIL_INBOUND_PROVIDERS:
        if provider not in KNOWN_PROVIDERS:
            errors.append(
                Error(
                    f"MAIL_INBOUND_PROVIDERS names {provider!r}, which is not a provider replies are read from.",
                    hint=f"Use some of: {', '.join(sorted(KNOWN_PROVIDERS))}.",
                    id="mail.E001",
                )
            )
            continue
        if settings.DEBUG:
            continue
        if not anymail.get("WEBHOOK_SECRET"):
            errors.append(
                Error(
                    f"The {provider} inbound webhook has no secret: anyone could post a forged reply.",
                    hint="Set ANYMAIL_WEBHOOK_SECRET to a random user:password and give the provider "
                    "https://user:password@your-site/anymail/.../inbound/.",
                    id="mail.E002",
                )
            )
        signing = KNOWN_PROVIDERS[provider]
        if signing and not any(anymail.get(name) for name in signing):
            errors.append(
                Error(
                    f"The {provider} inbound webhook needs ANYMAIL_{signing[0]} to check the provider's signature.",
                    hint=f"Set ANYMAIL_{signing[0]} from the provider's control panel.",
                    id="mail.E003",
                )
            )
    return errors
