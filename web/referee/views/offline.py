"""The tablet's offline queue (issue 28): each action typed without a network, sent once the network is back.

The tablet queues exactly what the sheet's forms would have posted: the scores with the version they were typed
on (`base_version`), each signature and the sign-off with the version the players saw (`version`). Those versions
are the idempotency keys the services already use: saving content the sheet already holds, a signature of a
player who already signed that version, or a sign-off of a locked sheet returns the sheet unchanged. So an action
sent twice (the answer was lost on the way back) is applied once, with one revision and one audit entry. A sheet
someone else changed meanwhile answers 409 with its current content, which the tablet shows beside its own for the
referee to choose; the server's rules are the sheet screen's, unchanged.
"""
from typing import Any

from django import forms
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ValidationError
from django.http import HttpResponse, JsonResponse
from django.views.decorators.http import require_POST

from championships.permissions import official_tournament
from results import selectors, sheets, tablets
from results.models import RecordSheet
from scheduling.models import Table
from web.requests import HtmxHttpRequest

from ..forms import SheetForm, SignatureForm, SignOffForm
from .sheets import _table


def sheet_state(table: Table) -> dict[str, Any]:
    """What the server holds for the table now: the tablet shows it beside its own values on a conflict."""
    page = selectors.sheet_page(table)
    sheet = page.sheet
    return {
        "version": sheet.version, "status": sheet.status, "status_label": sheet.get_status_display(),
        "locked": sheet.is_locked,
        "scores": [{"entry": s.seat.entry_id, "player": s.seat.entry.player.name, "vp": s.vp, "winner": s.winner}
                   for s in page.scores],
        "start_time": sheet.start_time.strftime("%H:%M") if sheet.start_time else None,
        "end_time": sheet.end_time.strftime("%H:%M") if sheet.end_time else None,
        "signed": [score.seat.entry_id for score, signature in page.rows if signature is not None],
    }


def _form_errors(form: forms.Form) -> list[str]:
    return [f"{form.fields[name].label}: {message}" if name in form.fields and form.fields[name].label else message  # type: ignore[misc]
            for name, messages in form.errors.items() for message in messages]  # an ErrorList's items are str


def _apply(kind: str, table: Table, data: dict[str, Any],
           user: AbstractBaseUser | AnonymousUser) -> RecordSheet | list[str]:
    """Run one queued action through the sheet's service; the form's errors when it cannot be read."""
    sheet_id = table.sheet.pk
    if kind == "scores":
        form = SheetForm(data, scores=selectors.sheet_page(table).scores)
        if not form.is_valid():
            return _form_errors(form)
        return sheets.save_entry(sheet_id, form.sheet_input(), user=user,
                                 base_version=form.cleaned_data["base_version"])
    if kind == "sign":
        signature = SignatureForm(data)
        if not signature.is_valid():
            return _form_errors(signature)
        d = signature.cleaned_data
        return sheets.sign(sheet_id, d["entry"], user=user, method=d["method"], version=d["version"],
                           image=d["image"], decision=d["decision"])
    if kind == "sign-off":
        sign_off = SignOffForm(data)
        if not sign_off.is_valid():
            return _form_errors(sign_off)
        return sheets.sign_off(sheet_id, user=user, version=sign_off.cleaned_data["version"])
    return [f"Unknown action {kind!r}."]


@login_required
@require_POST
def send(request: HtmxHttpRequest, slug: str, table_id: int) -> HttpResponse:
    """One queued action: 200 and the sheet's state once applied (or already applied), 409 with the server's
    sheet when it changed meanwhile or is locked, 422 with the reasons when the server refuses the values."""
    table = _table(request, slug, table_id)
    try:
        result = _apply(request.POST.get("kind", ""), table, request.POST, request.user)
    except (sheets.StaleSheet, sheets.SheetLocked) as error:
        return JsonResponse({"conflict": str(error), "server": sheet_state(table)}, status=409)
    except ValidationError as error:
        return JsonResponse({"errors": error.messages, "server": sheet_state(table)}, status=422)
    if isinstance(result, list):
        return JsonResponse({"errors": result, "server": sheet_state(table)}, status=422)
    return JsonResponse({"server": sheet_state(table)})


@login_required
@require_POST
def pending(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The tablet says which of the tournament's tables have actions waiting on it (none: everything was sent)."""
    tournament = official_tournament(request.user, slug)
    try:
        table_ids = [int(value) for value in request.POST.getlist("tables")]
        report = tablets.report_waiting(tournament, request.user, table_ids)
    except ValueError:
        return JsonResponse({"errors": ["Table ids are numbers."]}, status=422)
    except ValidationError as error:
        return JsonResponse({"errors": error.messages}, status=422)
    return JsonResponse({"tables": report.tables, "reported_at": report.reported_at.isoformat()})
