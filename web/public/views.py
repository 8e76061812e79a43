"""The public ratings across events: everyone rated (`/ratings/`, filtered by country and championship, searched by
name, paged, and as CSV) and one player's events, games and rating history (`/ratings/players/<id>/`).

No login and no JavaScript. The pages' content is cached per ratings version, language, address and the query
parameters they read (`ranking.live.cached_fragment`), and their ETag comes from the same version, so an unchanged
page is answered 304. A player who is not listed is not shown to the public; their organizers see their page
with a note saying so.
"""
import hashlib
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlencode

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language
from django.views.decorators.http import condition, require_GET

from championships.permissions import visible_players
from core.table_export import busy_limited, public_table_response
from engines.ratings import PROVISIONAL_GAMES
from ranking.live import cached_fragment
from ratings.selectors import Filters, PlayerHistory, player_history, ratings_page, ratings_rows
from ratings.version import ratings_version
from web.requests import HtmxHttpRequest

from .chart import history_chart
from .pages import page_number

LIST_CSV_HEADER = ["rank", "player_id", "player", "country", "ordinal", "mu", "sigma", "games", "provisional"]
GAMES_CSV_HEADER = ["tournament", "date", "game", "table", "place", "players", "ordinal", "change"]
"""Machine-readable keys, the same in every language (the pages are for people, the CSVs for programs)."""


def _etag(request: HtmxHttpRequest, *args: Any, **kwargs: Any) -> str | None:
    """Same ratings version, language, address and account: the same page."""
    version = ratings_version()
    if version is None:
        return None
    user = request.user.pk if request.user.is_authenticated else 0
    parts = [version, get_language() or "", request.path, request.GET.urlencode(), str(user)]
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:32]


def _cached(request: HtmxHttpRequest, name: str, uses: dict[str, str],
            render_page: Callable[[], HttpResponse]) -> HttpResponse:
    """The page rendered once per ratings version, language, address and the query values it reads (`uses`), for
    readers who are not signed in and have no message waiting (the page then holds nothing personal); others get
    it rendered for them."""
    if request.user.is_authenticated or "messages" in request.COOKIES:
        return render_page()
    query = urlencode(sorted((k, v) for k, v in uses.items() if v))
    return HttpResponse(cached_fragment(name, ratings_version(), request.path, query,
                                        lambda: render_page().content.decode()))


def _context(**context: object) -> dict[str, Any]:
    return {"provisional_games": PROVISIONAL_GAMES, **context}


@require_GET
@condition(etag_func=_etag)
def ratings(request: HtmxHttpRequest) -> HttpResponse:
    filters = Filters.from_query(request.GET)
    number = page_number(request)
    return _cached(request, "ratings", {**filters.as_params(), "page": str(number)}, lambda: render(
        request, "public/ratings.html",
        _context(page=ratings_page(filters, number), query=urlencode(filters.as_params()))))


@busy_limited
@require_GET
def ratings_csv(request: HtmxHttpRequest, fmt: str = "csv") -> HttpResponse:
    """Everyone the page's filters keep, in rank order (all pages); the workbook kept per ratings version."""
    filters = Filters.from_query(request.GET)

    def table() -> tuple[list[str], Iterable[list[object]]]:
        return LIST_CSV_HEADER, ([r.rank, r.player_id, r.name, r.country.code if r.country else "",
                                  f"{r.ordinal:.6f}", f"{r.mu:.6f}", f"{r.sigma:.6f}", r.games,
                                  "yes" if r.provisional else "no"] for r in ratings_rows(filters))

    return public_table_response(request, fmt, "ratings", ratings_version, [urlencode(filters.as_params())],
                                 table)


def _history(request: HtmxHttpRequest, player_id: int, page: int | None) -> tuple[PlayerHistory, bool]:
    """The player's history for this reader, and whether the player is hidden from the public: a player who is not
    listed is shown only to a user who may read their personal data (their organizers)."""
    history = player_history(player_id, page)
    if history is not None:
        return history, False
    if request.user.is_authenticated and visible_players(request.user).filter(pk=player_id).exists():
        history = player_history(player_id, page, include_unlisted=True)
        if history is not None:
            return history, True
    raise Http404("No rated player with that number.")


@require_GET
@condition(etag_func=_etag)
def player(request: HtmxHttpRequest, player_id: int) -> HttpResponse:
    number = page_number(request)

    def render_page() -> HttpResponse:
        history, hidden = _history(request, player_id, number)
        first_shown = history.row.games - len(history.chart) + 1
        return render(request, "public/player.html", _context(
            history=history, hidden=hidden, chart=history_chart(history.chart, first_shown)))

    return _cached(request, "rated-player", {"page": str(number)}, render_page)


@busy_limited
@require_GET
def player_csv(request: HtmxHttpRequest, player_id: int, fmt: str = "csv") -> HttpResponse:
    """Every rated game of the player, latest first (all pages). The workbook's key names the reader's account: a
    player hidden from the public is read (and kept) only for their organizers."""
    def table() -> tuple[list[str], Iterable[list[object]]]:
        history, _hidden = _history(request, player_id, None)
        return GAMES_CSV_HEADER, ([g.tournament_slug, g.tournament_date.isoformat() if g.tournament_date else "",
                                   g.game, g.table, g.place, g.players, f"{g.ordinal:.6f}", f"{g.change:.6f}"]
                                  for g in history.games)

    reader = request.user.pk if request.user.is_authenticated else 0
    return public_table_response(request, fmt, f"rating-{player_id}", ratings_version, [reader], table)
