"""Where a print job runs: in the request for a game of one part, else in the background (`core.background`: the
Celery worker with Redis, or a thread of the web process without a reachable broker)."""
from celery import shared_task

from core import jobs as core_jobs
from scheduling.models import Table

from . import jobs
from .models import PrintJob

INLINE_MAX_TABLES = jobs.TABLES_PER_PART
"""Games up to this many tables are laid out within the request (one part; measured on 2 busy cores: 0.2-0.3 s,
1.8 s for the first PDF of a process), so the organizer gets the file at once instead of a progress bar that
flashes by."""


@shared_task
def print_job_task(job_id: int) -> None:
    jobs.run_print_job(job_id)


def dispatch(job: PrintJob) -> None:
    """Run the job where it belongs (see the module docstring)."""
    core_jobs.dispatch(job, print_job_task, here=Table.objects.filter(game_id=job.game_id).count() <= INLINE_MAX_TABLES)

