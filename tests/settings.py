"""The settings the tests run with: production's (DEBUG off, as cribsite.settings gives it),
except that the test client and the live server speak plain http, not https."""

from cribsite.settings import *  # noqa: F403

SECURE_SSL_REDIRECT = False
SECURE_HSTS_SECONDS = 0
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = False

# The receiving mail server whose Authentication-Results the tests' genuine replies carry
# (tests.mail.conftest.genuine); every other authserv-id is a sender's own claim.
MAIL_TRUSTED_AUTHSERV_IDS = ["mx.example.net"]
