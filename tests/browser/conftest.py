"""Real headless Chromium (Debian's), one fresh profile per test; screenshots go to test-artifacts/."""
import os
from pathlib import Path

import pytest

from tests import services

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture
def browser():
    """Debian's Chromium, headless. Playwright starts it on a new, empty profile
    (a fresh temporary user-data dir) and each context is a separate person."""
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's sync API runs an event loop
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=services.chromium_path(), args=CHROMIUM_ARGS,
                                     headless=True)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def artifacts():
    """test-artifacts/ at the top of the checkout, for screenshots a person can look at."""
    path = Path(__file__).resolve().parents[2] / "test-artifacts"
    path.mkdir(exist_ok=True)
    return path
