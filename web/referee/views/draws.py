"""Tiebreak draws, recorded from the referee's tablet for the ties the standings still show."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from championships.permissions import is_organizer, official_tournament
from ranking.qualification import open_ties
from ranking.standings import straddles_cutoff, tournament_standings
from results.draws import first_draw_choosers, record_draw
from web.requests import HtmxHttpRequest

from ..forms import DrawForm


@login_required
def draws(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Ties that no computed tiebreaker separates, each with a form to record the draw's order and what it changes
    (a qualification cut-off; the next stage seated by rank: who plays, at which table, who chooses first).

    Each tie names the youngest tied player, who chooses who draws first in a card draw (seed 001 §4).
    """
    tournament = official_tournament(request.user, slug)
    ties = open_ties(tournament, tournament_standings(tournament))
    cutoff = tournament.advance_count
    posted = request.POST.get("rank") if request.method == "POST" else None
    if posted is not None and not any(tie.key == posted for tie in ties):
        messages.warning(request, _("That tie is no longer open (already drawn, or the standings changed); "
                                    "nothing was recorded."))
        return redirect("referee-draws", slug=slug)
    tie_forms = []
    choosers = first_draw_choosers([[row["entry"] for row in tie.rows] for tie in ties])
    for tie, chooser in zip(ties, choosers):
        players = [(row["entry"], row["player"]) for row in tie.rows]
        bound = posted == tie.key
        form = DrawForm(request.POST if bound else None, players=players, prefix=f"tie{tie.key}")
        if bound and form.is_valid():
            try:
                record_draw(tournament, form.cleaned_data["order"], user=request.user,
                            method=form.cleaned_data["method"], note=form.cleaned_data["note"])
            except ValidationError as error:
                form.add_error(None, error.messages)
            else:
                messages.success(request, _("Draw recorded; the standings use it now."))
                return redirect("referee-draws", slug=slug)
        tie_forms.append((tie, form, not tie.preliminary and straddles_cutoff(tie.rows, cutoff), chooser))
    recorded = tournament.tiebreak_draws.prefetch_related("places__entry__player").select_related("recorded_by")
    return render(request, "ranking/draws.html", {
        "tournament": tournament, "tie_forms": tie_forms, "draws": recorded, "cutoff": cutoff,
        "is_organizer": is_organizer(request.user, tournament),
    }, status=422 if posted and request.method == "POST" else 200)
