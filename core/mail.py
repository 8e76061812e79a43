"""The one way the site sends an email: queued for the Celery worker once the change that asks for it commits,
tried again with growing delays while the mail server fails, each attempt bounded by `EMAIL_TIMEOUT`.

A message is written whole before it is queued (subject, body and attachments, in the recipient's language), so
the worker sends exactly what the request decided and needs nothing else. Its text may hold a player's private
link, so the task's arguments are never shown in the worker's log lines (`argsrepr`) and a failure is logged by
the recipient's domain only. Without a worker (no broker, or one that cannot be reached:
`core.background.run_in_background`) the message is sent once, on the web process's own background thread, so a
slow mail server never holds the request that committed the change, and a failure is logged, never raised.

Whoever keeps a row saying an email went out (a start-time notice) names it as `record`: when the email finally
fails, the row is removed, so the next run tries again. Every email names what it is `about` (the tournaments or
the championship it concerns): an email given up on is announced by `email_failed` with who it was to, what it was
and why it failed, and the app that shows it to those events' organizers records it (notices/undelivered.py).
"""
from __future__ import annotations

import logging
import smtplib
from collections.abc import Iterable
from typing import Any

from celery import Task, shared_task
from celery.result import AsyncResult
from django.apps import apps
from django.core.mail import EmailMessage
from django.db import models, transaction
from django.dispatch import Signal

from .background import run_in_background
from .metrics import EMAILS
from .text import one_line

logger = logging.getLogger(__name__)

RETRIES = 5
"""Attempts after the first; with `BACKOFF_SECONDS` doubling each time, about a quarter of an hour in all."""
BACKOFF_SECONDS = 30
BACKOFF_MAX = 8 * 60


def backoff(retries: int) -> int:
    """Seconds before the next attempt, after `retries` failed ones: 30, 60, 120, 240, 480."""
    return int(min(BACKOFF_SECONDS * 2 ** retries, BACKOFF_MAX))


Message = dict[str, Any]
"""to, subject, body, attachments ([name, text, MIME type]), record ([model label, pk] or None) and about ([[model
label, pk], …]): JSON for the broker."""

email_failed = Signal()
"""Sent once an email is given up on, with `message` (the Message) and `reason` (why, in the mail server's words,
one line); after the retries on a worker, at once without one."""


class PrivateArguments(Task):  # type: ignore[type-arg]  # celery-types' Task is generic; any task may use this base
    """A task whose arguments never appear in the worker's log lines or monitoring (they hold private links)."""

    def apply_async(self, args: Any = None, kwargs: Any = None,  # type: ignore[override]
                    **options: Any) -> AsyncResult[Any]:
        options.setdefault("argsrepr", "(…)")
        options.setdefault("kwargsrepr", "{…}")
        return super().apply_async(args, kwargs, **options)


def _domain(message: Message) -> str:
    return str(message["to"]).rpartition("@")[2] or "?"


def deliver(message: Message) -> None:
    """Send one message now (the backend's timeout, `EMAIL_TIMEOUT`, bounds the wait); the subject is one line,
    since Django refuses a header with a line break."""
    email = EmailMessage(one_line(message["subject"]), message["body"], None, [message["to"]],
                         headers={"Auto-Submitted": "auto-generated"})
    for name, content, mimetype in message.get("attachments", ()):
        email.attach(name, content, mimetype)
    email.send()


def _forget(record: list[Any] | tuple[str, int] | None) -> None:
    if record is not None:
        label, pk = record
        apps.get_model(label).objects.filter(pk=pk).delete()


def _said(words: bytes | str) -> str:
    return words.decode(errors="replace") if isinstance(words, bytes) else words


def reason(error: BaseException) -> str:
    """Why an email was not sent, in one line an organizer can pass on: the mail server's code and words when it
    answered, else what went wrong (refused connection, timeout, a folder that cannot be written)."""
    if isinstance(error, smtplib.SMTPRecipientsRefused) and error.recipients:
        code, words = next(iter(error.recipients.values()))  # one recipient a message
        text = f"{code} {_said(words)}"
    elif isinstance(error, smtplib.SMTPResponseException):
        text = f"{error.smtp_code} {_said(error.smtp_error)}"
    else:
        text = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    return one_line(text)[:500]


def _give_up(message: Message, error: BaseException) -> None:
    logger.error("An email to a recipient at %s was not sent (%s).", _domain(message), type(error).__name__)
    _forget(message.get("record"))
    for _receiver, failed in email_failed.send_robust(sender=Message, message=message, reason=reason(error)):
        if isinstance(failed, Exception):
            logger.error("A failed email could not be recorded (%s).", type(failed).__name__)


@shared_task(bind=True, base=PrivateArguments, max_retries=RETRIES, acks_late=True)
def send_email(self: Task[..., bool], message: Message) -> bool:
    """Send the message; on a mail-server failure try again later (up to `RETRIES` times). True once sent. Any other
    failure (a bug, a message the backend refuses) would fail the same way again: it is given up on at once, and
    raised for the error report."""
    try:
        deliver(message)
    except (OSError, smtplib.SMTPException) as error:  # refused, timed out, unreachable, a folder not writable
        here = self.request.called_directly or self.request.is_eager
        if here or self.request.retries >= RETRIES:
            _give_up(message, error)
            EMAILS.labels("failed").inc()
            return False
        EMAILS.labels("retried").inc()
        raise self.retry(exc=error, countdown=backoff(self.request.retries)) from None
    except Exception as error:
        _give_up(message, error)
        EMAILS.labels("failed").inc()
        raise
    EMAILS.labels("sent").inc()
    return True


def queue_email(to: str, subject: str, body: str, *, attachments: tuple[tuple[str, str, str], ...] = (),
                record: models.Model | None = None, about: Iterable[models.Model] = ()) -> None:
    """Send `subject` and `body` to `to` from the job queue once the current transaction commits (now, outside
    one). `attachments`: (file name, text, MIME type). `record`: a saved row to remove if the email finally fails.
    `about`: the saved rows (tournaments, a championship) whose organizers are shown the email if it fails."""
    message: Message = {"to": to, "subject": subject, "body": body, "attachments": [list(a) for a in attachments],
                        "record": (record._meta.label, record.pk) if record is not None else None,
                        "about": [[row._meta.label, row.pk] for row in about]}
    queue(message)


def queue(message: Message) -> None:
    """Send a message written whole (`queue_email`'s, or one kept to be sent again) once the transaction commits."""
    transaction.on_commit(lambda: run_in_background(send_email, message), robust=True)

