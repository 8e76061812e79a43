"""The referees' queue of calls from the players' phones: open calls oldest first, refreshed every few seconds;
"I'm going" takes one, its own page resolves it or passes it on (so the polling never wipes a ruling being typed)."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from calls import selectors
from calls.models import Call
from calls.services import pass_call, resolve_call, take_call
from championships.models import Tournament
from championships.permissions import is_organizer, official_tournament
from web.forms import add_service_errors
from web.requests import HtmxHttpRequest

from ..forms import PassCallForm, ResolveCallForm

POLL_SECONDS = 4
"""How often the queue asks again: a call shows on every tablet within five seconds."""


def _call(tournament: Tournament, call_id: int) -> Call:
    return get_object_or_404(Call.objects.select_related("table__game", "placed_by__player", "taken_by"),
                             pk=call_id, tournament=tournament)


@login_required
@require_GET
def queue(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = official_tournament(request.user, slug)
    context = {"tournament": tournament, "calls": selectors.queue(tournament), "poll": POLL_SECONDS,
               "is_organizer": is_organizer(request.user, tournament)}
    return render(request, "referee/_calls_queue.html" if request.htmx else "referee/calls.html", context)


@login_required
@require_POST
def take(request: HtmxHttpRequest, slug: str, call_id: int) -> HttpResponse:
    tournament = official_tournament(request.user, slug)
    try:
        take_call(_call(tournament, call_id).pk, user=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return redirect("referee-calls", slug=slug)


@login_required
@require_http_methods(["GET", "POST"])
def handle(request: HtmxHttpRequest, slug: str, call_id: int) -> HttpResponse:
    """GET: the call with its resolve and pass forms; POST `resolve` or `pass` with their fields."""
    tournament = official_tournament(request.user, slug)
    call = _call(tournament, call_id)
    posted = request.POST if request.method == "POST" else None
    resolve_form = ResolveCallForm(posted if posted and "resolve" in posted else None)
    pass_form = PassCallForm(posted if posted and "pass" in posted else None)
    form = resolve_form if resolve_form.is_bound else pass_form if pass_form.is_bound else None
    if form is not None and form.is_valid():
        data = form.cleaned_data
        try:
            if form is resolve_form:
                resolve_call(call.pk, data["ruling"], user=request.user, announce=data["then"] == "announce",
                             timed_turns=data["then"] == "timed_turns")
                messages.success(request, _("The call of table %(n)d is resolved.") % {"n": call.table.number})
            else:
                pass_call(call.pk, data["to"], user=request.user)
                messages.success(request, _("The call of table %(n)d is passed on.") % {"n": call.table.number})
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            return redirect("referee-calls", slug=slug)
    context = {"tournament": tournament, "call": call, "resolve_form": resolve_form, "pass_form": pass_form,
               "is_organizer": is_organizer(request.user, tournament)}
    return render(request, "referee/call.html", context, status=422 if form is not None else 200)
