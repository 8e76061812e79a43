"""The log without the players' private tokens, and the filters the settings' LOGGING uses.

A token or check-in code is the key to a player's page (`/me/<token>/`, a registration's confirmation, a check-in
window's code, a password reset), so it is written as "…" in every log record: `configure` (the settings'
`LOGGING_CONFIG`) installs a record factory that redacts each record's message (with its arguments) and traceback
text as it is made, whatever logger makes it (django.request's 404s, django.security.csrf's refusals, gunicorn's
error log, Celery's, a library's), before any handler, filter or Sentry sees it. Gunicorn's access log is
redacted by its logger class too (catan_tournaments/gunicorn_logging.py), and Sentry's events by `scrub_event`.
"""
from __future__ import annotations

import logging
import logging.config
import re
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from sentry_sdk.types import Event, Hint


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


PRIVATE_PATH = re.compile(r"(/me/|/register/confirm/|/check-in/|/reset/[^/\s\"?]+/)[^/\s\"?]+")
"""The players' private tokens and check-in codes in an address (web/players/urls.py), and a password reset's token
(catan_tournaments/routes/accounts.py; its user id is kept)."""


def redact(text: str) -> str:
    """The text with every private token of an address written as "…" (`/me/…/`)."""
    return PRIVATE_PATH.sub(r"\1…", text)


_TRACEBACKS = logging.Formatter()


def redact_record(record: logging.LogRecord) -> None:
    """The record's message and its traceback's text, redacted in place. The message is redacted once its arguments
    are in it (a token may be an argument, and redacting the template alone could eat a `%s`); a record that holds
    no token keeps its template and arguments, which error reports group by."""
    try:
        message = record.getMessage()
    except Exception:  # arguments that do not fit: the handler reports that; no message, nothing to redact
        message = None
    if message is not None and (redacted := redact(message)) != message:
        record.msg, record.args = redacted, None
    if record.exc_info and not record.exc_text:  # formatters use this text rather than format the traceback again
        record.exc_text = redact(_TRACEBACKS.formatException(record.exc_info))


def install() -> None:
    """Every log record made from now on in this process is redacted (once, however often this is called)."""
    made = logging.getLogRecordFactory()
    if getattr(made, "redacts", False):
        return

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = made(*args, **kwargs)
        redact_record(record)
        return record

    factory.redacts = True  # type: ignore[attr-defined]
    logging.setLogRecordFactory(factory)


def configure(config: dict[str, Any]) -> None:
    """The settings' LOGGING_CONFIG: the redaction installed, then `config` applied as Django would."""
    install()
    logging.config.dictConfig(config)


def scrubbed(value: object) -> object:
    """`value` with every string in it redacted, through dicts and lists (an error report's request, message,
    breadcrumbs and exception values)."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {key: scrubbed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [scrubbed(item) for item in value]
    return value


def scrub_event(event: Event, hint: Hint) -> Event:
    """Sentry's `before_send`: the report without tokens (its request URL is the page's address)."""
    return cast("Event", scrubbed(event))

