"""A system check that keeps the service from starting with the public development key."""

from django.conf import settings
from django.core.checks import Error, Tags, register

DEVELOPMENT_KEY = "insecure-dev-key-only-for-local-trials"


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
