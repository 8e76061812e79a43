"""Penalties, recorded from the referee's tablet."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from championships.permissions import is_organizer, official_tournament

from ..forms import PenaltyForm
from ..penalties import record_penalty


@login_required
def penalties(request, slug: str):
    tournament = official_tournament(request.user, slug)
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
    return render(request, "results/penalties.html", {
        "tournament": tournament, "form": form, "penalties": recorded,
        "is_organizer": is_organizer(request.user, tournament),
    }, status=status)
