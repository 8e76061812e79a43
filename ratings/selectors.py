"""Reading the ratings for the pages and the API: the list (filtered, searched, paged) and one player's history.

Only players who are listed (`Player.listed`) appear to the public; a rank counts listed players only, so hiding
one moves the players below up. Each read is a fixed number of queries, whatever the number of players or games.
"""
import bisect
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import date
from typing import NamedTuple

from django.core.paginator import Paginator
from django.db.models import Exists, OuterRef, QuerySet

from championships.models import Championship, Country, Player, Tournament
from core.names import fold
from engines.ratings import PROVISIONAL_GAMES, Z

from .models import PlayerRating, RatedTable, RatingChange

PAGE_SIZE = 50
"""Players a page of the list (and of the API) shows."""
HISTORY_PAGE_SIZE = 50
"""Games a page of a player's history shows."""
CHART_GAMES = 500
"""The chart draws at most the player's last this many games."""
QUERY_MAX = 100
"""The longest name search taken (the form's maxlength)."""


def _listed() -> QuerySet[PlayerRating]:
    return PlayerRating.objects.filter(player__listed=True)


class Ranker:
    """A listed rating's rank: 1 + how many listed players have a higher ordinal (equal ordinals share a rank).
    Reads every listed ordinal once (one query of floats), so a page or a whole CSV is ranked in that one query."""

    def __init__(self) -> None:
        self._ordinals = sorted(_listed().values_list("ordinal", flat=True))

    def __call__(self, ordinal: float) -> int:
        return len(self._ordinals) - bisect.bisect_right(self._ordinals, ordinal) + 1


@dataclass(frozen=True)
class Filters:
    country: str = ""
    """An ISO code."""
    championship: str = ""
    """A championship's slug: players who played a rated game in one of its tournaments."""
    query: str = ""
    """Part of a name, compared as `core.names.fold` compares names."""

    @classmethod
    def from_query(cls, params) -> "Filters":
        country = params.get("country", "").strip().upper()
        return cls(country=country if len(country) == 2 and country.isalpha() and country.isascii() else "",
                   championship=params.get("championship", "").strip()[:50],
                   query=params.get("q", "").strip()[:QUERY_MAX])

    def as_params(self) -> dict[str, str]:
        return {k: v for k, v in (("country", self.country), ("championship", self.championship),
                                  ("q", self.query)) if v}


@dataclass(frozen=True)
class Row:
    rank: int | None
    """None for a player who is not listed (shown to their organizers only)."""
    player_id: int
    name: str
    country: Country | None
    ordinal: float
    mu: float
    sigma: float
    games: int

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    def as_json(self) -> dict:
        return {"rank": self.rank, "player_id": self.player_id, "player": self.name,
                "country": self.country.code if self.country else None, "ordinal": self.ordinal, "mu": self.mu,
                "sigma": self.sigma, "games": self.games, "provisional": self.provisional}


@dataclass(frozen=True)
class RatingsPage:
    rows: list[Row]
    number: int
    pages: int
    count: int
    filters: Filters
    countries: list[Country]
    championships: list[Championship]


def _rows(ratings: Iterable[PlayerRating], rank: Callable[[float], int | None]) -> Iterator[Row]:
    """`ratings` with their players and countries loaded."""
    for r in ratings:
        yield Row(rank(r.ordinal), r.player_id, r.player.name, r.player.country, r.ordinal, r.mu, r.sigma, r.games)


def _filtered(filters: Filters) -> QuerySet[PlayerRating]:
    """The listed players the filters keep, best first."""
    ratings = _listed()
    if filters.country:
        ratings = ratings.filter(player__country__code=filters.country)
    if filters.championship:
        ratings = ratings.filter(Exists(RatingChange.objects.filter(
            player=OuterRef("player"), table__tournament__championship__slug=filters.championship)))
    if filters.query and (folded := fold(filters.query)):
        ratings = ratings.filter(player__search_name__contains=folded)
    return ratings.select_related("player__country").order_by("-ordinal", "player_id")


def ratings_rows(filters: Filters) -> Iterator[Row]:
    """Every listed player the filters keep, best first, with their overall rank (the CSV)."""
    return _rows(_filtered(filters).iterator(chunk_size=2_000), Ranker())  # _filtered loads players, countries


def ratings_page(filters: Filters, page: int = 1, *, with_choices: bool = True) -> RatingsPage:
    """A page of the listed players, best first, with their overall rank; the filters' choices when asked."""
    paginator = Paginator(_filtered(filters), PAGE_SIZE)
    current = paginator.get_page(page)
    countries, championships = [], []
    if with_choices:
        countries = list(Country.objects.filter(Exists(_listed().filter(player__country=OuterRef("pk")))))
        rated = RatedTable.objects.values("tournament_id")
        championships = list(Championship.objects.filter(
            Exists(Tournament.objects.filter(championship=OuterRef("pk"), pk__in=rated))))
    return RatingsPage(list(_rows(current.object_list, Ranker())), current.number, paginator.num_pages,
                       paginator.count, filters, countries, championships)


@dataclass(frozen=True)
class Game:
    tournament_name: str
    tournament_slug: str
    tournament_date: date | None
    game: int
    table: int
    place: int
    players: int
    ordinal: float
    change: float
    """The ordinal's change at this game."""

    def as_json(self) -> dict:
        return {"tournament": self.tournament_slug, "date": self.tournament_date.isoformat()
                if self.tournament_date else None, "game": self.game, "table": self.table, "place": self.place,
                "players": self.players, "ordinal": self.ordinal, "change": self.change}


@dataclass(frozen=True)
class Event:
    name: str
    slug: str
    date: date | None
    games: int
    wins: int
    change: float
    """The ordinal's change over the event's games."""


@dataclass(frozen=True)
class PlayerHistory:
    player: Player
    row: Row
    games: list[Game]
    """One page, latest first."""
    number: int
    pages: int
    count: int
    events: list[Event]
    """Every rated event, latest first."""
    chart: list[tuple[float, float]]
    """(ordinal, mu) after each game, oldest first: the last CHART_GAMES games."""


def player_rating(player_id: int, *, include_unlisted: bool = False) -> Row | None:
    """The player's rating row, None if they have none. Looked up through `player__pk`: a number from the address
    beyond a 64-bit integer then finds no one, where `player_id=` reached SQLite as is and overflowed."""
    ratings = PlayerRating.objects.filter(player__pk=player_id)
    if not include_unlisted:
        ratings = ratings.filter(player__listed=True)
    rating = ratings.select_related("player__country").first()
    if rating is None:
        return None
    return next(_rows([rating], Ranker() if rating.player.listed else lambda _ordinal: None))


def _ordinal(mu: float, sigma: float) -> float:
    return mu - Z * sigma


class _Change(NamedTuple):
    key: str
    tournament: int
    name: str
    slug: str
    day: date | None
    game: int
    table: int
    place: int
    result: str
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return _ordinal(self.mu, self.sigma)


def player_history(player_id: int, page: int | None = 1, *, include_unlisted: bool = False) -> PlayerHistory | None:
    """The player's rating, their events, the chart's points and one page of their games (latest first; `page`
    None: all of them on one page); None when they have no rating (or are not listed and `include_unlisted` is
    off). A handful of queries."""
    row = player_rating(player_id, include_unlisted=include_unlisted)
    if row is None:
        return None
    history = [_Change._make(row) for row in RatingChange.objects.filter(player_id=player_id).order_by("table_id")
               .values_list("table_id", "table__tournament_id", "table__tournament__name", "table__tournament__slug",
                            "table__tournament__date", "table__game_number", "table__table_number", "place",
                            "table__result", "mu_before", "sigma_before", "mu", "sigma")]
    paginator = Paginator(history[::-1], HISTORY_PAGE_SIZE if page is not None else max(len(history), 1))
    current = paginator.get_page(page or 1)
    games = [Game(c.name, c.slug, c.day, c.game, c.table, c.place, c.result.count(",") + 1, c.ordinal,
                  c.ordinal - _ordinal(c.mu_before, c.sigma_before)) for c in current.object_list]
    by_event: dict[int, list[_Change]] = {}
    for change in history:
        by_event.setdefault(change.tournament, []).append(change)
    events = [Event(first.name, first.slug, first.day, len(changes), sum(1 for c in changes if c.place == 1),
                    changes[-1].ordinal - _ordinal(first.mu_before, first.sigma_before))
              for changes in by_event.values() for first in changes[:1]][::-1]
    chart = [(c.ordinal, c.mu) for c in history[-CHART_GAMES:]]
    player = Player.objects.select_related("country").get(pk=player_id)
    return PlayerHistory(player, row, games, current.number, paginator.num_pages, paginator.count, events, chart)
