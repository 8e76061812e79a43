"""The public PDFs: the standings and a published game's seating, in the language of the address."""
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.views.decorators.http import require_GET

from championships.models import Tournament
from core.pdf import paper_for, pdf_response, render_pdf

from ..printing import seating_sheet
from ..public import public_standings, published_game


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("championship__country"), slug=slug)


def tournament_paper(request, tournament: Tournament) -> str:
    """`?paper=a4|letter`, else the usual paper of the championship's country."""
    country = tournament.championship.country if tournament.championship_id else None
    return paper_for(request.GET.get("paper"), country.code if country else None)


@require_GET
def standings_pdf(request, slug: str):
    tournament = _tournament(slug)
    data = render_pdf("print/standings.html", {
        "tournament": tournament, "standings": public_standings(tournament, per_page=None),
        "printed_at": timezone.localtime(),
    }, paper=tournament_paper(request, tournament))
    return pdf_response(data, f"{tournament.slug}-standings.pdf")


@require_GET
def seating_pdf(request, slug: str, number: int):
    tournament = _tournament(slug)
    game = published_game(tournament, number)
    if game is None:
        raise Http404("No published game with that number.")
    sheet = seating_sheet(tournament, game)
    data = render_pdf("print/seating.html", {"tournament": tournament, "game": game, "tables": sheet.tables,
                                             "alphabetical": sheet.alphabetical},
                      paper=tournament_paper(request, tournament))
    return pdf_response(data, f"{tournament.slug}-game-{number}-seating.pdf")
