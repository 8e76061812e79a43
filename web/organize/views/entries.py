"""Who plays in a tournament: enter registered players in bulk, take entries out before seating, export."""
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from championships import people, rosters
from championships.foreign_players import FINDS
from championships.models import Tournament
from championships.permissions import organized_tournament
from core.table_export import table_response
from web.organize.people_forms import FindPlayerForm, search_query
from web.requests import HtmxHttpRequest

if TYPE_CHECKING:
    from collections.abc import Iterator

    from django_stubs_ext import WithAnnotations

    from championships.models import Entry

MAX_SELECTED = 5000


def _ids(request: HtmxHttpRequest) -> list[int]:
    """The checked rows' ids; anything that is not a whole number is ignored (the form only sends ids)."""
    values = request.POST.getlist("selected")[:MAX_SELECTED]
    return [int(v) for v in values if v.isascii() and v.isdigit() and len(v) < 12]


@login_required
def entry_list(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Entered players (to remove before seating), players of the organizer's other tournaments not entered yet
    (to enter), and the form entering a player of another championship by exact email, or name and date of birth
    (a POST: each try is a counted, logged lookup, `championships.foreign_players`)."""
    tournament = organized_tournament(request.user, slug)
    query = search_query(request.GET)
    candidates = Paginator(rosters.players(tournament, request.user, query, "not_entered"), rosters.PER_PAGE)
    entries = list(rosters.entries(tournament, request.user))
    rosters.tell_apart(entries, "player", user=request.user)
    return render(request, "organize/entries.html", {
        "tournament": tournament, "entries": entries, "query": query,
        "candidates": candidates.get_page(request.GET.get("page")), "find_form": FindPlayerForm(),
        "finds_per_hour": FINDS.limit, "is_organizer": True})


@login_required
@require_POST
def entries_add(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = organized_tournament(request.user, slug)
    if any(request.POST.get(key) for key in FindPlayerForm.base_fields):
        return _enter_found(request, tournament)
    if request.POST.get("all_matching"):
        ids = list(rosters.players(tournament, request.user, search_query(request.POST), "not_entered")
                   .values_list("pk", flat=True)[:MAX_SELECTED])
    else:
        ids = _ids(request)
    return _bulk(
        request, slug, ids,
        empty=_("Choose at least one player to enter."),
        apply=lambda: len(people.enter_selected(tournament, ids, user=request.user)),
        failed=_("Nobody was entered: %(problems)s"),
        done=lambda n: ngettext("%(n)d player entered.", "%(n)d players entered.", n))


def _enter_found(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    form = FindPlayerForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Nobody was entered: %(problems)s")
                       % {"problems": " ".join(str(m) for ms in form.errors.values() for m in ms)})
        return redirect("organize-entries", slug=tournament.slug)
    data = form.cleaned_data
    try:
        entry, invited = people.enter_found(tournament, user=request.user, email=data["email"], name=data["name"],
                                            born=data["born"])
    except ValidationError as error:
        messages.error(request, _("Nobody was entered: %(problems)s") % {"problems": " ".join(error.messages)})
    else:
        messages.success(request, _("%(player)s entered. They play in another championship: they are asked to "
                                    "confirm, and until they do you see only what you typed.")
                         % {"player": entry.player.name} if invited
                         else _("%(player)s entered.") % {"player": entry.player.name})
    return redirect("organize-entries", slug=tournament.slug)


@login_required
@require_POST
def entries_remove(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = organized_tournament(request.user, slug)
    ids = _ids(request)
    return _bulk(
        request, slug, ids,
        empty=_("Choose at least one entry to remove."),
        apply=lambda: people.remove_entries(tournament, ids, user=request.user),
        failed=_("Nobody was removed: %(problems)s"),
        done=lambda n: ngettext("%(n)d entry removed.", "%(n)d entries removed.", n))


def _bulk(request: HtmxHttpRequest, slug: str, ids: list[int], *, empty: str, apply: Callable[[], int], failed: str,
          done: Callable[[int], str]) -> HttpResponse:
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
def entries_csv(request: HtmxHttpRequest, slug: str, fmt: str = "csv") -> HttpResponse:
    tournament = organized_tournament(request.user, slug)
    entries = cast("Iterator[WithAnnotations[Entry, rosters.ShownEntry]]",
                   rosters.entries(tournament, request.user, search_query(request.GET)).iterator(chunk_size=500))
    rows = ([e.player.name, e.shown_email, e.player.country.code if e.player.country else "", e.status,
             e.minutes_late, e.source_tournament.name if e.source_tournament else "", e.source_rank or "",
             "yes" if e.awaiting else "no"] for e in entries)
    return table_response(fmt, f"{tournament.slug}-entries",
                          ["name", "email", "country", "status", "minutes_late", "qualified_from", "rank_in_qualifier",
                           "awaiting_player"], rows)
