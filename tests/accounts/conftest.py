import re
from urllib.parse import urlsplit

import pytest
from django.core.cache import cache

SITE = "https://cribbage.example"


@pytest.fixture(autouse=True)
def _accounts_env(settings):
    settings.SITE_URL = SITE
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed
    cache.clear()  # the per-address mail counts
    yield
    cache.clear()


def link_in(message):
    """The path of the one action link in a mail (the footer's help link aside), checking both parts carry it, absolute."""
    links = [
        link for link in re.findall(re.escape(SITE) + r"/[^\s\"<]+", message.body) if urlsplit(link).path != "/help/"
    ]
    assert len(links) == 1, message.body
    html, mimetype = message.alternatives[0]
    assert mimetype == "text/html"
    assert f'href="{links[0]}"' in html
    return urlsplit(links[0]).path
