"""Project-wide fixtures: plain HTTP, a clean cache and in-process tasks for every test; markers by folder."""
import os
import tempfile
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import override_settings
from django.utils import translation

from catan_tournaments.celery import app as celery_app
from tests.site import SITE

TESTS = Path(__file__).resolve().parent
# Markers (registered in pyproject.toml) given by where a test lives, so a new test file there has them too;
# `make test-fast` leaves all three out.
MARKED_FOLDERS = {"e2e": "e2e", "fuzz": "fuzz"}
# What takes 7 s or more a file for a reason of its own (measured with --junitxml): the demo built again, PDFs laid
# out, a migration back and forth, an exhaustive search, fresh interpreters, waits for timeouts, a Celery worker,
# real password hashing on every attempt, every URL for every actor.
SLOW_FILES = {
    "demo", "printing", "test_migrations.py", "test_moved_models.py", "backup/test_backup.py",
    "engines/test_seating_exact.py",
    "test_signin_throttle.py", "test_permission_matrix.py", "test_settings.py", "test_cache_outage.py",
    "scheduling/test_worker.py", "api/test_schemathesis.py",
    "api/test_generated_client.py",
}


def pytest_collection_modifyitems(items):
    for item in items:
        where = Path(item.path).relative_to(TESTS)
        if where.parts[0] in MARKED_FOLDERS:
            item.add_marker(MARKED_FOLDERS[where.parts[0]])
        if where.as_posix() in SLOW_FILES or where.parts[0] in SLOW_FILES:
            item.add_marker("slow")


def pytest_sessionstart(session):
    forget_test_databases_of_killed_runs(Path(tempfile.gettempdir()))


def forget_test_databases_of_killed_runs(folder: Path) -> None:
    """Each run has its own SQLite test database, named by its process (settings.py); Django removes it when the run
    ends, and this the files of runs that were killed before they could."""
    for path in folder.glob("catan-test-*.sqlite3*"):
        pid = path.name.removeprefix("catan-test-").partition(".")[0]
        if pid.isdigit() and not _running(int(pid)):
            path.unlink(missing_ok=True)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


@pytest.fixture(autouse=True)
def _plain_http_and_static(settings):
    """The suite runs with DEBUG off (secure settings); the test client speaks plain HTTP."""
    settings.SECURE_SSL_REDIRECT = False
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(scope="session", autouse=True)
def _site_address(django_test_environment):
    """The site's address (SITE_URL) is not the test client's `testserver`, so a link built on the host a request came
    by, instead of on the site's address, shows; `tests.site.open_link` opens a link on it, as written. For the whole
    session, module fixtures included (a test may set another with the `settings` fixture). A key of the
    deployment's own too: with DEBUG off a Celery worker started in a test refuses the development key. Audit
    payloads are checked strictly, as in development (audit/payloads.py)."""
    with override_settings(SITE_URL=SITE, ALLOWED_HOSTS=[*settings.ALLOWED_HOSTS, "catan.example"],
                           SECRET_KEY="a-test-deployment-key-" + "k3Y" * 16, AUDIT_STRICT_PAYLOADS=True):
        yield


@pytest.fixture(autouse=True)
def _clean_cache():
    """Rows are rolled back after each test; cached results of them must go too (Redis in CI), and the tournament
    ids this process remembers for slugs (a slug names another tournament in the next test)."""
    from ranking.live import forget_tournament_ids

    cache.clear()
    forget_tournament_ids()
    yield
    cache.clear()
    forget_tournament_ids()


@pytest.fixture(autouse=True)
def _english_to_start_with():
    """The test client runs in this thread: a request under /ar/ would leave Arabic active for the next test."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


class InlineExecutor:
    """The embedded worker's threads (core.background's executors) replaced by the test's own thread: background work
    runs at once, in the test's transaction. Tests of the threads themselves put a real executor back."""

    def submit(self, fn, *args):
        fn(*args)


@pytest.fixture(autouse=True)
def _eager_tasks():
    """Tasks run in the test's own process and transaction, even when REDIS_URL names a broker. Not through the
    `monkeypatch` fixture: a test's own `monkeypatch.undo()` must not bring the threads back."""
    from core import background

    previous = celery_app.conf.task_always_eager, background.executor, background.outbound_executor
    celery_app.conf.task_always_eager, background.executor, background.outbound_executor = (
        True, InlineExecutor(), InlineExecutor())
    background.broker.open_until = 0.0  # a broker another test made fail is asked again
    yield
    celery_app.conf.task_always_eager, background.executor, background.outbound_executor = previous
    background.broker.open_until = 0.0
