"""Where a planning job runs: in the request when the stage is small, else in the background (`core.background`:
the Celery worker with Redis, or a thread of the web process without a reachable broker)."""
from celery import shared_task
from celery.exceptions import WorkerLostError
from celery.signals import task_failure
from django.db import connection

from core import jobs as core_jobs

from . import jobs
from .models import PlanningJob

INLINE_MAX_PLAYERS = 256
"""Stages up to this many players are planned within the request: the engine needs about 0.1 s for
256 players × 4 games on a 2-core machine (0.3 s for 512), so the organizer gets the result at once
instead of a progress bar that flashes by, with a wide margin below the 10-s limit on slower hardware."""


@shared_task
def generate_seating_task(job_id: int) -> None:
    jobs.run_job(job_id)


@task_failure.connect
def fail_job_lost_with_its_worker(sender=None, exception=None, args=None, kwargs=None, **_signal):
    """Celery's main process reports a pool process that died mid-task (SIGKILL, out of memory): its job fails
    at once with a message instead of showing progress until it is taken as stalled (`make chaos`)."""
    if getattr(sender, "name", None) != generate_seating_task.name or not isinstance(exception, WorkerLostError):
        return
    job_id = args[0] if args else (kwargs or {}).get("job_id")
    if job_id is None:
        return
    jobs.fail_lost(job_id)
    if not connection.in_atomic_block:
        connection.close()  # the main process's own connection: its forked pool processes must not share it


def dispatch(job: PlanningJob) -> None:
    """Run the job where it belongs (see the module docstring)."""
    core_jobs.dispatch(job, generate_seating_task, here=job.players <= INLINE_MAX_PLAYERS)
