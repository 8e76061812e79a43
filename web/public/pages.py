"""Public pages of a tournament and a championship: overview, "where do I sit?", games, players, projector.

No login; every page works without JavaScript. Live pages answer 304 while nothing changed (`ranking.live`).
"""
import time

from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET

from championships.models import Championship, Tournament
from ranking import public
from ranking.live import POLL_SECONDS, SOON_SECONDS, cached_fragment, cached_page, live_page, request_version


def positive_number(value: str) -> int:
    """A page or part number as typed in the address; anything but a positive number is the first."""
    return int(value) if value.isascii() and value.isdigit() and 0 < len(value) < 6 and int(value) else 1


def page_number(request) -> int:
    """The `page` query parameter (see `positive_number`)."""
    return positive_number(request.GET.get("page", "1"))


def query_text(value: str) -> str:
    """The "where do I sit?" query as the search reads it."""
    return value.strip()[:public.QUERY_MAX]


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("championship"), slug=slug)


def _live(request, tournament: Tournament, **context) -> dict:
    """The page's context with what its live script needs: the version it shows and how often to ask."""
    return {"tournament": tournament, "version": request_version(request, tournament.slug) or "",
            "poll_seconds": POLL_SECONDS, **context}


@require_GET
@live_page
@cached_page
def overview(request, slug: str):
    tournament = _tournament(slug)
    page = public.overview(tournament)
    return render(request, "ranking/public/overview.html",
                  _live(request, tournament, page=page, query_max=public.QUERY_MAX))


@require_GET
@cached_page(uses={"q": query_text})
def where(request, slug: str):
    tournament = _tournament(slug)
    page = public.where(tournament, request.GET.get("q", ""))
    return render(request, "ranking/public/where.html",
                  {"tournament": tournament, "page": page, "query_max": public.QUERY_MAX})


@require_GET
@live_page
@cached_page(uses={"page": positive_number})
def game(request, slug: str, number: int):
    tournament = _tournament(slug)
    found = public.published_game(tournament, number)
    if found is None:
        raise Http404("No published game with that number.")
    tables = cached_fragment(request, "game", request_version(request, slug), lambda: render_to_string(
        "ranking/public/_game_tables.html",
        {"tournament": tournament, "page": public.game_page(tournament, found, page_number(request))}))
    return render(request, "ranking/public/game.html", _live(request, tournament, game=found, tables_html=tables))


@require_GET
@live_page
@cached_page
def player(request, slug: str, player_id: int):
    tournament = _tournament(slug)
    page = public.player_page(tournament, player_id)
    if page is None:
        raise Http404("No such player in this tournament.")
    return render(request, "ranking/public/player.html", _live(request, tournament, page=page))


@require_GET
@live_page
@cached_page(uses={"part": positive_number})
def screen(request, slug: str):
    tournament = _tournament(slug)
    page = public.screen_page(tournament, positive_number(request.GET.get("part", "1")))
    return render(request, "ranking/public/screen.html", _live(request, tournament, page=page))


def _poll_state(request, slug: str) -> str | None:
    """The version and whether a newer one is coming: what the poll's answer (and so its ETag) depends on."""
    current = request_version(request, slug)
    return None if current is None else f"{current}{'+' if request.newer_coming else ''}"


@require_GET
@live_page(version=_poll_state)
def version(request, slug: str):
    """What the live pages poll: the results version, 304 while it is the one they hold; `coming` while a newer
    version's pages are being made (the page then asks again in SOON_SECONDS, not POLL_SECONDS); and the server's
    time (`now`, ms since 1970), which the map-study clock asks for uncached because a cached page's is stale."""
    current = request_version(request, slug)
    if current is None and not Tournament.objects.filter(slug=slug).exists():
        raise Http404("No tournament with that slug.")
    return JsonResponse({"version": current or "", "coming": request.newer_coming, "soon": SOON_SECONDS,
                         "now": int(time.time() * 1000)})


@require_GET
def championship(request, championship_slug: str):
    page = public.championship_page(get_object_or_404(Championship, slug=championship_slug))
    return render(request, "ranking/public/championship.html", {"page": page, "championship": page.championship})

