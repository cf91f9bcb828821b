"""What the account pages share: the login backend they log in with, how fresh a login by link
is, where a page sends one back to, and the answer to a bad emailed link."""

from datetime import timedelta

from django.conf import settings
from django.shortcuts import render, resolve_url
from django.utils.http import url_has_allowed_host_and_scheme

BACKEND = "django.contrib.auth.backends.ModelBackend"
# When this session last logged in by an emailed link, and for how long that lets an account
# without a password change its address.
LINK_LOGIN_AT = "accounts.link_login_at"
LINK_LOGIN_FRESH = timedelta(minutes=15)


def next_or_default(request, url):
    if url and url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return url
    return resolve_url(settings.LOGIN_REDIRECT_URL)


def bad_link(request, error, kind):
    return render(request, "accounts/bad_link.html", {"reason": error.reason, "kind": kind}, status=400)
