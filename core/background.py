"""The one way to start background work (a job's run, an email, a refresh): a Celery task (in an app's `tasks.py`)
queued for the worker.

One policy when there is no worker, whatever the work: without a broker (Celery's eager mode, `REDIS_URL` unset)
there is none, and a broker that cannot be reached has none either. Work someone asked for (a seating plan, a
print job, an email) then runs on this web process's own background threads (`executor`, and `outbound_executor`
for the queue of requests to other servers, as the worker has a queue of its own for them): the request answers at
once and the organizer follows the job's progress page as with a worker, and a slow mail server never holds a
page. Nothing is refused because Redis is down on the day. Work that only spares later requests some time
(warming caches, `or_here=False`) is skipped instead: running it would spend the web process's time on what a
reader would otherwise wait for.

A job whose row is not yet committed is handed over from `transaction.on_commit`, so the thread reads it.

A broker that failed is not asked again for a few seconds (`REDIS_RETRY_SECONDS`, as the cache does): each failed
attempt costs its timeouts, and a sign-off queues several kinds of work, so with Redis down every request would
otherwise wait on each of them in turn (`make chaos`, "Redis stopped").

Work may be asked for later (`countdown`, a retry's backoff): the worker holds it until then (Celery's countdown);
without one, a timer of this process hands it to the threads when it is due (lost if the process stops first, so
a kind that must not lose it keeps its due time on its row and sweeps for overdue work, as webhook deliveries do).
"""
from __future__ import annotations

import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import connection
from kombu.exceptions import OperationalError

from .cache import Breaker

if TYPE_CHECKING:
    from celery import Task

logger = logging.getLogger(__name__)

OUTBOUND_QUEUE = "outbound"
"""The queue of the work that waits on other people's servers (webhook deliveries, Web Push): the settings' task
routes (`CELERY_TASK_ROUTES`) send a task there, and a worker of its own serves it (docker-compose.yml,
docs/operations.md), so receivers that answer slowly hold only each other up, never a seating plan, an email or a
refresh."""

executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="background")
"""The embedded worker: two threads per web process (a seating search is CPU-bound), so one slow email does not
hold a seating plan back; more work waits its turn."""
outbound_executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="background-outbound")
"""The embedded worker's threads for `OUTBOUND_QUEUE`, as the worker of its own: each request out is bounded by
the outbound guard's deadline, and while they wait the other work has its own threads."""


broker = Breaker(settings.REDIS_RETRY_SECONDS)
"""Open for a few seconds after the broker failed: work then goes straight to the threads (or is skipped)."""


def has_worker(task: Task[..., Any]) -> bool:
    """Whether queued tasks go to a worker (a broker is configured) rather than running eagerly."""
    return not task.app.conf.task_always_eager


def run_on_thread(task: Task[..., Any], *args: object) -> None:
    """What a background thread runs: the task, then its own database connection closed (the thread outlives
    the request). A failure is logged, never lost silently."""
    try:
        task(*args)
    except Exception:  # nobody waits on this thread's result: the log is where a failure is seen
        logger.exception("Background task %s failed", task.name)
    finally:
        if not connection.in_atomic_block:  # only a caller's own transaction (a test's) keeps it open
            connection.close()


def queue_of(task: Task[..., Any]) -> str:
    """The queue the settings' routes send `task` to (Celery's default queue when none names it)."""
    route = (task.app.conf.task_routes or {}).get(task.name, {})
    return str(route.get("queue", task.app.conf.task_default_queue))


def submit(task: Task[..., Any], *args: object) -> None:
    """Hand `task(*args)` to the threads of its queue; while the interpreter exits (a management command whose
    last thread queues more work, e.g. the emails of a notice), run it on this thread instead of losing it."""
    threads = outbound_executor if queue_of(task) == OUTBOUND_QUEUE else executor
    try:
        threads.submit(run_on_thread, task, *args)
    except RuntimeError:  # "cannot schedule new futures after interpreter shutdown"
        run_on_thread(task, *args)


def run_later(seconds: float, task: Task[..., Any], *args: object) -> None:
    """Without a worker: hand `task(*args)` to the threads once `seconds` have passed (a daemon timer: it never
    holds the process open)."""
    timer = threading.Timer(seconds, lambda: submit(task, *args))
    timer.daemon = True
    timer.start()


def run_in_background(task: Task[..., Any], *args: object, or_here: bool = True, countdown: float = 0) -> bool:
    """Queue `task(*args)` for the worker, to run `countdown` seconds from now (at once by default); without one,
    run it on a thread of this process (`or_here`) or skip it. True when it was queued or handed to a thread,
    False when it was skipped."""
    if has_worker(task) and not broker.is_open():
        try:
            if countdown > 0:
                task.apply_async(args, countdown=countdown)
            else:
                task.delay(*args)
            return True
        except OperationalError as error:
            broker.trip()
            logger.warning("Could not queue %s (%r); %s.", task.name, error,
                           "running it on a thread here" if or_here else "skipped")
    if or_here:
        if countdown > 0:
            run_later(countdown, task, *args)
        else:
            submit(task, *args)
    return or_here
