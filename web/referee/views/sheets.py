"""The referee's record-sheet screen: enter scores, collect signatures, sign off; organizers correct."""
from collections.abc import Callable, Sequence
from functools import wraps
from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from calls.selectors import table_pauses
from championships.permissions import is_organizer, require_official
from results import publishing, selectors, sheets
from results.banker import Banker, banker_of, record_banker, referee_banks
from results.models import RecordSheet, Score, Signature
from scheduling.models import Game, Table
from web.forms import add_service_errors
from web.requests import HtmxHttpRequest

from ..forms import BankerForm, CorrectionForm, PlayOrderForm, SheetForm, SignatureForm, SignOffForm


def _table(request: HtmxHttpRequest, slug: str, table_id: int) -> Table:
    """A table of a published game (it has its record sheet), for a referee or organizer of its tournament."""
    table = get_object_or_404(Table.objects.select_related("game__tournament__championship", "game__stage", "sheet")
                              .exclude(game__status=Game.Status.PLANNED), pk=table_id, game__tournament__slug=slug)
    require_official(request.user, table.game.tournament)
    return table


def _sheet_and_scores(table: Table) -> tuple[RecordSheet, list[Score]]:
    page = selectors.sheet_page(table)
    return page.sheet, page.scores


def sheet_action(view: Callable[[HtmxHttpRequest, str, int], HttpResponse]
                 ) -> Callable[[HtmxHttpRequest, str, int], HttpResponse]:
    """Actions are POSTs; reloading or bookmarking their address shows the sheet, not an error."""
    @wraps(view)
    def wrapper(request: HtmxHttpRequest, slug: str, table_id: int) -> HttpResponse:
        if request.method != "POST":
            return redirect("referee-sheet", slug=slug, table_id=table_id)
        return view(request, slug, table_id)
    return wrapper


def _initial(sheet: RecordSheet, scores: Sequence[Score]) -> dict[str, Any]:
    initial = {f"vp_{s.seat.entry_id}": s.vp for s in scores}
    winner = next((s.seat.entry_id for s in scores if s.winner), None)
    return {**initial, "winner": winner, "start_time": sheet.start_time, "end_time": sheet.end_time,
            "base_version": sheet.version}


def _banker_form(sheet: RecordSheet, scores: Sequence[Score], data: QueryDict | None = None,
                 banker: Banker | None = None) -> BankerForm:
    banker = banker or banker_of(sheet, [s.seat for s in scores])
    return BankerForm(data, seats=[s.seat for s in scores], referee_label=_("The referee"),
                      initial={"banker": banker.key, "was": banker.key})


def _page(request: HtmxHttpRequest, table: Table, *, form: SheetForm | None = None,
          correction_form: CorrectionForm | None = None, signature_error: str | None = None, signer: int | None = None,
          order_form: PlayOrderForm | None = None, banker_form: BankerForm | None = None,
          status: int = 200) -> HttpResponse:
    """The sheet; a form that failed comes back with what was typed and the saved values beside it."""
    page = selectors.sheet_page(table)
    sheet, scores = page.sheet, page.scores
    tournament = table.game.tournament
    organizer = is_organizer(request.user, tournament)
    if signature_error and not (sheet.version and any(
            score.seat.entry_id == signer and signature is None for score, signature in page.rows)):
        messages.error(request, signature_error)  # no signature panel of that player shows it: say it on top
        signature_error = None
    banker = banker_of(sheet, [s.seat for s in scores])
    context = {
        "tournament": tournament, "game": table.game, "table": table, "sheet": sheet, "rows": page.rows,
        "form": form or SheetForm(initial=_initial(sheet, scores), scores=scores),
        "correction_form": correction_form or (
            CorrectionForm(initial=_initial(sheet, scores), scores=scores) if organizer and sheet.is_locked else None),
        "signature_error": signature_error, "signer": signer,
        "unsaved": bool(form and form.is_bound),
        "order_form": order_form or (
            PlayOrderForm(seats=[s.seat for s in scores])
            if publishing.records_play_order(table.game) and not sheet.version else None),
        "order_choice": publishing.play_order_choice(tournament),
        "banker": banker,
        "banker_form": banker_form or _banker_form(sheet, scores, banker=banker),
        "referee_banks": referee_banks(table.game),
        "all_signed": page.all_signed,
        "revisions": page.revisions,
        "pauses": table_pauses(table.pk),
        "objections": page.objections,
        "methods": Signature.Method,
        "is_organizer": organizer,
    }
    response = render(request, "referee/sheet.html", context, status=status)
    if request.htmx:
        response["HX-Replace-Url"] = reverse("referee-sheet", args=[tournament.slug, table.pk])
    return response


@login_required
def sheet_page(request: HtmxHttpRequest, slug: str, table_id: int) -> HttpResponse:
    return _page(request, _table(request, slug, table_id))


def _stale(request: HtmxHttpRequest, form: SheetForm, error: sheets.StaleSheet) -> None:
    """Keep what was typed, now based on the current version, and say why it was not saved."""
    messages.warning(request, _("Someone else changed this sheet meanwhile. Your values are kept below: "
                                "check the sheet's current state and save again."))
    data = cast(QueryDict, form.data).copy()
    data["base_version"] = str(error.sheet.version)
    form.data = data


@login_required
@sheet_action
def save_scores(request: HtmxHttpRequest, slug: str, table_id: int) -> HttpResponse:
    table = _table(request, slug, table_id)
    sheet, scores = _sheet_and_scores(table)
    form = SheetForm(request.POST, scores=scores)
    if form.is_valid():
        try:
            saved = sheets.save_entry(sheet.pk, form.sheet_input(), user=request.user,
                                      base_version=form.cleaned_data["base_version"])
        except ValidationError as error:
            add_service_errors(form, error)
        except sheets.SheetLocked as error:
            messages.error(request, str(error))
            return redirect("referee-sheet", slug=slug, table_id=table.pk)
        except sheets.StaleSheet as error:
            _stale(request, form, error)
        else:
            if saved.version == form.cleaned_data["base_version"]:
                messages.info(request, _("No change: the sheet already has these scores."))
            else:
                messages.success(request, _("Scores saved. Each player now signs the sheet."))
            return redirect("referee-sheet", slug=slug, table_id=table.pk)
    return _page(request, table, form=form, status=422)


@login_required
@sheet_action
def add_signature(request: HtmxHttpRequest, slug: str, table_id: int) -> HttpResponse:
    table = _table(request, slug, table_id)
    form = SignatureForm(request.POST)
    if not form.is_valid():
        return _page(request, table, signature_error=_("The signature could not be read; try again."), status=422)
    data = form.cleaned_data
    try:
        sheet = sheets.sign(table.sheet.pk, data["entry"], user=request.user, method=data["method"],
                            version=data["version"], image=data["image"], decision=data["decision"])
    except ValidationError as error:
        return _page(request, table, signature_error=" ".join(error.messages), signer=data["entry"], status=422)
    except (sheets.SheetLocked, sheets.StaleSheet) as error:
        messages.error(request, str(error))
    else:
        name = sheet.signatures.select_related("entry__player").get(entry_id=data["entry"]).entry.player.name
        messages.success(request, _("%(player)s's signature is recorded.") % {"player": name})
    return redirect("referee-sheet", slug=slug, table_id=table.pk)


@login_required
@sheet_action
def sign_off(request: HtmxHttpRequest, slug: str, table_id: int) -> HttpResponse:
    table = _table(request, slug, table_id)
    form = SignOffForm(request.POST)
    if form.is_valid():
        try:
            sheets.sign_off(table.sheet.pk, user=request.user, version=form.cleaned_data["version"])
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        except sheets.StaleSheet as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("Signed off: the result is locked and counts in the standings."))
    return redirect("referee-sheet", slug=slug, table_id=table.pk)


@login_required
@sheet_action
def correct_sheet(request: HtmxHttpRequest, slug: str, table_id: int) -> HttpResponse:
    table = _table(request, slug, table_id)
    sheet, scores = _sheet_and_scores(table)
    form = CorrectionForm(request.POST, scores=scores)
    if form.is_valid():
        try:
            sheets.correct(sheet.pk, form.sheet_input(), user=request.user, reason=form.cleaned_data["reason"],
                           base_version=form.cleaned_data["base_version"])
        except ValidationError as error:
            add_service_errors(form, error)
        except sheets.StaleSheet as error:
            _stale(request, form, error)
        else:
            messages.success(request, _("Correction saved as a new version; the earlier one stays in the history."))
            return redirect("referee-sheet", slug=slug, table_id=table.pk)
    return _page(request, table, correction_form=form, status=422)


@login_required
@sheet_action
def play_order(request: HtmxHttpRequest, slug: str, table_id: int) -> HttpResponse:
    table = _table(request, slug, table_id)
    form = PlayOrderForm(request.POST, seats=list(table.seats.select_related("entry__player").order_by("position")))
    if form.is_valid():
        try:
            publishing.record_play_order(table.pk, form.cleaned_data["order"], user=request.user)
        except ValidationError as error:
            form.add_error(None, error.messages)
        else:
            messages.success(request, _("Play order recorded."))
            return redirect("referee-sheet", slug=slug, table_id=table.pk)
    return _page(request, table, order_form=form, status=422)


@login_required
@sheet_action
def banker(request: HtmxHttpRequest, slug: str, table_id: int) -> HttpResponse:
    """Record who banks at the table: the starting player, a player the table elected, or the referee."""
    table = _table(request, slug, table_id)
    sheet, scores = _sheet_and_scores(table)
    form = _banker_form(sheet, scores, request.POST)
    if form.is_valid():
        try:
            record_banker(sheet.pk, form.entry_id(), user=request.user, was=form.cleaned_data["was"])
        except ValidationError as error:
            form.add_error("banker" if hasattr(error, "error_dict") else None, error.messages)
        else:
            messages.success(request, _("Banker recorded."))
            return redirect("referee-sheet", slug=slug, table_id=table.pk)
    return _page(request, table, banker_form=form, status=422)
