"""API v1's operations: all GET, no login, every list paged (`http.MAX_PAGE_SIZE`).

A tournament's answers share its public pages' machinery (`ranking.live`): the ETag is made from its results
version, so a poll that finds nothing new is answered 304 before anything is read, and readers who are not signed
in are served from the page cache, one entry per results version, address and page. Unknown objects answer 404
`{"detail": …}`.
"""
from typing import Any

from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.http import require_GET
from ninja import NinjaAPI, P, PathEx, Query
from ninja.decorators import decorate_view
from ninja.errors import HttpError

from championships.api import tournament_json
from championships.models import Championship, Entry, Tournament
from core.site import absolute
from engines.boards.generator import decode_board
from ranking.live import cached_page, live_page
from ranking.public.championship import championship_page
from ranking.public.player import player_page
from ranking.selectors import podium
from ranking.standings import tournament_standings
from results.models import Announcement, RecordSheet
from results.selectors import game_seating
from scheduling.models import Game

from . import organizer, schemas
from .http import (
    MAX_ID,
    SLUG,
    JsonBodies,
    PageParams,
    Slug,
    conditional,
    cors,
    http_error,
    page_links,
    page_slice,
    paged,
    remembered,
)
from .links import with_links


class LinkedAPI(NinjaAPI):
    """Its OpenAPI document says which answer's values feed which request (`links.with_links`)."""

    def get_openapi_schema(self, *, path_prefix: str | None = None,
                           path_params: dict[str, Any] | None = None) -> Any:
        return with_links(super().get_openapi_schema(path_prefix=path_prefix, path_params=path_params))


api = LinkedAPI(
    title="CATAN tournaments", version="1", urls_namespace="api-v1", openapi_url="/openapi.json", docs_url="/docs",
    docs_decorator=lambda view: cors(require_GET(remembered(view))), parser=JsonBodies(),
    description="Public, read-only JSON of championships, tournaments, games, standings and players "
                "(docs/interfaces.md). Lists come in pages; a tournament's answers carry an ETag.",
)


@api.exception_handler(HttpError)
def _refused(request: HttpRequest, error: HttpError) -> HttpResponse:
    status, body = http_error(error)
    return api.create_response(request, body, status=status)


api.add_decorator(conditional, mode="view")
api.add_decorator(cors, mode="view")
api.add_router("/", organizer.router)

INVALID = {422: schemas.Error}
"""What every operation taking a parameter may answer: its path or query is not valid (a non-numeric id,
`?page_size=null`), in the one shape of a refusal."""
NOT_FOUND = {404: schemas.Error, **INVALID}
Number = PathEx[int, P(ge=1, le=MAX_ID, description="A whole number from 1; anything else answers 422.")]


def _number(value: str) -> object:
    """A paging parameter as the page cache keys it: a number as the number, anything else refused (422, never
    stored) and kept apart."""
    return int(value) if value.isascii() and value.isdigit() and len(value) < 6 else f"raw:{value[:20]}"


live = decorate_view(cached_page(uses={"page": _number, "page_size": _number}), live_page)
"""A tournament's answer: 304 while its results version is the reader's; cached for readers not signed in."""


def _tournament(slug: str) -> Tournament:
    tournament = Tournament.objects.select_related("championship").filter(slug=slug).first()
    if tournament is None:
        raise HttpError(404, "No tournament with that slug.")
    return tournament


@api.get("/", response=schemas.Index, url_name="index", summary="Where everything is")
def index(request: HttpRequest) -> dict[str, str]:
    def url(name: str) -> str:
        return absolute(reverse(f"api-v1:{name}"))
    return {"tournaments": url("tournaments"), "championships": url("championships"),
            "openapi": url("openapi-json"), "docs": url("openapi-view")}


@api.get("/championships/", response={200: schemas.ChampionshipPage, **INVALID}, url_name="championships",
         summary="Championships, latest year first")
def championships(request: HttpRequest, paging: Query[PageParams]) -> dict[str, Any]:
    return paged(request, Championship.objects.select_related("country"), paging, _championship)


def _championship(championship: Championship) -> dict[str, Any]:
    return {"slug": championship.slug, "name": championship.name, "scope": championship.scope,
            "country": championship.country.code if championship.country else None, "year": championship.year}


@api.get("/championships/{slug}/", response={200: schemas.ChampionshipDetail, **NOT_FOUND}, url_name="championship",
         summary="A championship: who its qualifiers sent on, the podiums, the champion")
def championship(request: HttpRequest, slug: Slug) -> dict[str, Any]:
    found = Championship.objects.select_related("country").filter(slug=slug).first()
    if found is None:
        raise HttpError(404, "No championship with that slug.")
    page = championship_page(found)
    return {**_championship(found),
            "qualifiers": [{"tournament": block.tournament.slug, "done": block.done,
                            "qualified": [{"player": e.player.name, "player_id": e.player_id} for e in block.qualified]}
                           for block in page.qualifiers],
            "finals": [{"tournament": t.slug, "podium": podium(t)}
                       for t in found.tournaments.exclude(kind=Tournament.Kind.QUALIFIER)],
            "champion": page.champion,
            "tournaments": absolute(reverse("api-v1:tournaments") + f"?championship={found.slug}")}


@api.get("/tournaments/", response={200: schemas.TournamentPage, **INVALID}, url_name="tournaments",
         summary="Tournaments in the order they happen (the objects of /api/tournaments/)")
def tournaments(request: HttpRequest, paging: Query[PageParams],
                championship: str | None = Query(None, pattern=SLUG),  # type: ignore[type-arg]  # ninja's idiom
                status: Tournament.Status | None = None) -> dict[str, Any]:
    """`championship`: only that championship's (its slug); `status`: only those in that state."""
    found = Tournament.objects.select_related("championship")
    if championship is not None:
        found = found.filter(championship__slug=championship)
    if status is not None:
        found = found.filter(status=status)
    return paged(request, found, paging, tournament_json)


@api.get("/tournaments/{slug}/", response={200: schemas.TournamentDetail, **NOT_FOUND}, url_name="tournament",
         summary="A tournament, its stages and venue")
@live
def tournament(request: HttpRequest, slug: Slug) -> dict[str, Any]:
    found = _tournament(slug)
    return {**tournament_json(found), "championship_slug": found.championship.slug if found.championship else None,
            "venue": found.venue, "official_start": found.official_start, "players": found.entries.count(),
            "stages": list(found.stages.values("order", "kind", "name", "games", "seating", "boards_per_table"))}


@api.get("/tournaments/{slug}/standings/", response={200: schemas.StandingsPage, **NOT_FOUND},
         url_name="standings", exclude_unset=True,
         summary="The standings, best first (the objects of /api/tournaments/<slug>/standings/)")
@live
def standings(request: HttpRequest, slug: Slug, paging: Query[PageParams]) -> dict[str, Any]:
    return paged(request, tournament_standings(_tournament(slug)), paging)


@api.get("/tournaments/{slug}/games/", response={200: schemas.GamePage, **NOT_FOUND}, url_name="games",
         summary="Its published games, with their boards and how many tables are signed off")
@live
def games(request: HttpRequest, slug: Slug, paging: Query[PageParams]) -> dict[str, Any]:
    found = (_tournament(slug).games.exclude(status=Game.Status.PLANNED).select_related("stage").order_by("number")
             .annotate(table_count=Count("tables", distinct=True),
                       signed_off=Count("tables", distinct=True,
                                        filter=Q(tables__sheet__status=RecordSheet.Status.SIGNED_OFF))))

    def shape(game: Any) -> dict[str, Any]:
        return {"number": game.number, "stage": game.stage.kind, "status": game.status,
                "board": None if game.stage.boards_per_table else game.board_code or None,
                "tables": game.table_count, "signed_off": game.signed_off,
                "seating": absolute(reverse("api-v1:seating", args=[slug, game.number]))}
    return paged(request, found, paging, shape)


@api.get("/tournaments/{slug}/games/{number}/seating/", response={200: schemas.Seating, **NOT_FOUND},
         url_name="seating", exclude_unset=True,
         summary="A published game's tables and seats (the object of /api/tournaments/<slug>/games/<n>/seating/)")
@live
def seating(request: HttpRequest, slug: Slug, number: Number, paging: Query[PageParams]) -> dict[str, Any]:
    """Tables in number order, a page at a time; seats in play order, with VP and the winner once signed off."""
    game = (Game.objects.select_related("stage", "tournament").exclude(status=Game.Status.PLANNED)
            .filter(tournament__slug=slug, number=number).first())
    if game is None:
        _tournament(slug)
        raise HttpError(404, "No published game with that number.")
    count = game.tables.count()
    page, pages, part = page_slice(count, paging)
    return {**game_seating(game, part), "count": count, "page": page, "pages": pages, "page_size": paging.page_size,
            **page_links(request, page, pages)}


@api.get("/tournaments/{slug}/players/", response={200: schemas.EntryPage, **NOT_FOUND}, url_name="players",
         summary="Its players by name")
@live
def players(request: HttpRequest, slug: Slug, paging: Query[PageParams]) -> dict[str, Any]:
    found = _tournament(slug).entries.select_related("player__country").order_by("player__sort_key", "pk")
    return paged(request, found, paging, _entry)


def _entry(entry: Entry) -> dict[str, Any]:
    return {"player_id": entry.player_id, "player": entry.player.name,
            "country": entry.player.country.code if entry.player.country else None, "status": entry.status}


@api.get("/tournaments/{slug}/players/{player_id}/", response={200: schemas.PlayerOut, **NOT_FOUND},
         url_name="player", summary="A player's public page: standing and every game")
@live
def player(request: HttpRequest, slug: Slug, player_id: Number) -> dict[str, Any]:
    page = player_page(_tournament(slug), player_id)
    if page is None:
        raise HttpError(404, "No such player in this tournament.")
    return {**_entry(page.entry), "tournament": slug, "qualification": page.status, "standing": page.row,
            "deductions": [{"vp": d.vp, "kind": d.kind, "deduction": d.deduction, "reason": d.reason, "game": d.game}
                           for d in page.deductions],
            "games": [{"game": g.game, "table": g.table, "position": g.position,
                       "opponents": [{"player": name, "player_id": pk, "namesake": namesake}
                                     for name, pk, namesake in g.opponents],
                       "signed_off": g.signed_off, "vp": g.vp, "winner": g.winner, "place": g.place,
                       "share": g.share, "rank_after": g.rank_after} for g in page.games]}


@api.get("/tournaments/{slug}/announcements/", response={200: schemas.AnnouncementPage, **NOT_FOUND},
         url_name="announcements", summary="What its officials announced, newest first")
@live
def announcements(request: HttpRequest, slug: Slug, paging: Query[PageParams]) -> dict[str, Any]:
    found = Announcement.objects.filter(tournament=_tournament(slug)).only("pk", "text", "created")
    return paged(request, found, paging, lambda a: {"id": a.pk, "text": a.text, "created": a.created})


@api.get("/boards/{code}/", response={200: schemas.BoardOut, **NOT_FOUND}, url_name="board",
         summary="A board from its code (as games and tables name it): hexes and harbours")
def board(request: HttpRequest, code: str) -> dict[str, Any]:
    try:
        return decode_board(code).to_json()
    except ValueError as error:
        raise HttpError(404, "No legal board with that code.") from error
