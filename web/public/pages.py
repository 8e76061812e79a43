"""Public pages of a tournament and a championship: overview, "where do I sit?", games, players, projector.

No login; every page works without JavaScript. Live pages answer 304 while nothing changed (`ranking.live`).
"""

from typing import Any

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET

from championships.models import Championship, Tournament
from core.site import netloc
from ranking.live import POLL_SECONDS, cached_fragment, cached_page, live_page, poll_answer, poll_state, request_version
from ranking.public.championship import championship_page
from ranking.public.game import game_page, published_game
from ranking.public.overview import overview as tournament_overview
from ranking.public.player import player_page
from ranking.public.screen import screen_page
from ranking.public.where import QUERY_MAX
from ranking.public.where import where as find_seats
from web.requests import HtmxHttpRequest


def positive_number(value: str) -> int:
    """A page or part number as typed in the address; anything but a positive number is the first."""
    return int(value) if value.isascii() and value.isdigit() and 0 < len(value) < 6 and int(value) else 1


def page_number(request: HtmxHttpRequest) -> int:
    """The `page` query parameter (see `positive_number`)."""
    return positive_number(request.GET.get("page", "1"))


def query_text(value: str) -> str:
    """The "where do I sit?" query as the search reads it."""
    return value.strip()[:QUERY_MAX]


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("championship"), slug=slug)


def _live(request: HtmxHttpRequest, tournament: Tournament, **context: object) -> dict[str, Any]:
    """The page's context with what its live script needs: the version it shows and how often to ask."""
    return {"tournament": tournament, "version": request_version(request, tournament.slug) or "",
            "poll_seconds": POLL_SECONDS, **context}


@require_GET
@live_page
@cached_page
def overview(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    page = tournament_overview(tournament)
    return render(request, "ranking/public/overview.html",
                  _live(request, tournament, page=page, query_max=QUERY_MAX))


@require_GET
@cached_page(uses={"q": query_text})
def where(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    page = find_seats(tournament, request.GET.get("q", ""))
    return render(request, "ranking/public/where.html",
                  {"tournament": tournament, "page": page, "query_max": QUERY_MAX})


@require_GET
@live_page
@cached_page(uses={"page": positive_number})
def game(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = _tournament(slug)
    found = published_game(tournament, number)
    if found is None:
        raise Http404("No published game with that number.")
    tables = cached_fragment(request, "game", request_version(request, slug), lambda: render_to_string(
        "ranking/public/_game_tables.html",
        {"tournament": tournament, "page": game_page(tournament, found, page_number(request))}))
    return render(request, "ranking/public/game.html", _live(request, tournament, game=found, tables_html=tables))


@require_GET
@live_page
@cached_page
def player(request: HtmxHttpRequest, slug: str, player_id: int) -> HttpResponse:
    tournament = _tournament(slug)
    page = player_page(tournament, player_id)
    if page is None:
        raise Http404("No such player in this tournament.")
    return render(request, "ranking/public/player.html", _live(request, tournament, page=page))


@require_GET
@live_page
@cached_page(uses={"part": positive_number})
def screen(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    page = screen_page(tournament, positive_number(request.GET.get("part", "1")))
    return render(request, "ranking/public/screen.html", _live(request, tournament, page=page, site_host=netloc()))


@require_GET
@live_page(version=poll_state(request_version))
def version(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """What the live pages poll (`ranking.live.poll_answer`): the results version, 304 while it is the one they
    hold."""
    return poll_answer(request, slug, request_version(request, slug))


@require_GET
def championship(request: HtmxHttpRequest, championship_slug: str) -> HttpResponse:
    page = championship_page(get_object_or_404(Championship, slug=championship_slug))
    return render(request, "ranking/public/championship.html", {"page": page, "championship": page.championship})

