"""System checks that keep the service from starting unsafe (run by runserver, migrate,
`check`, `check --deploy`, and by cribsite.wsgi before it serves a request)."""

from django.conf import settings
from django.core.checks import Error, Tags, register

# anymail's inbound webhooks we read replies from, and the ANYMAIL settings (any one of
# them) each needs: Mailgun's to check the provider's signature beyond basic auth, Brevo's
# API key to fetch a reply's attachments (without it anymail answers every Brevo post 400).
KNOWN_PROVIDERS = {
    "postmark": (),
    "mailgun": ("MAILGUN_WEBHOOK_SIGNING_KEY", "MAILGUN_API_KEY"),
    "amazon_ses": (),
    "brevo": ("BREVO_API_KEY",),
}
# The webhook secret .env.example shows: public, so as good as none.
EXAMPLE_WEBHOOK_SECRETS = {"random-user:random-password"}


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
        needed = KNOWN_PROVIDERS[provider]
        if needed and not any(anymail.get(name) for name in needed):
            errors.append(
                Error(
                    f"The {provider} inbound webhook needs ANYMAIL_{needed[0]}.",
                    hint=f"Set ANYMAIL_{needed[0]} from the provider's control panel.",
                    id="mail.E003",
                )
            )
    secrets = anymail.get("WEBHOOK_SECRET") or []
    secrets = [secrets] if isinstance(secrets, str) else list(secrets)
    if not settings.DEBUG and EXAMPLE_WEBHOOK_SECRETS & set(secrets):
        errors.append(
            Error(
                "ANYMAIL_WEBHOOK_SECRET is the example value of .env.example: anyone could post a forged reply.",
                hint="Set it to a random user:password of your own.",
                id="mail.E004",
            )
        )
    return errors
