"""The one way to start a background job: a Celery task (in an app's `tasks.py`) queued for the worker.

Without a broker (Celery's eager mode: `REDIS_URL` unset) there is no worker, and a broker that cannot be
reached has none either. What then depends on the job: work someone asked for (a print job) runs here and
now, in the request; work that only spares later requests some time (warming caches) is not done at all, since
running it here would make the request that triggered it wait for what a reader would otherwise wait for.
"""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from kombu.exceptions import OperationalError

if TYPE_CHECKING:
    from celery import Task

logger = logging.getLogger(__name__)


def has_worker(task: Task[..., Any]) -> bool:
    """Whether queued tasks go to a worker (a broker is configured) rather than running eagerly."""
    return not task.app.conf.task_always_eager


def run_in_background(task: Task[..., Any], *args: object, or_here: bool = True) -> bool:
    """Queue `task(*args)` for the worker; without one, run it here (`or_here`) or skip it. True when it was queued
    or ran, False when it was skipped."""
    if has_worker(task):
        try:
            task.delay(*args)
            return True
        except OperationalError as error:
            logger.warning("Could not queue %s%r (%r); %s.", task.name, args, error,
                           "running it here" if or_here else "skipped")
    if or_here:
        task(*args)
    return or_here
