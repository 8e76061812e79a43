"""Logging filters used by the settings' LOGGING."""
import logging
import re


class ForbiddenWithoutTraceback(logging.Filter):
    """Keeps django.request's warning for a 403 but drops the traceback Django attaches to it.

    `django.utils.log.log_response` passes the PermissionDenied as `exc_info`, so every refused
    request would print a full stack trace: an expected outcome, not an error.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) == 403:
            record.exc_info = None
            record.exc_text = None
        return True


PRIVATE_PATH = re.compile(r"(/me/|/register/confirm/|/check-in/)[^/\s\"?]+")
"""The players' private tokens and check-in codes in an address (web/players/urls.py)."""


def redact(text: str) -> str:
    """The text with every private token of an address written as "…" (`/me/…/`)."""
    return PRIVATE_PATH.sub(r"\1…", text)


class RedactPrivatePaths(logging.Filter):
    """Keeps the players' private tokens out of the log lines of django.request and django.server (a mistyped or
    replaced link answers 404, which Django logs with its path); gunicorn's access log goes through `redact` too
    (catan_tournaments/gunicorn_logging.py)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and record.args:
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        return True
