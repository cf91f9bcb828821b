"""The profile's address form (with its password box) and the old address's undo page fit a phone
and a desktop; screenshots in test-artifacts/address-<page>-<width>.png."""

import pytest
from django.urls import reverse

from accounts import privacy, tokens
from tests.browser.fit import WIDTHS, logged_in, misfits
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_address_form_and_the_undo_page_fit(live_server, browser, artifacts, console_errors):
    olga = make_user("olga.with.a.long.address@example.com", "Olga")
    pia = make_user("pia@example.com", "Pia", password=None)
    undo = tokens.make_token(olga, privacy.UNDO_EMAIL, o="olga.old.address@example.com")
    pages = [
        ("profile", reverse("accounts:profile") + "#email", olga),
        ("profile-no-password", reverse("accounts:profile") + "#email", pia),
        ("undo", reverse("accounts:undo_email_change", args=[undo]), None),
    ]
    problems = []
    for name, path, who in pages:
        tab = logged_in(browser, live_server.url, who)
        response = tab.goto(live_server.url + path)
        assert response is not None and response.status == 200, name
        for width in WIDTHS:
            problems += misfits(tab, name, width)
            tab.screenshot(path=str(artifacts / f"address-{name}-{width}.png"), full_page=name == "undo")
    assert problems == [] and console_errors == [], problems
