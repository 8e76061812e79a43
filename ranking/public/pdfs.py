"""The public PDFs, the standings and a published game's seating: where each is kept and how it is laid out, the
same for a reader's request (`web.public.printing`) and for the background refresh that lays the likely ones out
ahead (`ranking.refresh`). Each is kept once per results version, language and paper as asked (`core.pdf_cache`)."""
from collections.abc import Callable

from django.http import Http404
from django.utils.translation import get_language

from championships.models import Tournament
from core.pdf import paper_for
from core.pdf_cache import cached_pdf, pdf_key

from .. import printing
from .game import published_game

STANDINGS, SEATING = "standings", "seating"
"""The kinds of public PDF; a seating PDF is of one game (`number`)."""


def public_paper(tournament: Tournament, asked: str | None) -> str:
    """The paper `asked` for if it names one, else the usual paper of the championship's country."""
    country = tournament.championship.country if tournament.championship is not None else None
    return paper_for(asked, country.code if country else None)


def layout(tournament: Tournament, kind: str, number: int | None, asked: str) -> bytes:
    """The PDF in the active language (the tournament with `championship__country`); 404 for a seating of a game
    that is not published."""
    paper = public_paper(tournament, asked)
    if kind == STANDINGS:
        return printing.standings_pdf(tournament, paper)
    game = published_game(tournament, number or 0)
    if game is None:
        raise Http404("No published game with that number.")
    return printing.seating_pdf(tournament, game, paper)


def kept(tournament_id: int | None, kind: str, number: int | None, version: str, asked: str,
         laid_out: Callable[[], bytes]) -> bytes:
    """The PDF of `version` in the active language on the paper `asked` ("" for the usual one), from the cache when
    it is there, else `laid_out()` and kept."""
    return cached_pdf(pdf_key("public", [tournament_id, kind, number, version, get_language(), asked]), laid_out)
