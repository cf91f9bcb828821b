import os

from django.core.checks import Tags, run_checks
from django.core.checks.messages import ERROR
from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cribsite.settings")
application = get_wsgi_application()

# gunicorn runs no system checks: refuse to serve with an unsafe configuration (no
# SECRET_KEY, an inbound webhook without its secret) rather than serve forgeries.
_unsafe = [e for e in run_checks(tags=[Tags.security]) if e.level >= ERROR and not e.is_silenced()]
if _unsafe:
    raise ImproperlyConfigured("; ".join(f"{e.id}: {e.msg}" for e in _unsafe))
