"""The privacy app's scheduled work (settings.CELERY_BEAT_SCHEDULE)."""
from celery import shared_task

from . import retention


@shared_task
def apply_retention() -> int:
    """Celery beat, daily: tell organizers of players due in a month, erase those due (privacy/retention.py)."""
    outcome = retention.run()
    return outcome.told + outcome.erased
