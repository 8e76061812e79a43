"""The ratings' background job, queued through the one dispatch helper (`core.background`).

A burst of changes queues one job: the first change marks the job queued (for QUEUED_SECONDS) and queues it; the
others only leave their `RatingRequest`. The job clears the mark before it reads the requests, so a change that
comes while it runs queues the next job. Without a worker the job runs on the web process's own thread, after
the change committed: the ratings are data the pages show, not a cache that may wait.
"""
import logging

from celery import shared_task
from django.core.cache import cache

from core.background import has_worker, run_in_background

from . import services

logger = logging.getLogger(__name__)
QUEUED_KEY = "ratings-update-queued"
QUEUED_SECONDS = 30
"""A mark older than this (its job lost with a worker) no longer holds changes back from queuing a job."""


@shared_task
def update_task() -> None:
    _quietly(lambda: cache.delete(QUEUED_KEY))
    services.run_updates()


def _quietly(call, default=None):
    """A cache call; without the cache every change queues its own job (each finds little to do)."""
    try:
        return call()
    except Exception as error:
        logger.warning("Ratings queue mark unavailable (%r).", error)
        return default


def changed(tournament_id: int) -> None:
    """A tournament's results may have changed (called after the change committed)."""
    services.request_update(tournament_id)
    if has_worker(update_task) and not _quietly(lambda: cache.add(QUEUED_KEY, 1, timeout=QUEUED_SECONDS), True):
        return  # a queued job will take this request too
    run_in_background(update_task)
