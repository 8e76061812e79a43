"""The organizer's seating screens: generate a stage's games, follow the progress, read the report, swap."""
from typing import TypeVar

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from championships.models import Stage
from championships.permissions import organized_tournament, require_organizer
from core.table_export import table_response
from ranking.qualification import final_replacements
from results.publishing import play_order_choice
from scheduling import jobs, selectors, services, tasks
from scheduling.models import Game, PlanningJob
from web.organize.seating_forms import GenerateForm, SwapForm
from web.requests import HtmxHttpRequest


def _stage(request: HtmxHttpRequest, slug: str, stage_id: int) -> Stage:
    stage = get_object_or_404(Stage.objects.select_related("tournament"), pk=stage_id, tournament__slug=slug)
    require_organizer(request.user, stage.tournament)
    return stage


@login_required
def seating_overview(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = organized_tournament(request.user, slug)
    return render(request, "scheduling/overview.html",
                  {"tournament": tournament, "stages": selectors.stages_overview(tournament)})


T = TypeVar("T", int, None)


def _int(value: str, default: T) -> int | T:
    return int(value) if value.isascii() and value.isdigit() and len(value) < 10 else default


@login_required
def stage_seating(request: HtmxHttpRequest, slug: str, stage_id: int) -> HttpResponse:
    stage = _stage(request, slug, stage_id)
    query = request.GET.get("q", "")[:100]
    page = selectors.stage_page(stage, game_number=_int(request.GET.get("game", ""), None),
                                table_page=_int(request.GET.get("page", ""), 1), query=query)
    job = jobs.latest_job(stage)
    return render(request, "scheduling/stage.html", {
        "tournament": stage.tournament, "stage": stage, "page": page,
        "shown": [(view, SwapForm(layout=view.layout, auto_id=f"game{view.game.pk}-%s") if view.layout else None)
                  for view in page.shown],
        "generate_form": GenerateForm(initial={"seed": job.seed} if job else None),
        "job": jobs.progress_of(job) if job and job.status != PlanningJob.Status.SUCCEEDED else None,
        "order_choice": play_order_choice(stage.tournament),
        "replacements": final_replacements(stage),
    })


@login_required
def stage_seating_csv(request: HtmxHttpRequest, slug: str, stage_id: int, fmt: str = "csv") -> HttpResponse:
    """The stage's seating (or one game's, with ?game=N) for a spreadsheet or the hall's own printing."""
    stage = _stage(request, slug, stage_id)
    number = _int(request.GET.get("game", ""), None)
    name = f"{stage.tournament.slug}-{stage.pk}-game-{number}" if number else f"{stage.tournament.slug}-{stage.pk}"
    return table_response(fmt, f"{name}-seating", ["game", "table", "position", "player", "country"],
                        selectors.seating_rows(stage, number).iterator(chunk_size=2000))


@login_required
@require_POST
def generate(request: HtmxHttpRequest, slug: str, stage_id: int) -> HttpResponse:
    """Start planning: small stages are planned before the answer, larger ones in the background while the
    page polls the job's progress (never a request held for the search)."""
    stage = _stage(request, slug, stage_id)
    back = reverse("stage-seating", args=[slug, stage.pk])
    form = GenerateForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("The seed must be a whole number."))
        return redirect(back)
    try:
        job = jobs.start_planning(stage.pk, user=request.user, seed=form.cleaned_data["seed"],
                                  language=request.LANGUAGE_CODE)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect(back)
    tasks.dispatch(job)
    job.refresh_from_db()
    if job.status == PlanningJob.Status.SUCCEEDED:
        messages.success(request, job.message)
    elif job.status == PlanningJob.Status.FAILED:
        messages.error(request, job.message)
    else:
        return redirect(f"{back}?task={job.pk}")
    return redirect(back)


@login_required
def task_progress(request: HtmxHttpRequest, slug: str, stage_id: int, task_id: str) -> HttpResponse:
    """Polled by the page while a stage is planned in the background: how far, and when it will be done."""
    stage = _stage(request, slug, stage_id)
    job = get_object_or_404(PlanningJob, pk=_int(task_id, 0), stage=stage)
    back = reverse("stage-seating", args=[slug, stage.pk])
    if job.status == PlanningJob.Status.SUCCEEDED:
        messages.success(request, job.message)
        if not request.htmx:
            return redirect(back)
        response = HttpResponse(status=204)
        response["HX-Redirect"] = back
        return response
    if not request.htmx:  # without JavaScript the page itself shows the progress
        return redirect(back)
    return render(request, "scheduling/_progress.html",
                  {"tournament": stage.tournament, "stage": stage, "progress": jobs.progress_of(job)})


@login_required
@require_POST
def swap(request: HtmxHttpRequest, slug: str, stage_id: int, game_id: int) -> HttpResponse:
    """Swap the players of two seats the organizer picked (ticked, or typed as table.position)."""
    stage = _stage(request, slug, stage_id)
    game = get_object_or_404(Game, pk=game_id, stage=stage)
    form = SwapForm(request.POST)
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}) or not back.startswith("/"):
        back = reverse("stage-seating", args=[slug, stage.pk])
    if form.is_valid():
        first, second = form.cleaned_data["seats"]
        try:
            services.swap_seats_at(game.pk, first, second, user=request.user, layout=form.cleaned_data["layout"])
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, _("Seats %(a)s and %(b)s swapped in game %(n)d; the report below is updated.")
                             % {"a": "{}.{}".format(*first), "b": "{}.{}".format(*second), "n": game.number})
    else:
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
    return redirect(back)
