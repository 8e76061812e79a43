"""The public PDFs: the standings and a published game's seating, in the language of the address.

Each is laid out once per results version, language and paper and then served from the cache
(`ranking.public.pdfs`): asked again, it costs a cache read; the likely ones are laid out ahead by the background
refresh (`ranking.refresh`), which is told here which ones readers ask for. A layout holds one of the client's slots
(`core.pdf_limits`): past them the view answers 429."""
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from championships.models import Tournament
from core.pdf import PAPERS, pdf_response
from core.pdf_limits import render_limited, render_slot
from ranking import refresh
from ranking.live import request_version, tournament_id
from ranking.public import pdfs
from web.requests import HtmxHttpRequest


def tournament_paper(request: HtmxHttpRequest, tournament: Tournament) -> str:
    """`?paper=a4|letter`, else the usual paper of the championship's country."""
    return pdfs.public_paper(tournament, request.GET.get("paper"))


def _public_pdf(request: HtmxHttpRequest, slug: str, kind: str, number: int | None) -> bytes:
    """The PDF, from the cache when this version's is there: a hit reads nothing from the database (the key holds
    the paper as asked; the version changes with the tournament and its championship)."""
    def laid_out() -> bytes:
        tournament = get_object_or_404(Tournament.objects.select_related("championship__country"), slug=slug)
        with render_slot(request):  # only a layout holds a slot, never a cache hit (core/pdf_limits.py)
            data = pdfs.layout(tournament, kind, number, asked)
        refresh.wanted_pdf(tournament.pk, kind, number, get_language(), asked)
        return data

    asked = request.GET.get("paper", "")
    asked = asked if asked in PAPERS else ""
    version = request_version(request, slug)
    if not version:
        return laid_out()
    return pdfs.kept(tournament_id(slug), kind, number, version, asked, laid_out)


@render_limited
@require_GET
def standings_pdf(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    return pdf_response(_public_pdf(request, slug, pdfs.STANDINGS, None), f"{slug}-standings.pdf")


@render_limited
@require_GET
def seating_pdf(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    return pdf_response(_public_pdf(request, slug, pdfs.SEATING, number), f"{slug}-game-{number}-seating.pdf")
