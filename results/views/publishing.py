"""The organizer publishes a game (its record sheets open), takes it back before any result, or repairs its status."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scheduling.models import Game

from ..publishing import publish_game, reconcile_game_status, unpublish_game


@login_required
@require_POST
def publish(request, slug: str, stage_id: int, game_id: int):
    game = get_object_or_404(Game, pk=game_id, stage_id=stage_id, tournament__slug=slug)
    try:
        game = publish_game(game.pk, user=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("Game %(n)d is published: players can see where they sit.") % {"n": game.number})
    return redirect("stage-seating", slug=slug, stage_id=stage_id)


@login_required
@require_POST
def unpublish(request, slug: str, stage_id: int, game_id: int):
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
def repair_status(request, slug: str, stage_id: int, game_id: int):
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
