"""Browser tests drive Debian's Chromium through Playwright; no browser is ever downloaded. They run against
Django's live server, or with `make test-stack` against the deployed stack (tests/e2e/site.py)."""
import os
import shutil
from pathlib import Path

import pytest
from django.test import override_settings

from .axe import AXE
from .site import STACK_ARGS, Folder, Outbox, RunningStack, Site

CHROMIUM = "/usr/bin/chromium"


def pytest_collection_modifyitems(items):
    """`stack`: a journey that also runs against the stack; only those do with `make test-stack`."""
    if STACK_ARGS:
        for item in items:
            if "stack" not in item.keywords:
                item.add_marker(pytest.mark.skip(reason="not a journey of `make test-stack`"))


@pytest.fixture(scope="session")
def stack():
    """The stack for the whole session (`make test-stack` only): started, then stopped by SIGTERM, and every
    process it started must be gone after it."""
    if not STACK_ARGS:
        pytest.skip("runs against the stack: make test-stack")
    running = RunningStack(STACK_ARGS)
    yield running.wait_ready()
    left = running.stop()
    assert running.process.returncode == 0, running.log.read_text(errors="replace")[-3000:]
    assert not left, f"processes the stack started outlived it: {left}"


if STACK_ARGS:
    @pytest.fixture(scope="session")
    def django_db_setup(stack):
        """The stack's own database, migrated by the stack: the tests write their rows there, as a replica does
        (emptied after each test by the transactional tests' flush)."""
        yield

    @pytest.fixture(autouse=True)
    def _eager_tasks():
        """The tasks the tests cause (emails above all) go to the stack's broker and worker, as the replicas'."""
        yield


if STACK_ARGS:
    @pytest.fixture
    def site(stack, settings):
        """Where the journey's browser goes: the stack's https://catan.test:<port>; the links of the emails this
        process causes (a withdrawal at the desk) point there too, as the replicas' do."""
        settings.SITE_URL = stack["site_url"]
        return Site(stack["site_url"], Folder(Path(stack["mail"])), stack)
else:
    @pytest.fixture
    def site(live_server, settings):
        """Where the journey's browser goes: the live server (named, so pytest-django lets its host in)."""
        settings.SITE_URL = live_server.url  # the links of emails sent outside a request point here too
        return Site(live_server.url, Outbox())


@pytest.fixture(scope="session", autouse=True)
def _plain_http_live_server():
    """The live server builds its middleware once, before function-scoped settings apply: plain HTTP here."""
    with override_settings(SECURE_SSL_REDIRECT=False, SESSION_COOKIE_SECURE=False, CSRF_COOKIE_SECURE=False,
                           LANGUAGE_COOKIE_SECURE=False, SECURE_HSTS_SECONDS=0):
        yield


@pytest.fixture(scope="module")
def browser(request):
    """Chromium for one test module. Not for the session: Playwright's sync API marks the main thread's event loop as
    running for as long as it lives, and the tests that run an event loop of their own (tests/reliability, run after
    the database tests) would find it."""
    if not shutil.which(CHROMIUM):
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium package")
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API runs an event loop
    from playwright.sync_api import sync_playwright

    trusting = request.getfixturevalue("stack")["chromium"] if STACK_ARGS else []  # catan.test and its certificate
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-background-networking", "--disable-gpu",
                                            *trusting],
        )
        yield browser
        browser.close()


@pytest.fixture
def tablet(browser, site):
    """A tablet-sized page (portrait) talking to the site (the live test server over plain HTTP, or the stack)."""
    context = browser.new_context(viewport={"width": 820, "height": 1180}, has_touch=True, base_url=site.url)
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
