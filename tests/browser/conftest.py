"""Real headless Chromium (Debian's), one fresh profile per test; screenshots go to test-artifacts/."""

import os
from pathlib import Path

import pytest

from tests import services

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture
def browser(console_errors):
    """Debian's Chromium, headless. Playwright starts it on a new, empty profile
    (a fresh temporary user-data dir) and each context is a separate person.
    Every page of every context is watched: a console error (a Content-Security-Policy
    refusal among them) or an uncaught script error fails the test."""
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's sync API runs an event loop
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=services.chromium_path(), args=CHROMIUM_ARGS, headless=True)
        new_context = browser.new_context

        def watched_context(*args, **kwargs):
            context = new_context(*args, **kwargs)
            context.on(
                "console", lambda m: m.type == "error" and console_errors.append(f"{m.location.get('url')}: {m.text}")
            )
            context.on("page", lambda page: page.on("pageerror", lambda e: console_errors.append(f"{page.url}: {e}")))
            return context

        browser.new_context = watched_context
        try:
            yield browser
        finally:
            browser.close()
    assert console_errors == []


@pytest.fixture
def console_errors():
    """What the browser reported as errors while the test ran (each "url: message")."""
    return []


@pytest.fixture
def artifacts():
    """test-artifacts/ at the top of the checkout, for screenshots a person can look at."""
    path = Path(__file__).resolve().parents[2] / "test-artifacts"
    path.mkdir(exist_ok=True)
    return path
