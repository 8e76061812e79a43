"""What the stream overlay shows (`/t/<slug>/overlay/`): one table of the tournament's current game, usually the
final's only table, its players in play order and their VP as the referee enters them.

Public pages show a result once the referee signs it off; the overlay of a livestreamed final shows the VP as
soon as the referee saves them on the record sheet, marked provisional until the sign-off. Saving a sheet does
not change the results version (the other pages do not show it), so the overlay's version adds a token of its
table's sheets, read from the database at most once every `SHEET_SECONDS` per tournament and table whatever the
number of viewers. Only public data: names and countries, no links.
"""
import contextlib
from dataclasses import dataclass
from typing import cast

from django.core.cache import cache
from django.db.models import Count, Max

from championships.models import Tournament
from ranking.public.names import namesake_numbers
from results.models import RecordSheet
from results.selectors import current_game
from scheduling.clocks import clock_of
from scheduling.models import Game, Seat, Table

TABLE_MAX = 1000
"""The highest table number `?table=` reads (3,000 players seat at 750 tables); above it, no such table."""
SHEET_SECONDS = 2
"""How long a sheet token is trusted: a saved VP reaches an open overlay within this and one poll."""


def table_number(value: str) -> int:
    """`?table=` as the overlay reads it: the first table unless a positive number is given; a number above
    `TABLE_MAX` reads as `TABLE_MAX + 1` (a table no game has), so every reading is one of a bounded few."""
    if not (value.isascii() and value.isdigit() and 0 < len(value) < 8 and int(value)):
        return 1
    return min(int(value), TABLE_MAX + 1)


@dataclass(frozen=True)
class OverlaySeat:
    position: int
    name: str
    country_code: str
    country: str
    """The country's name in the page's language, or ""."""
    vp: int | None
    winner: bool
    namesake: int | None = None
    """For a name another entry shares: its number, as every public list shows it (`ranking.public.names`)."""


@dataclass(frozen=True)
class OverlayPage:
    game: Game | None
    table: int
    seats: list[OverlaySeat]
    state: str
    """"none" (no game yet), "missing" (the game has no such table), "playing" (no VP entered yet),
    "provisional" (VP entered, not signed off) or "final" (signed off)."""
    tables: int = 0
    """Tables in the game: more than one, the overlay names the table it shows."""
    clock: bool = False
    """The map-study clock is counting (running or paused). Once over it leaves the stream, and the page, which
    no longer shows the server's time, can be cached again (`ranking.live.TIMED`)."""


STATES = {RecordSheet.Status.DRAFT: "playing", RecordSheet.Status.SIGNING: "provisional",
          RecordSheet.Status.SIGNED: "provisional", RecordSheet.Status.SIGNED_OFF: "final"}


def overlay_page(tournament: Tournament, table: int) -> OverlayPage:
    """The table of the current game (the first one in play, else the last played): three queries, and one for
    the namesakes when their cached list is gone."""
    games = list(tournament.games.exclude(status=Game.Status.PLANNED).select_related("stage", "tournament")
                 .order_by("number"))
    game = current_game(games)
    if game is None:
        return OverlayPage(None, table, [], "none")
    tables = Table.objects.filter(game=game).count()
    seats = list(Seat.objects.filter(game=game, table__number=table)
                 .select_related("entry__player__country", "score", "table__sheet").order_by("position"))
    if not seats:
        return OverlayPage(game, table, [], "missing", tables)
    sheet = getattr(seats[0].table, "sheet", None)
    state = STATES.get(sheet.status if sheet else RecordSheet.Status.DRAFT, "playing")
    namesakes = namesake_numbers(tournament)
    shown = []
    for seat in seats:
        score = getattr(seat, "score", None)
        country = seat.entry.player.country
        shown.append(OverlaySeat(
            seat.position, seat.entry.player.name, country.code if country else "",
            country.local_name if country else "", score.vp if score and state != "playing" else None,
            bool(score and score.winner and state == "final"), namesakes.get(seat.entry_id)))
    study = clock_of(game) if game.status == Game.Status.PUBLISHED else None
    clock = study is not None and study.state in ("running", "paused")
    return OverlayPage(game, table, shown, state, tables, clock)


def sheet_token(tournament_id: int, table: int) -> str:
    """What changes when a record sheet of that table number is saved in a game in play (the final's VP entered,
    signed, signed off); kept `SHEET_SECONDS` in the cache, so a crowd of viewers costs one query as often."""
    key = f"overlay-sheets:{tournament_id}:{table}"
    with contextlib.suppress(Exception):  # the cache is an optimisation only
        if (found := cache.get(key)) is not None:
            return cast(str, found)
    latest = RecordSheet.objects.filter(
        table__game__tournament_id=tournament_id, table__game__status=Game.Status.PUBLISHED, table__number=table,
    ).aggregate(n=Count("pk"), at=Max("updated_at"))
    token = f"{latest['n']}-{latest['at'].timestamp() if latest['at'] else 0}"
    with contextlib.suppress(Exception):
        cache.set(key, token, timeout=SHEET_SECONDS)
    return token
