"""Who plays in a tournament: enter registered players in bulk, take entries out before seating, export."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from championships import people
from championships.permissions import organized_tournament
from core.csv_export import csv_response

from .. import rosters
from ..people_forms import search_query

MAX_SELECTED = 5000


def _ids(request) -> list[int]:
    """The checked rows' ids; anything that is not a whole number is ignored (the form only sends ids)."""
    values = request.POST.getlist("selected")[:MAX_SELECTED]
    return [int(v) for v in values if v.isascii() and v.isdigit() and len(v) < 12]


@login_required
def entry_list(request, slug: str):
    """Entered players (to remove before seating) and registered players not entered yet (to enter)."""
    tournament = organized_tournament(request.user, slug)
    query = search_query(request.GET)
    candidates = Paginator(rosters.players(tournament, query, "not_entered"), rosters.PER_PAGE)
    return render(request, "organize/entries.html", {
        "tournament": tournament, "entries": rosters.entries(tournament), "query": query,
        "candidates": candidates.get_page(request.GET.get("page")),
        "is_organizer": True})


@login_required
@require_POST
def entries_add(request, slug: str):
    tournament = organized_tournament(request.user, slug)
    if request.POST.get("all_matching"):
        ids = list(rosters.players(tournament, search_query(request.POST), "not_entered")
                   .values_list("pk", flat=True)[:MAX_SELECTED])
    else:
        ids = _ids(request)
    return _bulk(
        request, slug, ids,
        empty=_("Choose at least one player to enter."),
        apply=lambda: len(people.enter_selected(tournament, ids, user=request.user)),
        failed=_("Nobody was entered: %(problems)s"),
        done=lambda n: ngettext("%(n)d player entered.", "%(n)d players entered.", n))


@login_required
@require_POST
def entries_remove(request, slug: str):
    tournament = organized_tournament(request.user, slug)
    ids = _ids(request)
    return _bulk(
        request, slug, ids,
        empty=_("Choose at least one entry to remove."),
        apply=lambda: people.remove_entries(tournament, ids, user=request.user),
        failed=_("Nobody was removed: %(problems)s"),
        done=lambda n: ngettext("%(n)d entry removed.", "%(n)d entries removed.", n))


def _bulk(request, slug: str, ids: list[int], *, empty: str, apply, failed: str, done):
    """Run `apply` on the chosen rows (it returns how many changed) and say what happened, back on the list."""
    if not ids:
        messages.warning(request, empty)
    else:
        try:
            n = apply()
        except ValidationError as error:
            messages.error(request, failed % {"problems": " ".join(error.messages)})
        else:
            messages.success(request, done(n) % {"n": n})
    return redirect("organize-entries", slug=slug)


@login_required
def entries_csv(request, slug: str):
    tournament = organized_tournament(request.user, slug)
    rows = ([e.player.name, e.player.email, e.player.country.code if e.player.country else "", e.status,
             e.minutes_late, e.source_tournament.name if e.source_tournament else "", e.source_rank or ""]
            for e in rosters.entries(tournament, search_query(request.GET)).iterator(chunk_size=500))
    return csv_response(f"{tournament.slug}-entries.csv",
                        ["name", "email", "country", "status", "minutes_late", "qualified_from", "rank_in_qualifier"],
                        rows)
