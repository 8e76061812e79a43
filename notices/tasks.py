"""Celery beat's email jobs."""
from celery import shared_task

from . import start_time


@shared_task
def send_start_time_notices() -> int:
    """Celery beat, every quarter of an hour (settings.CELERY_BEAT_SCHEDULE)."""
    return start_time.send_start_time_notices()
