"""Print jobs: a whole game's record sheets or table cards laid out as one PDF outside the request.

`start_print_job` records the job (organizers only; a job of the same game and document under way is reused)
and `organize.tasks.dispatch` runs it: on the Celery worker when a broker is configured, else in the request
(Celery's eager mode). Whoever runs it writes its progress to the row after each group of tables, so the page's
polling reads it from any process; a failed job keeps its message and may be run again (`retry_print_job`).
"""
import logging
from datetime import timedelta

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from championships.permissions import require_organizer
from core.pdf import PAPERS, html_for, render_pdf_parts

from .models import PrintJob
from .printing import GAME_TEMPLATES, game_context, game_tables, pages_of

logger = logging.getLogger(__name__)

TABLES_PER_PART = 10
"""Tables laid out at a time: progress is written after each part (a 50-table game reports five times)."""
LAYOUT_SHARE = 0.9
"""Laying out the parts, as a share of a whole job; writing the PDF takes the rest."""
STALLED_AFTER = timedelta(minutes=5)
"""A job not heard of for this long is taken as lost (its process restarted): a new one may start."""


def stalled(job: PrintJob) -> bool:
    return job.active and timezone.now() - job.updated_at > STALLED_AFTER


def start_print_job(game, kind: str, *, user, language: str, paper: str, base_url: str) -> PrintJob:
    """A job for the game's document, or the one already under way for it."""
    require_organizer(user, game.tournament)
    if kind not in PrintJob.Kind.values:
        raise ValidationError(_("Choose record sheets or table cards."))
    if paper not in PAPERS:
        raise ValidationError(_("Choose A4 or US Letter paper."))
    with transaction.atomic():
        running = (PrintJob.objects.select_for_update().filter(game=game, kind=kind, language=language[:16],
                                                              paper=paper, status__in=[PrintJob.Status.QUEUED,
                                                                                       PrintJob.Status.RUNNING])
                   .first())
        if running is not None and not stalled(running):
            return running
        return PrintJob.objects.create(game=game, kind=kind, requested_by=user, language=language[:16], paper=paper,
                                       base_url=base_url[:300])


def retry_print_job(job_id: int, *, user) -> PrintJob:
    """A failed (or lost) job queued again from the start."""
    with transaction.atomic():
        job = PrintJob.objects.select_for_update(of=("self",)).select_related("game__tournament").get(pk=job_id)
        require_organizer(user, job.game.tournament)
        if job.status != PrintJob.Status.FAILED and not stalled(job):
            raise ValidationError(_("Only a failed print job can be run again."))
        job.status, job.done, job.message, job.pdf = PrintJob.Status.QUEUED, 0.0, "", None
        job.started_at = job.finished_at = None
        job.save()
        return job


def _finish(job_id: int, status: str, message: str = "", pdf: bytes | None = None) -> None:
    now = timezone.now()
    changes = {"status": status, "message": message[:500], "finished_at": now, "updated_at": now}
    if status == PrintJob.Status.SUCCEEDED:
        changes.update(done=1.0, pdf=pdf)
    PrintJob.objects.filter(pk=job_id, status=PrintJob.Status.RUNNING).update(**changes)


def fail_to_dispatch(job: PrintJob, message: str) -> None:
    PrintJob.objects.filter(pk=job.pk, status=PrintJob.Status.QUEUED).update(
        status=PrintJob.Status.FAILED, message=message[:500], finished_at=timezone.now())


def layout(job: PrintJob, progress) -> bytes:
    """The job's PDF, laid out a part of TABLES_PER_PART tables at a time."""
    tournament = job.game.tournament
    tables = game_tables(tournament, job.game, job.base_url)
    parts = pages_of(tables, TABLES_PER_PART)
    if not parts:
        raise ValidationError(_("Game %(n)s has no tables.") % {"n": job.game.number})
    html = (html_for(GAME_TEMPLATES[job.kind], game_context(job.kind, tournament, job.game, part)) for part in parts)
    return render_pdf_parts(html, paper=job.paper, progress=lambda n: progress(n / len(parts)))


def run_print_job(job_id: int) -> None:
    """Lay the job's PDF out and store it; a job already taken by another runner is left alone."""
    now = timezone.now()
    if not PrintJob.objects.filter(pk=job_id, status=PrintJob.Status.QUEUED).update(
            status=PrintJob.Status.RUNNING, started_at=now, updated_at=now):
        return
    job = PrintJob.objects.select_related("game__tournament__championship", "game__stage").get(pk=job_id)

    def progress(share: float) -> None:
        PrintJob.objects.filter(pk=job_id, status=PrintJob.Status.RUNNING).update(
            done=LAYOUT_SHARE * min(max(share, 0.0), 1.0), updated_at=timezone.now())

    with translation.override(job.language):
        try:
            require_organizer(job.requested_by, job.game.tournament)
            pdf = layout(job, progress)
        except ValidationError as error:
            _finish(job_id, PrintJob.Status.FAILED, " ".join(error.messages))
        except PermissionDenied:
            _finish(job_id, PrintJob.Status.FAILED, _("You may no longer print for this tournament."))
        except Exception as error:  # noqa: BLE001 - a worker must record any failure, not lose the job silently
            logger.exception("Print job %s failed", job_id)
            _finish(job_id, PrintJob.Status.FAILED,
                    _("The PDF could not be laid out (%(error)s). Run it again; if it fails again, the server's "
                      "log has the details.") % {"error": type(error).__name__})
        else:
            _finish(job_id, PrintJob.Status.SUCCEEDED, pdf=pdf)
