"""The organizer's PDFs: table cards, record sheets (pre-filled and blank), result slips, the qualification list
and the certificates. Each is laid out in the request, once per content (`_laid_out`); a whole game's cards or
sheets also run as a print job (printing/jobs.py). A layout holds one of the organizer's slots
(`core.pdf_limits`): past them the view answers 429."""
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from championships.permissions import organized_tournament
from core.pdf import html_for, pdf_response, render_pdf
from core.pdf_cache import cached_pdf, pdf_key
from core.pdf_limits import render_limited, render_slot
from printing import documents
from printing.documents import blank_tables, game_context, game_of, game_tables, qualification_list
from ranking.selectors import podium
from web.public.printing import tournament_paper
from web.requests import HtmxHttpRequest

BLANK_SHEETS_MAX = 50


def _laid_out(request: HtmxHttpRequest, template: str, context: dict[str, Any], *, paper: str,
              landscape: bool = False) -> bytes:
    """The PDF from the cache when the same content was laid out before: the key is a digest of the HTML it
    prints (seats swapped in a planned game change it without a new results version), in a namespace no public
    PDF shares; the views check the organizer's permission first. A layout holds one of the organizer's slots."""
    key = pdf_key("organizer", [html_for(template, context), paper, landscape])

    def layout() -> bytes:
        with render_slot(request):
            return render_pdf(template, context, paper=paper, landscape=landscape)

    return cached_pdf(key, layout)


def _game_pdf(request: HtmxHttpRequest, slug: str, number: int, kind: str, suffix: str) -> HttpResponse:
    tournament = organized_tournament(request.user, slug)
    game = game_of(tournament, number)
    tables = game_tables(tournament, game)
    data = _laid_out(request, documents.GAME_TEMPLATES[kind], game_context(kind, tournament, game, tables),
                     paper=tournament_paper(request, tournament))
    return pdf_response(data, f"{tournament.slug}-game-{number}-{suffix}.pdf")


@render_limited
@login_required
@require_GET
def table_cards(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    return _game_pdf(request, slug, number, "table_cards", "table-cards")


@render_limited
@login_required
@require_GET
def record_sheets(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    return _game_pdf(request, slug, number, "record_sheets", "record-sheets")


@render_limited
@login_required
@require_GET
def result_slips(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    return _game_pdf(request, slug, number, "result_slips", "result-slips")


@render_limited
@login_required
@require_GET
def blank_sheets(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Record sheets without names or table number, for walk-in tables (`?count=`, 1–50, default 4)."""
    tournament = organized_tournament(request.user, slug)
    asked = request.GET.get("count", "4")
    count = min(int(asked), BLANK_SHEETS_MAX) if asked.isascii() and asked.isdigit() and len(asked) < 4 else 4
    data = _laid_out(request, "print/record_sheets.html", {"tournament": tournament, "game": None,
                                                           "tables": blank_tables(max(count, 1))},
                     paper=tournament_paper(request, tournament))
    return pdf_response(data, f"{tournament.slug}-blank-record-sheets.pdf")


@render_limited
@login_required
@require_GET
def qualification_pdf(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = organized_tournament(request.user, slug)
    data = _laid_out(request, "print/qualification.html",
                     {"tournament": tournament, "data": qualification_list(tournament)},
                     paper=tournament_paper(request, tournament))
    return pdf_response(data, f"{tournament.slug}-qualification.pdf")


@render_limited
@login_required
@require_GET
def certificates(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """One certificate per podium place (the champion first), once the podium is known (`podium`)."""
    tournament = organized_tournament(request.user, slug)
    rows = podium(tournament)
    if not rows:
        raise Http404(_("The podium is known once every game of the last stage is signed off or the tournament "
                        "is closed."))
    data = _laid_out(request, "print/certificates.html",
                     {"tournament": tournament, "certificates": documents.certificates(rows)},
                     paper=tournament_paper(request, tournament), landscape=True)
    return pdf_response(data, f"{tournament.slug}-certificates.pdf")
