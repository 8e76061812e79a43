"""The board and the map-study clock of a published game, changed from the referee's desk."""
from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from championships.permissions import official_tournament, organized_tournament
from scheduling.boards import change_board
from scheduling.clocks import change_clock, set_timed_turns
from scheduling.models import Game, Table
from web.requests import HtmxHttpRequest

from ..forms import BoardForm, TimedTurnsForm


def _change_and_back(request: HtmxHttpRequest, slug: str, game: Game, change: Callable[[], object]) -> HttpResponse:
    """Run `change()` (a service that announces it: the public screens hear of it at their next poll); a refusal is
    shown on the desk."""
    try:
        change()
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return redirect(reverse("referee-desk", kwargs={"slug": slug}) + f"?game={game.number}")


@login_required
@require_POST
def clock(request: HtmxHttpRequest, slug: str, game_id: int) -> HttpResponse:
    """Start, pause, resume, reset or end early; every public screen picks the change up at its next poll."""
    tournament = official_tournament(request.user, slug)
    game = get_object_or_404(Game, pk=game_id, tournament=tournament)
    return _change_and_back(request, slug, game,
                            lambda: change_clock(game.pk, request.POST.get("action", ""), user=request.user))


@login_required
@require_POST
def board(request: HtmxHttpRequest, slug: str, game_id: int) -> HttpResponse:
    """A new random board for the game, or the board of a typed code."""
    tournament = organized_tournament(request.user, slug)
    game = get_object_or_404(Game, pk=game_id, tournament=tournament)
    form = BoardForm(request.POST)

    def new_board() -> None:
        if not form.is_valid():
            raise ValidationError(form.errors["code"].as_data())
        change_board(game.pk, code=form.cleaned_data["code"], user=request.user)
        messages.success(request, _("Game %(n)d has a new board; its code and picture are on the desk and the "
                                    "game's public page.") % {"n": game.number})

    return _change_and_back(request, slug, game, new_board)


@login_required
@require_POST
def timed_turns(request: HtmxHttpRequest, slug: str, table_id: int) -> HttpResponse:
    """Impose timed turns on the table (with their lengths), change them or lift them, from the tablet's sheet page."""
    tournament = official_tournament(request.user, slug)
    table = get_object_or_404(Table, pk=table_id, game__tournament=tournament)
    form = TimedTurnsForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(str(m) for errors in form.errors.values() for m in errors))
        return redirect("referee-sheet", slug=slug, table_id=table.pk)
    data = form.cleaned_data
    try:
        set_timed_turns(table.pk, data["turns"] == "on", user=request.user, seconds=data["seconds"],
                        placement_seconds=data["placement_seconds"])
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return redirect("referee-sheet", slug=slug, table_id=table.pk)
