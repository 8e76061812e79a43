"""Browser tests drive Debian's Chromium through Playwright; no browser is ever downloaded."""
import os
import shutil
from pathlib import Path

import pytest
from django.test import override_settings

from .axe import AXE

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="session", autouse=True)
def _plain_http_live_server():
    """The live server builds its middleware once, before function-scoped settings apply: plain HTTP here."""
    with override_settings(SECURE_SSL_REDIRECT=False, SESSION_COOKIE_SECURE=False, CSRF_COOKIE_SECURE=False,
                           SECURE_HSTS_SECONDS=0):
        yield


@pytest.fixture(scope="module")
def browser():
    """Chromium for one test module. Not for the session: Playwright's sync API marks the main thread's event loop as
    running for as long as it lives, and the tests that run an event loop of their own (tests/reliability, run after
    the database tests) would find it."""
    if not shutil.which(CHROMIUM):
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium package")
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API runs an event loop
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-background-networking", "--disable-gpu"],
        )
        yield browser
        browser.close()


@pytest.fixture
def tablet(browser, live_server):
    """A tablet-sized page (portrait) talking to the live test server over plain HTTP."""
    context = browser.new_context(viewport={"width": 820, "height": 1180}, has_touch=True, base_url=live_server.url)
    page = context.new_page()
    blocked = []  # the Content-Security-Policy must not block anything the pages use
    page.on("console", lambda message: blocked.append(message.text)
            if "Content Security Policy" in message.text else None)
    yield page
    context.close()
    assert not blocked, blocked


@pytest.fixture(scope="session")
def axe_script() -> Path:
    """The axe-core script the accessibility checks inject into each page; like the browser, required in CI."""
    if not AXE.is_file():
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail(f"{AXE} is missing: run `npm ci` at the project root")
        pytest.skip(f"{AXE} is missing (npm ci)")
    return AXE
