"""The check-in screen: search, one tap for "on time", a confirmed "late", undo with a reason, no-shows, counts."""
from typing import Any

import segno
from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from attendance import checkin, self_checkin
from championships.models import Entry, Tournament
from championships.permissions import organized_tournament
from core.site import absolute
from core.table_export import table_response
from results.penalties import lateness_rule
from web.organize.people_forms import LateForm, UndoForm, WithdrawForm, search_query
from web.organize.registration_forms import WindowForm
from web.requests import HtmxHttpRequest


def _filters(source: QueryDict) -> tuple[str, str]:
    query = search_query(source)
    status = source.get("status", "")
    return query, status if status in Entry.Status.values else ""


def _back(slug: str, source: QueryDict) -> str:
    query, status = _filters(source)
    params = {k: v for k, v in (("q", query), ("status", status)) if v}
    return reverse("organize-checkin", args=[slug]) + (f"?{urlencode(params)}" if params else "")


def _desk(tournament: Tournament) -> dict[str, Any]:
    """What every rendering of the desk or one of its rows needs besides the rows."""
    return {"tournament": tournament, "counts": checkin.counts(tournament), "lateness": lateness_rule(tournament),
            "games_started": checkin.games_started(tournament), "is_organizer": True}


@login_required
def check_in_page(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = organized_tournament(request.user, slug)
    query, status = _filters(request.GET)
    rows = checkin.entries(tournament, query, status)[:checkin.SEARCH_MAX + 1]
    context = {
        **_desk(tournament), "entries": checkin.with_namesakes(tournament, rows),
        "query": query, "status": status, "statuses": Entry.Status.choices, "search_max": checkin.SEARCH_MAX,
        **({} if request.htmx else window_context(tournament)),
    }
    template = "organize/_checkin_list.html" if request.htmx else "organize/checkin.html"
    return render(request, template, context)


def _row(request: HtmxHttpRequest, tournament: Tournament, entry_id: int, **context: object) -> HttpResponse:
    """One row of the desk, as htmx swaps it in (with the counts out of band)."""
    query, status = _filters(request.POST or request.GET)
    entry = checkin.with_namesakes(tournament, [get_object_or_404(checkin.entries(tournament), pk=entry_id)])[0]
    return render(request, "organize/_checkin_row.html", {
        **_desk(tournament), "entry": entry, "oob": True, "query": query, "status": status, **context})


@login_required
@require_GET
def late_check_in(request: HtmxHttpRequest, slug: str, entry_id: int) -> HttpResponse:
    """The confirmation step of a late check-in: what the typed minutes will do, and a button to confirm it.

    A read (nothing is written here): without JavaScript a page of its own, with htmx the row in place.
    Without minutes, htmx gets the plain row back (the confirmation's "Cancel").
    """
    tournament = organized_tournament(request.user, slug)
    entry = checkin.with_namesakes(tournament, [get_object_or_404(checkin.entries(tournament), pk=entry_id)])[0]
    if request.htmx and "minutes_late" not in request.GET:
        return _row(request, tournament, entry_id, oob=False)
    form = LateForm(request.GET)
    step, problem = None, ""
    try:
        step = checkin.late_step(tournament, entry, form.cleaned_data["minutes_late"] if form.is_valid() else None)
    except ValidationError as error:
        problem = " ".join(error.messages)
    context = {"step": step, "late_problem": bool(problem), "notice": problem, "failed": bool(problem),
               "back": _back(slug, request.GET)}
    if request.htmx:
        return _row(request, tournament, entry_id, oob=False, **context)
    query, status = _filters(request.GET)
    return render(request, "organize/checkin_late.html", {
        **_desk(tournament), "entry": entry, "query": query, "status": status, **context})


def _field(form: forms.Form, name: str) -> Any:
    """The form's one field, cleaned; its problem as a ValidationError."""
    if not form.is_valid():
        raise ValidationError(form.errors[name])  # type: ignore[arg-type]  # an ErrorList is a list at run time
    return form.cleaned_data[name]


def _act(request: HtmxHttpRequest, tournament: Tournament, entry_id: int, action: str) -> tuple[list[str], list[str]]:
    """Run one of the row's actions; returns what was done and what the organizer must still do, in words.

    A refusal raises ValidationError, and nothing was written.
    """
    if action == "check_in":  # on time: whatever else was posted, never a penalty
        return [_("%(player)s checked in.") % {"player": checkin.check_in(
            tournament, entry_id, user=request.user).entry.player.name}], []
    if action == "late":
        minutes = _field(LateForm(request.POST), "minutes_late")
        done = checkin.check_in(tournament, entry_id, user=request.user, minutes_late=minutes)
        if not (done.not_admitted or done.penalised):  # on time after all, or checked in already (a double tap)
            return [_("%(player)s checked in.") % {"player": done.entry.player.name}], []
        rule = lateness_rule(tournament)
        assert rule is not None  # the check-in applied it (refused where the rules have none)
        values = {"player": done.entry.player.name, "minutes": minutes, "vp": rule.vp,
                  "admitted": rule.admitted_minutes}
        if done.not_admitted:
            return [_("%(player)s is %(minutes)d minutes late, more than %(admitted)d, and is not admitted.")
                    % values], []
        return [_("%(player)s checked in, %(minutes)d minutes late: %(vp)d VP deducted.") % values], []
    if action == "undo":
        undone = checkin.undo(tournament, entry_id, user=request.user,
                              reason=_field(UndoForm(request.POST), "reason"))
        nothing = _("Nothing to undo: %(player)s is registered.") % {"player": undone.entry.player.name}
        return undone.said or [nothing], undone.to_do
    if action == "no_show":
        checkin.mark_no_show(tournament, [entry_id], user=request.user)
        return [_("Marked as not come.")], []
    if action == "withdraw":
        withdrawal = checkin.withdraw(tournament, entry_id, user=request.user,
                                      reason=_field(WithdrawForm(request.POST), "reason"))
        withdrew = _("%(player)s withdrew.") % {"player": withdrawal.entry.player.name}
        return [withdrew, *withdrawal.replanned], withdrawal.to_do
    raise ValidationError(_("Unknown action."))


@login_required
@require_POST
def check_in_entry(request: HtmxHttpRequest, slug: str, entry_id: int) -> HttpResponse:
    tournament = organized_tournament(request.user, slug)
    get_object_or_404(Entry, pk=entry_id, tournament=tournament)  # another tournament's entry is not found here
    refused = ""
    try:
        said, to_do = _act(request, tournament, entry_id, request.POST.get("action", ""))
    except ValidationError as error:
        refused, said, to_do = " ".join(error.messages), [], []
    if not request.htmx:
        if refused:
            messages.error(request, refused)
        for text in said:
            messages.success(request, text)
        for text in to_do:
            messages.warning(request, text)
        return redirect(_back(slug, request.POST))
    lines = [refused] if refused else said + to_do
    return _row(request, tournament, entry_id, notice=lines[0], notes=lines[1:], failed=bool(refused),
                to_do=bool(to_do))


@login_required
@require_POST
def mark_no_shows(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Everyone still only registered did not come (before the first game)."""
    tournament = organized_tournament(request.user, slug)
    waiting = list(Entry.objects.filter(tournament=tournament, status=Entry.Status.REGISTERED)
                   .values_list("pk", flat=True))
    try:
        n = checkin.mark_no_show(tournament, waiting, user=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, ngettext("%(n)d player marked as not come.", "%(n)d players marked as not come.",
                                           n) % {"n": n})
    return redirect("organize-checkin", slug=slug)


@login_required
def check_in_csv(request: HtmxHttpRequest, slug: str, fmt: str = "csv") -> HttpResponse:
    tournament = organized_tournament(request.user, slug)
    query, status = _filters(request.GET)

    def when(entry: Entry) -> str:
        return timezone.localtime(entry.checked_in_at).isoformat() if entry.checked_in_at else ""
    rows = ([e.player.name, e.player.country.code if e.player.country else "", e.status, e.get_status_display(),
             e.minutes_late, when(e), e.checked_in_by_self]
            for e in checkin.entries(tournament, query, status).iterator(chunk_size=500))
    return table_response(fmt, f"{tournament.slug}-check-in",
                          ["name", "country", "status", "status_label", "minutes_late", "checked_in_at",
                           "checked_in_by_self"], rows)


def window_context(tournament: Tournament) -> dict[str, Any]:
    """The self check-in panel of the desk: the open window with the QR code of its address (an SVG data URI, as a
    phone's camera reads it), or the form to open one."""
    window = self_checkin.current_window(tournament)
    url = absolute(reverse("players-check-in", args=[tournament.slug, window.code])) if window else ""
    return {"window": window, "window_form": WindowForm(),
            "window_qr": segno.make(url, error="m").svg_data_uri(scale=8, border=2) if window else ""}


@login_required
@require_POST
def check_in_window(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Open a self check-in window (a new code, the old one dead) or close the open one."""
    tournament = organized_tournament(request.user, slug)
    if request.POST.get("action") == "close":
        self_checkin.close_window(tournament, user=request.user)
        messages.success(request, _("Self check-in closed: the QR code no longer checks anyone in."))
    else:
        form = WindowForm(request.POST)
        if form.is_valid():
            window = self_checkin.open_window(tournament, user=request.user, minutes=form.cleaned_data["minutes"])
            messages.success(request, _("Self check-in open until %(time)s: players scan the QR code with the phone "
                                        "on which they opened their private link.")
                             % {"time": timezone.localtime(window.closes_at).strftime("%H:%M")})
        else:
            messages.error(request, " ".join(str(m) for ms in form.errors.values() for m in ms))
    return redirect(reverse("organize-checkin", args=[slug]) + "#self-check-in")


@login_required
@require_GET
def check_in_qr(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The QR code full screen, for the projector or a tablet at the door; it asks for itself every 30 s (htmx), so
    a new window's code replaces the old one."""
    tournament = organized_tournament(request.user, slug)
    return render(request, "organize/checkin_qr.html",
                  {"tournament": tournament, **window_context(tournament)})
