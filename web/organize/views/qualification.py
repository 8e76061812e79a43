"""Organizer actions that move players on: qualifiers to the finals, replacements, seeded tables."""
from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from championships.models import Stage, Tournament
from championships.permissions import organized_tournament
from ranking import selectors
from ranking.qualification import advance_qualifiers, clear_seeded_stage, replace_finalist, seat_seeded_stage
from web.requests import HtmxHttpRequest


@login_required
def qualification(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = organized_tournament(request.user, slug)
    page = selectors.qualification_page(tournament)
    return render(request, "ranking/qualification.html", {
        "tournament": tournament, "rows": page.rows, "blocking": page.blocking, "advanced": page.advanced,
        "finalists": page.finalists, "finals": page.finals, "places_left": page.places_left})


@login_required
@require_POST
def advance(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    try:
        qualified = advance_qualifiers(tournament.pk, user=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("%(n)d players entered in the finals.") % {"n": len(qualified)})
    return redirect("qualification", slug=slug)


@login_required
@require_POST
def replace(request: HtmxHttpRequest, slug: str, entry_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    entry = get_object_or_404(tournament.entries, pk=entry_id)
    try:
        substitute = replace_finalist(entry.pk, user=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("%(p)s takes the place.") % {"p": substitute.player.name} if substitute
                         else _("Nobody is left in that qualifier to take the place."))
    return redirect("qualification", slug=slug)


def _stage_action(request: HtmxHttpRequest, slug: str, stage_id: int, change: Callable[..., object],
                  done: str) -> HttpResponse:
    """Seat or clear a stage seated by rank, say what happened, and show its seating page."""
    stage = get_object_or_404(Stage, pk=stage_id, tournament__slug=slug)
    try:
        change(stage.pk, user=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, done % {"s": stage.name})
    return redirect("stage-seating", slug=slug, stage_id=stage.pk)


@login_required
@require_POST
def seed_stage(request: HtmxHttpRequest, slug: str, stage_id: int) -> HttpResponse:
    return _stage_action(request, slug, stage_id, seat_seeded_stage, _("%(s)s seated by rank."))


@login_required
@require_POST
def clear_stage(request: HtmxHttpRequest, slug: str, stage_id: int) -> HttpResponse:
    """Clear a planned stage seated by rank (before a correction of the results it came from), to seat it again."""
    return _stage_action(request, slug, stage_id, clear_seeded_stage, _(
        "The seating of %(s)s is cleared: seat it by rank again when the results are right."))
