"""Season rankings for organizers: their seasons, a new one, one season's ranking (as a page, CSV and PDF), its
changes and its removal. Only an organizer of every championship of a season reaches it (`ratings.seasons`)."""
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from audit.actions import Action
from audit.models import AuditEntry
from core.pdf import paper_for, pdf_response, render_pdf
from core.table_export import table_response
from ratings.models import Season
from ratings.seasons import (
    change_season,
    create_season,
    delete_season,
    may_manage,
    organized_championships,
    season_standings,
    seasons_of,
)
from web.forms import add_service_errors
from web.organize.season_forms import SeasonForm
from web.requests import HtmxHttpRequest

HISTORY_SHOWN = 20
"""The season page lists its latest changes."""


def _season(user: AbstractBaseUser | AnonymousUser, season_id: int) -> Season:
    season = get_object_or_404(Season, pk=season_id)
    if not may_manage(user, season):
        raise PermissionDenied("Only an organizer of every championship of this season may open it.")
    return season


def _form_page(request: HtmxHttpRequest, form: SeasonForm, season: Season | None,
               save: Callable[[dict[str, Any]], Season],
               done: str) -> HttpResponse:
    """The season form; a valid POST is saved by `save` (given the user and the form's fields), then the season's
    page follows with `done` said. Refused values show the form again (422), the service's reasons at their fields."""
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            saved = save({"user": request.user, "name": data["name"], "points": data["points"],
                          "championship_ids": [c.pk for c in data["championships"]], "tiebreaks": data["tiebreaks"]})
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, done)
            return redirect("organize-season", saved.pk)
    return render(request, "organize/season_form.html", {"form": form, "season": season},
                  status=422 if form.errors else 200)


@login_required
@require_GET
def season_list(request: HtmxHttpRequest) -> HttpResponse:
    return render(request, "organize/seasons.html", {
        "seasons": seasons_of(request.user).prefetch_related("championships"),
        "can_create": organized_championships(request.user).exists(),
    })


@login_required
@require_http_methods(["GET", "POST"])
def season_new(request: HtmxHttpRequest) -> HttpResponse:
    championships = organized_championships(request.user)
    if not championships.exists():
        raise PermissionDenied("Only an organizer of a championship may define a season.")
    form = SeasonForm(request.POST or None, championships=championships)
    return _form_page(request, form, None, lambda fields: create_season(**fields), _("Season created."))


@login_required
@require_GET
def season(request: HtmxHttpRequest, season_id: int) -> HttpResponse:
    found = _season(request.user, season_id)
    history = [(entry.at, entry.who, action.label if (action := Action.stored(entry.action)) else entry.action)
               for entry in AuditEntry.objects.filter(object_type="season", object_id=found.pk)
               .select_related("user", "player")[:HISTORY_SHOWN]]
    return render(request, "organize/season.html", {"standings": season_standings(found), "history": history})


@login_required
@require_http_methods(["GET", "POST"])
def season_edit(request: HtmxHttpRequest, season_id: int) -> HttpResponse:
    found = _season(request.user, season_id)
    championships = organized_championships(request.user)
    form = SeasonForm(request.POST or None, championships=championships,
                      initial=SeasonForm.initial_for(found))
    return _form_page(request, form, found, lambda fields: change_season(
        found.pk, version=form.cleaned_data["version"] or 0, **fields), _("Season saved."))


@login_required
@require_POST
def season_delete(request: HtmxHttpRequest, season_id: int) -> HttpResponse:
    found = _season(request.user, season_id)
    delete_season(found.pk, user=request.user)
    messages.success(request, _("Season “%(name)s” deleted.") % {"name": found.name})
    return redirect("organize-seasons")


CSV_HEADER = ["rank", "player", "country", "points", "events", "wins", "total_vp", "best_place", "rating"]
"""Machine-readable keys, then one column of places and points per counted event (its slug)."""


@login_required
@require_GET
def season_csv(request: HtmxHttpRequest, season_id: int, fmt: str = "csv") -> HttpResponse:
    standings = season_standings(_season(request.user, season_id))
    events = standings.counted
    header = CSV_HEADER + [f"{t.slug}_place" for t in events] + [f"{t.slug}_points" for t in events]
    rows = ([r.rank, r.name, r.country.code if r.country else "", r.points, r.events, r.wins, r.total_vp,
             r.best_place, f"{r.rating:.6f}" if r.rating is not None else "",
             *(r.results.get(t.pk, ("", ""))[0] for t in events), *(r.results.get(t.pk, ("", ""))[1] for t in events)]
            for r in standings.rows)
    return table_response(fmt, f"season-{season_id}", header, rows)


@login_required
@require_GET
def season_pdf(request: HtmxHttpRequest, season_id: int) -> HttpResponse:
    found = _season(request.user, season_id)
    standings = season_standings(found)
    first = found.championships.select_related("country").first()
    paper = paper_for(request.GET.get("paper"), first.country.code if first and first.country else None)
    data = render_pdf("print/season.html", {"standings": standings, "tournament": {"name": found.name},
                                            "printed_at": timezone.localtime()}, paper=paper)
    return pdf_response(data, f"season-{season_id}.pdf")
