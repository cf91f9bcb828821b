"""The settings the tests run with: production's (DEBUG off, as cribsite.settings gives it),
except that the test client and the live server speak plain http, not https."""

from cribsite.settings import *  # noqa: F403

SECURE_SSL_REDIRECT = False
SECURE_HSTS_SECONDS = 0
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = False
