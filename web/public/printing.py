"""The public PDFs: the standings and a published game's seating, in the language of the address.

Each is laid out once per results version, language and paper and then served from the cache (`core.pdf_cache`):
asked again, it costs a cache read; the likely ones are laid out ahead by the background refresh
(`ranking.refresh`), which is told here which ones readers ask for. A layout holds one of the client's slots
(`core.pdf_limits`): past them the view answers 429."""
from collections.abc import Callable

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from championships.models import Tournament
from core.pdf import PAPERS, paper_for, pdf_response
from core.pdf_cache import cached_pdf, pdf_key
from core.pdf_limits import render_limited, render_slot
from ranking import printing, refresh
from ranking.live import request_version, tournament_id
from ranking.public.game import published_game
from web.requests import HtmxHttpRequest


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("championship__country"), slug=slug)


def tournament_paper(request: HtmxHttpRequest, tournament: Tournament) -> str:
    """`?paper=a4|letter`, else the usual paper of the championship's country."""
    country = tournament.championship.country if tournament.championship is not None else None
    return paper_for(request.GET.get("paper"), country.code if country else None)


def _public_pdf(request: HtmxHttpRequest, slug: str, kind: str, number: int | None,
                layout: Callable[[Tournament, str], bytes]) -> bytes:
    """The PDF `layout(tournament, paper)` lays out, from the cache when this version's is there: a hit reads
    nothing from the database (the key holds the paper as asked; the version changes with the tournament and its
    championship)."""
    def laid_out() -> bytes:
        tournament = _tournament(slug)
        with render_slot(request):  # only a layout holds a slot, never a cache hit (core/pdf_limits.py)
            data = layout(tournament, tournament_paper(request, tournament))
        if not getattr(request, "from_refresh", False):
            refresh.wanted_pdf(tournament.pk, request.path + (f"?paper={asked}" if asked else ""))
        return data

    asked = request.GET.get("paper", "")
    asked = asked if asked in PAPERS else ""
    version = request_version(request, slug)
    if not version:
        return laid_out()
    return cached_pdf(pdf_key("public", [tournament_id(slug), kind, number, version, get_language(), asked]),
                      laid_out)


@render_limited
@require_GET
def standings_pdf(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    def layout(tournament: Tournament, paper: str) -> bytes:
        return printing.standings_pdf(tournament, paper)

    return pdf_response(_public_pdf(request, slug, "standings", None, layout), f"{slug}-standings.pdf")


@render_limited
@require_GET
def seating_pdf(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    def layout(tournament: Tournament, paper: str) -> bytes:
        game = published_game(tournament, number)
        if game is None:
            raise Http404("No published game with that number.")
        return printing.seating_pdf(tournament, game, paper)

    return pdf_response(_public_pdf(request, slug, "seating", number, layout), f"{slug}-game-{number}-seating.pdf")
