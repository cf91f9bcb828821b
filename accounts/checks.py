"""System checks that keep the service from starting with a public key or open to any host."""

from django.conf import settings
from django.core.checks import Error, Tags, register

DEVELOPMENT_KEY = "insecure-dev-key-only-for-local-trials"
# How .env.example's SECRET_KEY begins: a deployment that copied it unedited signs with a public key.
EXAMPLE_KEY_PREFIX = "change-me"


@register(Tags.security)
def secret_key_is_set(app_configs, **kwargs):
    """Every emailed link and session is signed with SECRET_KEY: the published one forges them all."""
    if settings.DEBUG or settings.SECRET_KEY != DEVELOPMENT_KEY:
        return []
    return [
        Error(
            "SECRET_KEY is not set and DEBUG is off.",
            hint="Set SECRET_KEY in the environment to a long random string (or DEBUG=true for a local trial).",
            id="accounts.E001",
        )
    ]


@register(Tags.security)
def secret_key_is_not_the_example(app_configs, **kwargs):
    if settings.DEBUG or not settings.SECRET_KEY.lower().startswith(EXAMPLE_KEY_PREFIX):
        return []
    return [
        Error(
            "SECRET_KEY is the example value of .env.example: every link and session could be forged.",
            hint="Set SECRET_KEY to a long random string of your own "
            "(python -c 'from django.core.management.utils import get_random_secret_key as k; print(k())').",
            id="accounts.E002",
        )
    ]


@register(Tags.security)
def hosts_are_named(app_configs, **kwargs):
    """With DEBUG off, ALLOWED_HOSTS=* would let any Host header build the links of every email."""
    if settings.DEBUG or "*" not in settings.ALLOWED_HOSTS:
        return []
    return [
        Error(
            "ALLOWED_HOSTS contains '*' and DEBUG is off.",
            hint="Name the site's host names in ALLOWED_HOSTS (e.g. cribbage.example.org).",
            id="accounts.E003",
        )
    ]
