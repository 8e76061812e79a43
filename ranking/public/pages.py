"""The public live pages rendered from what they show: the tournament, the results version they name and the address
they are read at, never from a request. The background refresh (`ranking.refresh`) calls these with the version it
renders and so stores what a reader's request renders (`web.public`), byte for byte; a reader's request is passed
along only for what a signed-in reader sees on every page (the sign-out form, a pending message)."""

from collections.abc import Callable
from dataclasses import dataclass

from django.http import HttpRequest
from django.template.loader import render_to_string

from championships.models import Tournament
from core.site import netloc
from scheduling.models import Game

from .. import live
from .game import game_page
from .overview import overview
from .player import PlayerPage
from .screen import screen_page
from .standings import public_standings
from .where import QUERY_MAX


def positive_number(value: str) -> int:
    """A page or part number as typed in the address; anything but a positive number is the first."""
    return int(value) if value.isascii() and value.isdigit() and 0 < len(value) < 6 and int(value) else 1


PAGED: dict[str, Callable[[str], object]] = {"page": positive_number}
"""What a page shown a page at a time reads of its query (`ranking.live.cached_page`'s `uses`)."""
PARTS: dict[str, Callable[[str], object]] = {"part": positive_number}
"""What the projector reads of its query: the part of a big game's seating."""


@dataclass(frozen=True)
class Address:
    """Where a page is read: the path its live region asks again, the query parameters it uses as it reads them
    (`ranking.live.page_query`), whether htmx asked for its live part, and the address as typed (`typed`, query
    included), which its language links keep."""

    path: str
    query: str = ""
    htmx: bool = False
    typed: str = ""

    @property
    def full_path(self) -> str:
        return self.typed or self.path


def _live(tournament: Tournament, version: str | None, at: Address, **context: object) -> dict[str, object]:
    """The page's context with what its live script needs: the version it shows and how often to ask."""
    return {"tournament": tournament, "version": version or "", "poll_seconds": live.POLL_SECONDS, "page_address": at,
            **context}


def overview_html(tournament: Tournament, version: str | None, at: Address, request: HttpRequest | None = None) -> str:
    return render_to_string("ranking/public/overview.html", _live(
        tournament, version, at, page=overview(tournament), query_max=QUERY_MAX), request=request)


def standings_html(tournament: Tournament, version: str | None, at: Address, page: int,
                   request: HttpRequest | None = None) -> str:
    """The page, or for htmx only its table (the live region)."""
    table = live.cached_fragment("standings", version, at.path, at.query, lambda: render_to_string(
        "ranking/standings_table.html", {"tournament": tournament, "standings": public_standings(tournament, page)}))
    if at.htmx:
        return table
    return render_to_string("ranking/standings.html", _live(tournament, version, at, standings_table=table),
                            request=request)


def game_html(tournament: Tournament, game: Game, version: str | None, at: Address, page: int,
              request: HttpRequest | None = None) -> str:
    """A published game's page (`ranking.public.game.published_game`)."""
    tables = live.cached_fragment("game", version, at.path, at.query, lambda: render_to_string(
        "ranking/public/_game_tables.html", {"tournament": tournament, "page": game_page(tournament, game, page)}))
    return render_to_string("ranking/public/game.html", _live(tournament, version, at, game=game, tables_html=tables),
                            request=request)


def player_html(tournament: Tournament, page: PlayerPage, version: str | None, at: Address,
                request: HttpRequest | None = None) -> str:
    return render_to_string("ranking/public/player.html", _live(tournament, version, at, page=page), request=request)


def screen_html(tournament: Tournament, version: str | None, at: Address, part: int,
                request: HttpRequest | None = None) -> str:
    return render_to_string("ranking/public/screen.html", _live(
        tournament, version, at, page=screen_page(tournament, part), site_host=netloc()), request=request)
