"""Print jobs: a whole game's record sheets or table cards laid out as one PDF outside the request.

`start_print_job` records the job (organizers only; a job of the same game and document under way is reused)
and `printing.tasks.dispatch` runs it (`core.jobs`, like every background job: claim, progress after each group
of tables, stall, finish). A failed job keeps its message and may be run again (`retry_print_job`).
"""
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from championships.permissions import require_organizer
from core import jobs as core_jobs
from core.pdf import PAPERS, html_for, render_pdf_parts

from .documents import GAME_TEMPLATES, game_context, game_tables, pages_of
from .models import PrintJob

TABLES_PER_PART = 10
"""Tables laid out at a time: progress is written after each part (a 50-table game reports five times)."""
LAYOUT_SHARE = 0.9
"""Laying out the parts, as a share of a whole job; writing the PDF takes the rest."""


def start_print_job(game, kind: str, *, user, language: str, paper: str) -> PrintJob:
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
        if running is not None and not running.stalled():
            return running
        return PrintJob.objects.create(game=game, kind=kind, requested_by=user, language=language[:16], paper=paper)


def retry_print_job(job_id: int, *, user) -> PrintJob:
    """A failed (or lost) job queued again from the start."""
    with transaction.atomic():
        job = PrintJob.objects.select_for_update(of=("self",)).select_related("game__tournament").get(pk=job_id)
        require_organizer(user, job.game.tournament)
        if job.status != PrintJob.Status.FAILED and not job.stalled():
            raise ValidationError(_("Only a failed print job can be run again."))
        job.status, job.done, job.message, job.pdf = PrintJob.Status.QUEUED, 0.0, "", None
        job.started_at = job.finished_at = None
        job.save()
        return job


def layout(job: PrintJob, progress) -> bytes:
    """The job's PDF, laid out a part of TABLES_PER_PART tables at a time."""
    tournament = job.game.tournament
    tables = game_tables(tournament, job.game)
    parts = pages_of(tables, TABLES_PER_PART)
    if not parts:
        raise ValidationError(_("Game %(n)s has no tables.") % {"n": job.game.number})
    html = (html_for(GAME_TEMPLATES[job.kind], game_context(job.kind, tournament, job.game, part)) for part in parts)
    return render_pdf_parts(html, paper=job.paper, progress=lambda n: progress(n / len(parts)))


def run_print_job(job_id: int) -> None:
    """Lay the job's PDF out and store it; a job already taken by another runner is left alone."""
    progress = core_jobs.progress_writer(PrintJob, job_id, scale=LAYOUT_SHARE)

    def lay_out(job: PrintJob) -> tuple[str, dict]:
        require_organizer(job.requested_by, job.game.tournament)
        return "", {"pdf": layout(job, progress)}

    core_jobs.run(PrintJob, job_id, lay_out, related=("game__tournament__championship", "game__stage"),
                  denied=gettext_lazy("You may no longer print for this tournament."),
                  unexpected=lambda error: _("The PDF could not be laid out (%(error)s). Run it again; if it fails "
                                             "again, the server's log has the details.")
                  % {"error": type(error).__name__})
