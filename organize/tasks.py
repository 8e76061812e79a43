"""Where a print job runs: on the Celery worker when a broker is configured, else within the request."""
from celery import shared_task

from core.background import run_in_background

from . import notices, print_jobs
from .models import PrintJob


@shared_task
def print_job_task(job_id: int) -> None:
    print_jobs.run_print_job(job_id)


def dispatch(job: PrintJob) -> None:
    """Hand the job to the worker; without a broker (eager mode) or when it cannot be reached, run it here,
    so a page keeps working with Redis down and nothing is lost."""
    run_in_background(print_job_task, job.pk)


@shared_task
def send_start_time_notices() -> int:
    """Celery beat, every quarter of an hour (settings.CELERY_BEAT_SCHEDULE)."""
    return notices.send_start_time_notices()
