"""The organizer publishes a game (its record sheets open), takes it back before any result, or repairs its status."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from championships.permissions import require_organizer
from results.publishing import publish_game, reconcile_game_status, unpublish_game
from results.selectors import tables_missing_results
from scheduling.models import Game
from web.requests import HtmxHttpRequest


@login_required
@require_POST
def publish(request: HtmxHttpRequest, slug: str, stage_id: int, game_id: int) -> HttpResponse:
    """Publish; while tables of earlier games still miss results, first ask the organizer to confirm."""
    game = get_object_or_404(Game.objects.select_related("tournament", "stage"), pk=game_id, stage_id=stage_id,
                             tournament__slug=slug)
    require_organizer(request.user, game.tournament)
    missing = tables_missing_results(game.tournament, before=game.number)
    if missing and game.status == Game.Status.PLANNED and request.POST.get("confirm_missing") != "1":
        return render(request, "results/publish_confirm.html",
                      {"tournament": game.tournament, "game": game, "missing": missing})
    try:
        game = publish_game(game.pk, user=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        link = format_html('<a href="{}">{}</a>', reverse("public-game", args=[slug, game.number]),
                           _("the game's public page"))
        messages.success(request, format_html(
            _("Game {n} is published: players can see where they sit on {link}."), n=game.number, link=link))
    return redirect("stage-seating", slug=slug, stage_id=stage_id)


@login_required
@require_POST
def unpublish(request: HtmxHttpRequest, slug: str, stage_id: int, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id, stage_id=stage_id, tournament__slug=slug)
    try:
        unpublish_game(game.pk, user=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("Game %(n)d is planned again: re-plan it, then publish it.") % {"n": game.number})
    return redirect("stage-seating", slug=slug, stage_id=stage_id)


@login_required
@require_POST
def repair_status(request: HtmxHttpRequest, slug: str, stage_id: int, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id, stage_id=stage_id, tournament__slug=slug)
    before = game.status
    try:
        game = reconcile_game_status(game.pk, user=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        if game.status == before:
            messages.info(request, _("Game %(n)d already agrees with its record sheets: nothing was changed.")
                          % {"n": game.number})
        else:
            messages.success(request, _("Game %(n)d is now %(status)s, as its record sheets say.")
                             % {"n": game.number, "status": game.get_status_display()})
    return redirect("stage-seating", slug=slug, stage_id=stage_id)
