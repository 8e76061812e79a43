"""The public pages' background jobs (`ranking.refresh`): queued once per tournament however many changes come."""
from celery import shared_task

from core.background import has_worker, run_in_background

from . import refresh
from .standings import invalidate_standings


@shared_task
def refresh_task(tournament_id: int) -> None:
    refresh.run_refresh(tournament_id)
    queue_pdf_warming(tournament_id)


@shared_task
def pdf_warming_task(tournament_id: int) -> None:
    refresh.run_pdf_warming(tournament_id)


def refresh_after_change(tournament_id: int) -> None:
    """After a change committed: a new results version, and its pages rendered in the background.

    The tournament is marked queued before its version changes, so that no reader is ever sent to the new
    version before its pages are ready (or before it is known that no job will render them). Without a worker
    the job is not run here: the request that made the change would wait for what a reader would otherwise wait
    for; pages are rendered on demand instead.
    """
    queued = has_worker(refresh_task) and refresh.mark_queued(tournament_id)
    invalidate_standings(tournament_id)
    if queued and not run_in_background(refresh_task, tournament_id, or_here=False):
        refresh.unmark_queued(tournament_id)


def queue_pdf_warming(tournament_id: int) -> None:
    if refresh.mark_queued(tournament_id, "pdfs") and not run_in_background(pdf_warming_task, tournament_id,
                                                                            or_here=False):
        refresh.unmark_queued(tournament_id, "pdfs")
