"""The check-in screen: search, tap to check in (minutes late apply the rule), no-shows and withdrawals, counts."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from championships.models import Entry
from championships.permissions import organized_tournament
from core.csv_export import csv_response

from .. import checkin
from ..people_forms import CheckInForm, WithdrawForm, search_query


def _filters(source) -> tuple[str, str]:
    query = search_query(source)
    status = source.get("status", "")
    return query, status if status in Entry.Status.values else ""


def _back(slug: str, source) -> str:
    query, status = _filters(source)
    params = {k: v for k, v in (("q", query), ("status", status)) if v}
    return reverse("organize-checkin", args=[slug]) + (f"?{urlencode(params)}" if params else "")


@login_required
def check_in_page(request, slug: str):
    tournament = organized_tournament(request.user, slug)
    query, status = _filters(request.GET)
    context = {
        "tournament": tournament, "entries": checkin.entries(tournament, query, status)[:checkin.SEARCH_MAX + 1],
        "counts": checkin.counts(tournament), "query": query, "status": status,
        "statuses": Entry.Status.choices, "minutes": checkin.suggested_minutes_late(tournament),
        "search_max": checkin.SEARCH_MAX, "games_started": checkin.games_started(tournament), "is_organizer": True,
    }
    template = "organize/_checkin_list.html" if request.htmx else "organize/checkin.html"
    return render(request, template, context)


@login_required
@require_POST
def check_in_entry(request, slug: str, entry_id: int):
    tournament = organized_tournament(request.user, slug)
    get_object_or_404(Entry, pk=entry_id, tournament=tournament)  # another tournament's entry is not found here
    action = request.POST.get("action", "")
    notice, failed, extra = "", False, []
    try:
        if action == "check_in":
            form = CheckInForm(request.POST)
            if not form.is_valid():
                raise ValidationError(form.errors["minutes_late"])
            done = checkin.check_in(tournament, entry_id, user=request.user,
                                    minutes_late=form.cleaned_data["minutes_late"] or 0)
            name = done.entry.player.name
            notice = (_("%(player)s is more than 15 minutes late and is not admitted.") if done.not_admitted else
                      _("%(player)s checked in late: 1 VP deducted.") if done.penalised else
                      _("%(player)s checked in.")) % {"player": name}
        elif action == "undo":
            entry = checkin.undo_check_in(tournament, entry_id, user=request.user)
            notice = _("Check-in of %(player)s undone.") % {"player": entry.player.name}
        elif action == "no_show":
            checkin.mark_no_show(tournament, [entry_id], user=request.user)
            notice = _("Marked as not come.")
        elif action == "withdraw":
            form = WithdrawForm(request.POST)
            if not form.is_valid():
                raise ValidationError(form.errors["reason"])
            withdrawal = checkin.withdraw(tournament, entry_id, user=request.user,
                                          reason=form.cleaned_data["reason"])
            notice = _("%(player)s withdrew.") % {"player": withdrawal.entry.player.name}
            extra = withdrawal.replanned + withdrawal.to_do
            failed = bool(withdrawal.to_do)
        else:
            raise ValidationError(_("Unknown action."))
    except ValidationError as error:
        notice, failed = " ".join(error.messages), True
    if not request.htmx:
        for text in [notice, *extra]:
            (messages.error if failed else messages.success)(request, text)
        return redirect(_back(slug, request.POST))
    entry = get_object_or_404(Entry.objects.select_related("player__country"), pk=entry_id, tournament=tournament)
    return render(request, "organize/_checkin_row.html", {
        "tournament": tournament, "entry": entry, "notice": notice, "notes": extra, "failed": failed,
        "counts": checkin.counts(tournament), "minutes": checkin.suggested_minutes_late(tournament),
        "oob": True, "query": request.POST.get("q", "")[:100], "status": request.POST.get("status", "")[:20],
        "games_started": checkin.games_started(tournament)})


@login_required
@require_POST
def mark_no_shows(request, slug: str):
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
def check_in_csv(request, slug: str):
    tournament = organized_tournament(request.user, slug)
    query, status = _filters(request.GET)

    def when(entry):
        return timezone.localtime(entry.checked_in_at).isoformat() if entry.checked_in_at else ""
    rows = ([e.player.name, e.player.country.code if e.player.country else "", e.status, e.get_status_display(),
             e.minutes_late, when(e)] for e in checkin.entries(tournament, query, status).iterator(chunk_size=500))
    return csv_response(f"{tournament.slug}-check-in.csv",
                        ["name", "country", "status", "status_label", "minutes_late", "checked_in_at"], rows)
