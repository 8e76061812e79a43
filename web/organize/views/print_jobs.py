"""A game's record sheets or table cards as one PDF laid out in the background: start, progress, download, retry."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from championships.permissions import organized_tournament
from core.jobs import progress_of
from core.pdf import pdf_response
from printing import jobs, tasks
from printing.documents import game_of, printable_games
from printing.models import PrintJob
from web.organize.print_forms import PrintJobForm
from web.requests import HtmxHttpRequest


def _job(request: HtmxHttpRequest, slug: str, job_id: int) -> PrintJob:
    tournament = organized_tournament(request.user, slug)
    return get_object_or_404(PrintJob.objects.select_related("game"), pk=job_id, game__tournament=tournament)


@login_required
@require_POST
def start(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = organized_tournament(request.user, slug)
    back = reverse("organize-tournament", args=[slug]) + "#print"
    form = PrintJobForm(request.POST, games=printable_games(tournament))
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
        return redirect(back)
    try:
        job = jobs.start_print_job(game_of(tournament, form.cleaned_data["game"]), form.cleaned_data["kind"],
                                         user=request.user, language=request.LANGUAGE_CODE,
                                         paper=form.cleaned_data["paper"])
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect(back)
    if job.status == PrintJob.Status.QUEUED:
        tasks.dispatch(job)
    return redirect("print-job", slug=slug, job_id=job.pk)


@login_required
@require_GET
def progress(request: HtmxHttpRequest, slug: str, job_id: int) -> HttpResponse:
    """The job's page; htmx polls it for the progress bar until the file is ready or the job failed."""
    job = _job(request, slug, job_id)
    context = {"tournament": job.game.tournament, "progress": progress_of(job)}
    if request.htmx:
        return render(request, "organize/_print_job.html", context)
    return render(request, "organize/print_job.html", {**context, "is_organizer": True})


@login_required
@require_GET
def download(request: HtmxHttpRequest, slug: str, job_id: int) -> HttpResponse:
    job = _job(request, slug, job_id)
    if job.status != PrintJob.Status.SUCCEEDED or job.pdf is None:
        raise Http404("The file is not ready.")
    return pdf_response(bytes(job.pdf), f"{slug}-game-{job.game.number}-{job.kind.replace('_', '-')}.pdf")


@login_required
@require_POST
def retry(request: HtmxHttpRequest, slug: str, job_id: int) -> HttpResponse:
    job = _job(request, slug, job_id)
    try:
        job = jobs.retry_print_job(job.pk, user=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        tasks.dispatch(job)
    return redirect("print-job", slug=slug, job_id=job.pk)
