"""Public, read-only pages: live standings (with a CSV export of the same table)."""
from collections.abc import Iterable

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET

from championships.models import Tournament
from core.table_export import busy_limited, public_table_response
from ranking.columns import standings_columns
from ranking.final_table import final_table
from ranking.live import cached_page, live_page, request_version
from ranking.public.pages import PAGED, standings_html
from ranking.public.standings import places_needed
from ranking.standings import tournament_standings
from web.requests import HtmxHttpRequest

from .pages import address, page_number

CSV_HEADER = ["rank", "player", "country"]
"""Machine-readable keys, the same in every language (the pages are for people, the CSV for programs)."""
FINAL_HEADER = ["final_place", "final_vp"]
"""A finalist's place and VP at the final table, which decides places 1–4 (empty for the others)."""


@require_GET
@live_page
@cached_page(uses=PAGED)
def standings(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament.objects.select_related("championship"), slug=slug)
    return HttpResponse(standings_html(tournament, request_version(request, slug), address(request),
                                       page_number(request), request))


@busy_limited
@require_GET
def standings_csv(request: HtmxHttpRequest, slug: str, fmt: str = "csv") -> HttpResponse:
    """The standings table as the page shows it; with a final table, each finalist's place and VP there first.
    As CSV or (`fmt`) a workbook, kept per results version like the public PDFs."""
    def table() -> tuple[list[str], Iterable[list[object]]]:
        tournament = get_object_or_404(Tournament, slug=slug)
        standings = tournament_standings(tournament)
        columns = standings_columns(tournament.ruleset, standings)
        places = {c.key: places_needed(c, standings) for c in columns}
        final = FINAL_HEADER if final_table(tournament) else []
        header = [*CSV_HEADER, *final, *[c.key for c in columns], "tied"]
        rows = ([row["rank"], row["player"], row["country"] or "",
                 *([row["final"]["place"], row["final"]["vp"]] if row.get("final") else ["", ""])[:len(final)],
                 *[c.plain(row[c.key], places[c.key]) for c in columns], "true" if row["tied"] else "false"]
                for row in standings)
        return header, rows

    return public_table_response(request, fmt, f"{slug}-standings", lambda: request_version(request, slug), [],
                                 table)
