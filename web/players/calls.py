"""A player calls a referee to their table from their own page (`/me/<token>/`), and follows the call: waiting
(since when), a referee coming (who), resolved (the ruling). The panel loads into the page and its state is asked
again every few seconds; nothing of a call is on a public page."""
from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from calls import selectors
from calls.models import NOTE_MAX, Call
from calls.services import place_call
from championships import links
from championships.models import Player
from scheduling.models import Game, Seat, Table
from web.forms import add_service_errors
from web.requests import HtmxHttpRequest

from .tokens import HANDED_OVER, player_link, private_page

POLL_SECONDS = 5


class CallForm(forms.Form):
    reason = forms.ChoiceField(label=gettext_lazy("Why do you call a referee?"), choices=Call.Reason.choices)
    note = forms.CharField(label=gettext_lazy("A note for the referee (optional)"), max_length=NOTE_MAX,
                           required=False, widget=forms.TextInput(attrs={"autocomplete": "off"}))


def _seated(player: Player, table_id: int) -> Table:
    """The table, if the player sits at it; else 404, as for any table (nobody learns which tables exist)."""
    seat = (Seat.objects.select_related("table__game__tournament").filter(table_id=table_id, entry__player=player)
            .first())
    if seat is None:
        raise Http404("You do not sit at this table.")
    return seat.table


def _panel(request: HtmxHttpRequest, token: str, table: Table, form: CallForm, status: int = 200) -> HttpResponse:
    may_call = (table.game.status == Game.Status.PUBLISHED and links.may_act(token, table.game.tournament))
    context = {"token": token, "table": table, "form": form, "calls": selectors.table_calls(table.pk),
               "may_call": may_call, "poll": POLL_SECONDS}
    template = "players/_call_states.html" if request.GET.get("part") == "states" else "players/_calls.html"
    return render(request, template, context, status=status)


@private_page
@require_GET
@player_link
def me_calls(request: HtmxHttpRequest, token: str, table_id: int, *, player: Player) -> HttpResponse:
    """The panel (`?part=states`: only the calls' states, which the panel polls)."""
    return _panel(request, token, _seated(player, table_id), CallForm())


@private_page
@require_POST
@player_link
def me_call(request: HtmxHttpRequest, token: str, table_id: int, *, player: Player) -> HttpResponse:
    table = _seated(player, table_id)
    form = CallForm(request.POST)
    if not links.may_act(token, table.game.tournament):
        form.add_error(None, str(HANDED_OVER))
    elif form.is_valid():
        try:
            place_call(table.pk, form.cleaned_data["reason"], form.cleaned_data["note"], player=player)
        except (ValidationError, PermissionDenied) as error:
            add_service_errors(form, error if isinstance(error, ValidationError) else ValidationError(str(error)))
        else:
            if not request.htmx:
                messages.success(request, _("A referee is called to your table."))
                return redirect(reverse("players-me", args=[token]) + f"#calls-{table.pk}")
            return _panel(request, token, table, CallForm())
    if not request.htmx:
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
        return redirect(reverse("players-me", args=[token]) + f"#calls-{table.pk}")
    return _panel(request, token, table, form, status=422)
