"""Logging filters used by the settings' LOGGING."""
import logging


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
