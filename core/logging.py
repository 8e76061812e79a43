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


class RedactPrivatePaths(logging.Filter):
    """Keeps the players' private tokens out of the log lines of django.request and django.server (a mistyped or
    replaced link answers 404, which Django logs with its path): the part after `/me/`, `/register/confirm/` or
    `/check-in/` is written as "…"."""

    PRIVATE = re.compile(r"(/me/|/register/confirm/|/check-in/)[^/\s\"?]+")

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and record.args:
            record.args = tuple(self.PRIVATE.sub(r"\1…", a) if isinstance(a, str) else a for a in record.args)
        if isinstance(record.msg, str):
            record.msg = self.PRIVATE.sub(r"\1…", record.msg)
        return True
