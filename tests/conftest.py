"""Project-wide fixtures: plain HTTP, a clean cache and in-process tasks for every test."""
import pytest
from django.conf import settings
from django.core.cache import cache
from django.utils import translation

from catan_tournaments.celery import app as celery_app


@pytest.fixture(autouse=True)
def _plain_http_and_static(settings):
    """The suite runs with DEBUG off (secure settings); the test client speaks plain HTTP."""
    settings.SECURE_SSL_REDIRECT = False
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def _clean_cache():
    """Rows are rolled back after each test; cached results of them must go too (Redis in CI)."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _english_to_start_with():
    """The test client runs in this thread: a request under /ar/ would leave Arabic active for the next test."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _eager_tasks():
    """Tasks run in the test's own process and transaction, even when REDIS_URL names a broker."""
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = previous
