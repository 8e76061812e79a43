"""Background jobs of the results app."""
from celery import shared_task

from . import notices


@shared_task
def send_seating_notices(game_id: int) -> int:
    """After a game's seating is published: each seated player's email (results/notices.py)."""
    return notices.send_seating_notices(game_id)


@shared_task
def send_seating_pushes(game_id: int) -> int:
    """After a game's seating is published, where Web Push is configured: each subscribed phone of its players (on
    the outbound queue, `CELERY_TASK_ROUTES`: it waits on push services)."""
    return notices.send_seating_pushes(game_id)
