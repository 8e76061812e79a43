"""No private token or check-in code reaches the log, whatever logger writes it (issue 33, item 9): a refused POST to
`/me/<token>/sheets/…` was logged by django.security.csrf with its path, which no filter redacted."""
import logging

import pytest
from django.test import Client

from core.logging import scrub_event

pytestmark = pytest.mark.django_db

SECRET = "S3cretTokenThatMustNotBeLogged-1234567890ab"


class Kept(logging.Handler):
    """Every record that reaches it, and each as a handler would write it."""

    def __init__(self):
        super().__init__()
        self.records, self.lines = [], []
        self.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))

    def emit(self, record):
        if not any(record is seen for seen in self.records):  # a record met on two loggers' handlers is one
            self.records.append(record)
            self.lines.append(self.format(record))


NAMES = ["django.request", "django.security.DisallowedHost", "django.server", "gunicorn.error", "celery.app.trace",
         "some.library"]
"""Loggers that write request paths, and one of no one's; django.server, and gunicorn's once its logger class is set
up (as a test of its access log does), do not propagate to the root logger."""


@pytest.fixture
def kept():
    """A handler on the root logger and on each logger of NAMES."""
    handler = Kept()
    loggers = [logging.getLogger(), *(logging.getLogger(name) for name in NAMES)]
    for logger in loggers:
        logger.addHandler(handler)
    yield handler
    for logger in loggers:
        logger.removeHandler(handler)


def test_a_post_refused_for_its_csrf_token_never_logs_the_token(kept, caplog):
    response = Client(enforce_csrf_checks=True).post(f"/me/{SECRET}/sheets/1/", {"action": "confirm", "version": 1})
    assert response.status_code == 403
    (refused,) = [r for r in kept.records if r.name == "django.security.csrf"]
    assert refused.getMessage() == "Forbidden (CSRF cookie not set.): /me/…/sheets/1/"
    assert kept.lines and not any(SECRET in line for line in kept.lines)
    assert SECRET not in caplog.text


def test_every_logger_redacts_messages_arguments_and_tracebacks(kept):
    for name in NAMES:
        logger = logging.getLogger(name)
        logger.warning(f"Not Found: /ar/me/{SECRET}/")
        logger.warning("%s %s", "GET", f"/t/cup/register/confirm/{SECRET}/")
        logger.warning("%(r)s", {"r": f"POST /t/cup/check-in/{SECRET}/ HTTP/1.1"})
        try:
            raise ValueError(f"Error handling request /me/{SECRET}/calendar.ics")
        except ValueError:
            logger.exception("Error handling request")
    assert {r.name for r in kept.records} >= set(NAMES) and len(kept.records) == 4 * len(NAMES)
    assert not any(SECRET in line for line in kept.lines), [line for line in kept.lines if SECRET in line]
    assert "Not Found: /ar/me/…/" in kept.lines[0] and "/t/cup/register/confirm/…/" in kept.lines[1]
    assert "/t/cup/check-in/…/ HTTP/1.1" in kept.lines[2]
    assert "Traceback" in kept.lines[3] and "ValueError: Error handling request /me/…/calendar.ics" in kept.lines[3]


def test_a_password_resets_token_is_redacted_too(kept):
    logging.getLogger("django.request").warning("Not Found: /accounts/reset/MQ/%s/", SECRET)
    assert kept.lines[-1].endswith("Not Found: /accounts/reset/MQ/…/")


def test_a_record_without_a_token_keeps_its_template_and_arguments(kept):
    """Error reports group log lines by their template."""
    logging.getLogger("some.library").warning("Not Found: %s", "/t/cup/")
    (record,) = kept.records
    assert (record.msg, record.args) == ("Not Found: %s", ("/t/cup/",))
    assert kept.lines == ["some.library WARNING Not Found: /t/cup/"]


def test_an_error_report_carries_no_token():
    """Sentry's event holds the request's address, the log message and breadcrumbs."""
    event = {"request": {"url": f"https://catan.example/me/{SECRET}/", "method": "POST"},
             "logentry": {"message": "Error at %s", "params": [f"/me/{SECRET}/"]},
             "breadcrumbs": {"values": [{"message": f"GET /t/x/check-in/{SECRET}/", "level": "info"}]},
             "exception": {"values": [{"type": "KeyError", "value": f"'/me/{SECRET}/'"}]}, "level": "error"}
    scrubbed = scrub_event(event, {})
    assert SECRET not in repr(scrubbed)
    assert scrubbed["request"] == {"url": "https://catan.example/me/…/", "method": "POST"}
    assert scrubbed["level"] == "error"
