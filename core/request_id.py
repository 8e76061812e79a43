"""One id per request, from the proxy to the log lines and the Celery tasks it queued (and Sentry's reports).

nginx sends each request's id as `X-Request-ID` (deploy/nginx/catan.conf.template); `RequestIdMiddleware` takes it
(or makes one where no proxy sends it, e.g. `runserver`), keeps it for the request's thread, sends it back and
tags Sentry's scope. A task queued meanwhile carries it in its message's headers (`before_task_publish`) and runs
under it (`task_prerun`), so the worker's log lines of a sign-off's refresh name the request that asked for it.
`RequestIdFilter` puts it on every log record (`request_id`, "-" outside a request); `JsonFormatter` writes one
JSON object per line (`LOG_FORMAT=json`).
"""
from __future__ import annotations

import json
import logging
import re
import uuid
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from celery.signals import before_task_publish, task_postrun, task_prerun
from django.http import HttpRequest, HttpResponse

HEADER = "X-Request-ID"
VALID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
"""What is taken from the proxy as it is; anything else (too long, other characters) is replaced by a new id."""

current: ContextVar[str] = ContextVar("request_id", default="-")


def _tag_sentry(request_id: str) -> None:
    import sentry_sdk

    if sentry_sdk.get_client().is_active():
        sentry_sdk.set_tag("request_id", request_id)


class RequestIdMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        given = request.headers.get(HEADER, "")
        request_id = given if VALID.match(given) else uuid.uuid4().hex
        token = current.set(request_id)
        _tag_sentry(request_id)
        try:
            response = self.get_response(request)
        finally:
            current.reset(token)
        response.headers.setdefault(HEADER, request_id)
        return response


@before_task_publish.connect
def _send_request_id(headers: dict[str, Any] | None = None, **_: Any) -> None:
    if headers is not None and current.get() != "-":
        headers["request_id"] = current.get()


@task_prerun.connect
def _run_under_request_id(task: Any = None, **_: Any) -> None:
    if task is None or task.request.is_eager:  # run inside the request: its id already holds
        return
    request_id = getattr(task.request, "request_id", None)
    if isinstance(request_id, str) and VALID.match(request_id):
        current.set(request_id)
        _tag_sentry(request_id)


@task_postrun.connect
def _forget_request_id(task: Any = None, **_: Any) -> None:
    if task is not None and not task.request.is_eager:
        current.set("-")


class RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = current.get()
        return True


class JsonFormatter(logging.Formatter):
    """time, level, logger, message, request_id (and the traceback, if any) as one JSON object."""

    def format(self, record: logging.LogRecord) -> str:
        line = {"time": self.formatTime(record), "level": record.levelname, "logger": record.name,
                "message": record.getMessage(), "request_id": getattr(record, "request_id", "-")}
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)
