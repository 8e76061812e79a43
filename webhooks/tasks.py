"""Where a webhook delivery runs: the worker of the outbound queue (the settings' `CELERY_TASK_ROUTES`), or this
process's threads for it without one (`core.background`), so a receiver that is slow holds up only other
deliveries."""
from celery import shared_task

from core.background import run_in_background

from . import delivery


@shared_task
def delivery_task(delivery_id: int) -> None:
    delivery.attempt(delivery_id, delivery_task)


@shared_task
def send_overdue_deliveries() -> int:
    """Celery beat, every few minutes (settings.CELERY_BEAT_SCHEDULE): retries whose process stopped before them."""
    due = delivery.overdue()
    for delivery_id in due:
        run_in_background(delivery_task, delivery_id)
    return len(due)
