"""Penalties and tiebreak draws, recorded from the referee's tablet."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from championships.models import Tournament
from championships.permissions import is_organizer, require_official

from ..draws import record_draw
from ..forms import DrawForm, PenaltyForm
from ..penalties import record_penalty
from ..standings import straddles, tied_groups, tournament_standings


def _tournament(request, slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament, slug=slug)
    require_official(request.user, tournament)
    return tournament


@login_required
def penalties(request, slug: str):
    tournament = _tournament(request, slug)
    form = PenaltyForm(request.POST or None, tournament=tournament)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                record_penalty(data["entry"].pk, user=request.user, kind=data["kind"], reason=data["reason"],
                               vp=data["vp"], game=data["game"], request_key=data["request_key"])
            except ValidationError as error:
                for field, problems in error.message_dict.items():
                    form.add_error(field if field in form.fields else None, problems)
            else:
                messages.success(request, _("Penalty recorded for %(player)s.") % {"player": data["entry"].player.name})
                return redirect("referee-penalties", slug=slug)
        status = 422
    recorded = tournament.penalties.select_related("entry__player", "game", "recorded_by").order_by("-recorded_at")
    return render(request, "ranking/penalties.html", {
        "tournament": tournament, "form": form, "penalties": recorded,
        "is_organizer": is_organizer(request.user, tournament),
    }, status=status)


@login_required
def draws(request, slug: str):
    """Ties that no computed tiebreaker separates, each with a form to record the draw's order."""
    tournament = _tournament(request, slug)
    rows = tournament_standings(tournament)
    groups = tied_groups(rows)
    cutoff = tournament.advance_count
    posted_rank = request.POST.get("rank") if request.method == "POST" else None
    if posted_rank is not None and not any(str(group[0]["rank"]) == posted_rank for group in groups):
        messages.warning(request, _("That tie is no longer open (already drawn, or the standings changed); "
                                    "nothing was recorded."))
        return redirect("referee-draws", slug=slug)
    tie_forms = []
    for group in groups:
        players = [(row["entry"], row["player"]) for row in group]
        bound = posted_rank == str(group[0]["rank"])
        form = DrawForm(request.POST if bound else None, players=players, prefix=f"tie{group[0]['rank']}")
        if bound and form.is_valid():
            try:
                record_draw(tournament, form.cleaned_data["order"], user=request.user,
                            method=form.cleaned_data["method"], note=form.cleaned_data["note"])
            except ValidationError as error:
                form.add_error(None, error.messages)
            else:
                messages.success(request, _("Draw recorded; the standings use it now."))
                return redirect("referee-draws", slug=slug)
        tie_forms.append((group, form, straddles(group, cutoff)))
    recorded = tournament.tiebreak_draws.prefetch_related("places__entry__player").select_related("recorded_by")
    return render(request, "ranking/draws.html", {
        "tournament": tournament, "tie_forms": tie_forms, "draws": recorded, "cutoff": cutoff,
        "is_organizer": is_organizer(request.user, tournament),
    }, status=422 if posted_rank and request.method == "POST" else 200)
