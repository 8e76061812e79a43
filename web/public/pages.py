"""Public pages of a tournament and a championship: overview, "where do I sit?", games, players, projector.

No login; every page works without JavaScript. Live pages answer 304 while nothing changed (`ranking.live`).
"""

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from championships.models import Championship, Tournament
from ranking.live import cached_page, live_page, poll_answer, poll_state, request_version
from ranking.public import pages
from ranking.public.championship import championship_page
from ranking.public.game import published_game
from ranking.public.pages import PAGED, PARTS, Address, positive_number
from ranking.public.player import player_page
from ranking.public.where import QUERY_MAX
from ranking.public.where import where as find_seats
from web.requests import HtmxHttpRequest


def page_number(request: HtmxHttpRequest) -> int:
    """The `page` query parameter (see `ranking.public.pages.positive_number`)."""
    return positive_number(request.GET.get("page", "1"))


def query_text(value: str) -> str:
    """The "where do I sit?" query as the search reads it."""
    return value.strip()[:QUERY_MAX]


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("championship"), slug=slug)


def address(request: HtmxHttpRequest) -> Address:
    """Where the request reads its page (`ranking.public.pages` renders from it, never from the request)."""
    return Address(request.path, request.page_query, bool(request.htmx), request.get_full_path())


@require_GET
@live_page
@cached_page
def overview(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    return HttpResponse(pages.overview_html(_tournament(slug), request_version(request, slug), address(request),
                                            request))


@require_GET
@cached_page(uses={"q": query_text})
def where(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    page = find_seats(tournament, request.GET.get("q", ""))
    return render(request, "ranking/public/where.html",
                  {"tournament": tournament, "page": page, "query_max": QUERY_MAX})


@require_GET
@live_page
@cached_page(uses=PAGED)
def game(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = _tournament(slug)
    found = published_game(tournament, number)
    if found is None:
        raise Http404("No published game with that number.")
    return HttpResponse(pages.game_html(tournament, found, request_version(request, slug), address(request),
                                        page_number(request), request))


@require_GET
@live_page
@cached_page
def player(request: HtmxHttpRequest, slug: str, player_id: int) -> HttpResponse:
    tournament = _tournament(slug)
    page = player_page(tournament, player_id)
    if page is None:
        raise Http404("No such player in this tournament.")
    return HttpResponse(pages.player_html(tournament, page, request_version(request, slug), address(request),
                                          request))


@require_GET
@live_page
@cached_page(uses=PARTS)
def screen(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    return HttpResponse(pages.screen_html(_tournament(slug), request_version(request, slug), address(request),
                                          positive_number(request.GET.get("part", "1")), request))


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

