"""Penalties, recorded from the referee's tablet; and the decision on a player warned for collusion again."""
from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from championships.models import Entry
from championships.permissions import is_organizer, official_tournament, organized_tournament
from results.models import Penalty
from results.penalties import ReusedRequestKey, record_lateness, record_penalty, rule_on_collusion, withdraw_penalty
from results.selectors import pending_collusion_rulings, recorded_penalties, seeded_games_to_seat_again
from web.forms import add_service_errors
from web.requests import HtmxHttpRequest

from ..forms import CollusionRulingForm, PenaltyForm


def _record(request: HtmxHttpRequest, form: PenaltyForm) -> bool:
    """Call the service for the form's kind and say what it did; False when it refused."""
    data = form.cleaned_data
    entry = data["entry"]
    try:
        if data["kind"] == Penalty.Kind.LATENESS:
            done = record_lateness(entry.pk, data["minutes"], user=request.user, game=data["game"],
                                   reason=data["reason"], request_key=data["request_key"])
        else:
            penalty = record_penalty(entry.pk, user=request.user, kind=data["kind"], reason=data["reason"],
                                     vp=data["vp"], game=data["game"], ground=data["ground"],
                                     deduction=data["deduction"],
                                     partner_id=data["partner"].pk if data["partner"] else None,
                                     request_key=data["request_key"])
    except ReusedRequestKey as error:
        form.add_error(None, error.messages)
        form.with_new_request_key()
        return False
    except ValidationError as error:
        add_service_errors(form, error)
        return False
    name = entry.player.name
    if data["kind"] == Penalty.Kind.LATENESS:
        rule = {"player": name, "minutes": done.minutes, "admitted": form.lateness.admitted_minutes,  # type: ignore[union-attr]
                "vp": form.lateness.vp}  # type: ignore[union-attr]  # a lateness is offered only with a rule
        if done.not_admitted:
            messages.warning(request, _("%(player)s arrived %(minutes)d minutes late, more than %(admitted)d: not "
                                        "admitted.") % rule)
        elif done.penalty is None:
            messages.info(request, _("%(player)s was on time: nothing was recorded.") % {"player": name})
        else:
            messages.success(request, _("Late arrival recorded for %(player)s: %(minutes)d minutes, %(vp)d VP off.")
                             % rule)
    elif penalty.kind == Penalty.Kind.COLLUSION:
        messages.success(request, _("Collusion warning recorded for %(first)s and %(second)s.")
                         % {"first": name, "second": data["partner"].player.name})
    else:
        messages.success(request, _("Penalty recorded for %(player)s.") % {"player": name})
    if data["kind"] == Penalty.Kind.DISQUALIFICATION:
        _seat_again(request, entry)
    return True


def _seat_again(request: HtmxHttpRequest, entry: Entry) -> None:
    """Say which games seated by rank must be seated again without the disqualified player (as for a withdrawal)."""
    for game in seeded_games_to_seat_again(entry):
        values = {"player": entry.player.name, "stage": game.stage.name, "n": game.number}
        if game.status == game.Status.PLANNED:
            messages.warning(request, _("%(player)s is still seated in %(stage)s (game %(n)d): an organizer seats it "
                                        "again by rank, and the next in line takes the place.") % values)
        else:
            messages.warning(request, _("%(player)s is seated in %(stage)s (game %(n)d), already published: an "
                                        "organizer takes it back and seats it again by rank, and the next in line "
                                        "takes the place.") % values)


@login_required
def penalties(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = official_tournament(request.user, slug)
    pending = pending_collusion_rulings(tournament)
    ruling_id = request.POST.get("ruling") if request.method == "POST" else None
    form = PenaltyForm(request.POST if request.method == "POST" and ruling_id is None else None,
                       tournament=tournament)
    status = 200
    rulings = []
    for item in pending:
        bound = ruling_id == str(item.warning.pk)
        ruling_form = CollusionRulingForm(request.POST if bound else None, prefix=f"ruling{item.warning.pk}")
        if bound:
            if ruling_form.is_valid():
                try:
                    rule_on_collusion(item.warning.pk, user=request.user, **ruling_form.cleaned_data)
                except ValidationError as error:
                    add_service_errors(ruling_form, error)
                else:
                    messages.success(request, _("Decision recorded for %(player)s.")
                                     % {"player": item.warning.entry.player.name})
                    if ruling_form.cleaned_data["disqualify"]:
                        _seat_again(request, item.warning.entry)
                    return redirect("referee-penalties", slug=slug)
            status = 422
        rulings.append((item, ruling_form))
    if ruling_id is not None and status == 200:
        messages.warning(request, _("That decision is no longer open (already taken, or the player was "
                                    "disqualified meanwhile); nothing was recorded."))
        return redirect("referee-penalties", slug=slug)
    if form.is_bound:
        if form.is_valid() and _record(request, form):
            return redirect("referee-penalties", slug=slug)
        status = 422
    return render(request, "referee/penalties.html", {
        "tournament": tournament, "form": form, "penalties": recorded_penalties(tournament), "rulings": rulings,
        "is_organizer": is_organizer(request.user, tournament),
    }, status=status)


@login_required
@require_POST
def withdraw(request: HtmxHttpRequest, slug: str, penalty_id: int) -> HttpResponse:
    """An organizer withdraws a mistaken penalty with a reason; it stays listed, struck through."""
    tournament = organized_tournament(request.user, slug)
    penalty = get_object_or_404(Penalty.objects.select_related("entry__player"), pk=penalty_id, tournament=tournament)
    try:
        reason = forms.CharField(required=False).clean(request.POST.get("reason", ""))  # refuses NUL characters
        withdraw_penalty(penalty.pk, user=request.user, reason=reason)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("The %(kind)s of %(player)s is withdrawn: it no longer counts.")
                         % {"kind": penalty.get_kind_display(), "player": penalty.entry.player.name})
    return redirect("referee-penalties", slug=slug)
