"""The organizer's seating screens: generate a stage's games, follow the progress, read the report, swap."""
from celery.result import AsyncResult
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from kombu.exceptions import OperationalError

from championships.models import Stage
from championships.permissions import organized_tournament, require_organizer

from . import selectors, services
from .forms import GenerateForm, SwapForm
from .models import Game
from .tasks import generate_seating_task


def _stage(request, slug: str, stage_id: int) -> Stage:
    stage = get_object_or_404(Stage.objects.select_related("tournament"), pk=stage_id, tournament__slug=slug)
    require_organizer(request.user, stage.tournament)
    return stage


@login_required
def seating_overview(request, slug: str):
    tournament = organized_tournament(request.user, slug)
    return render(request, "scheduling/overview.html",
                  {"tournament": tournament, "stages": selectors.stages_overview(tournament)})


@login_required
def stage_seating(request, slug: str, stage_id: int):
    stage = _stage(request, slug, stage_id)
    page = selectors.stage_page(stage)
    games = [(view, SwapForm(game_id=view.game.pk, players=view.players, layout=view.layout) if view.layout else None)
             for view in page.games]
    return render(request, "scheduling/stage.html", {
        "tournament": stage.tournament, "stage": stage, "page": page, "games": games,
        "generate_form": GenerateForm(), "task_id": request.GET.get("task", "")[:64],
    })


@login_required
@require_POST
def generate(request, slug: str, stage_id: int):
    stage = _stage(request, slug, stage_id)
    form = GenerateForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("The seed must be a whole number."))
        return redirect("stage-seating", slug=slug, stage_id=stage.pk)
    try:
        task = generate_seating_task.delay(stage.pk, form.cleaned_data["seed"], request.user.pk, request.LANGUAGE_CODE)
    except ValidationError as error:  # raised here when the task ran in-process
        messages.error(request, " ".join(error.messages))
        return redirect("stage-seating", slug=slug, stage_id=stage.pk)
    except OperationalError:  # the broker is down or frozen: the settings make this fail within seconds
        messages.error(request, _("The background worker cannot be reached, so the seating was not planned. "
                                  "Try again in a minute."))
        return redirect("stage-seating", slug=slug, stage_id=stage.pk)
    if not task.ready():
        cache.set(_task_key(task.id), stage.pk, timeout=3600)
        return redirect(f"{reverse('stage-seating', args=[slug, stage.pk])}?task={task.id}")
    messages.success(request, task.get()["message"])
    return redirect("stage-seating", slug=slug, stage_id=stage.pk)


def _task_key(task_id: str) -> str:
    return f"seating-task:{task_id}"


@login_required
def task_progress(request, slug: str, stage_id: int, task_id: str):
    """Polled by the page while a large seating is planned in the background."""
    stage = _stage(request, slug, stage_id)
    if cache.get(_task_key(task_id)) != stage.pk:
        raise Http404("No seating is being planned for this stage under that task.")
    result = AsyncResult(task_id)
    if result.successful():
        messages.success(request, result.result["message"])
        response = HttpResponse(status=204)
        response["HX-Redirect"] = reverse("stage-seating", args=[slug, stage.pk])
        return response
    if result.failed():
        error = result.result
        return render(request, "scheduling/_progress.html",
                      {"failed": True, "error": " ".join(getattr(error, "messages", [str(error)]))})
    info = result.info if isinstance(result.info, dict) else {}
    return render(request, "scheduling/_progress.html", {
        "stage": stage, "tournament": stage.tournament, "task_id": task_id,
        "done": round(100 * info.get("done", 0)), "state": result.state,
    })


@login_required
@require_POST
def swap(request, slug: str, stage_id: int, game_id: int):
    stage = _stage(request, slug, stage_id)
    game = get_object_or_404(Game, pk=game_id, stage=stage)
    form = SwapForm(request.POST, game_id=game.pk, players=selectors.seated_players(game))
    if form.is_valid():
        try:
            services.swap_seats(game.pk, form.cleaned_data["first"], form.cleaned_data["second"], user=request.user,
                                layout=form.cleaned_data["layout"])
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, _("Seats swapped in game %(n)d; the report below is updated.")
                             % {"n": game.number})
    else:
        messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
    return redirect("stage-seating", slug=slug, stage_id=stage.pk)
