"""\"Where do I sit?\": players found by a part of their name, and their seats."""

from collections import defaultdict
from dataclasses import dataclass

from championships.models import Tournament
from core.names import fold
from ranking.public.names import namesake_numbers, searchable_names
from ranking.selectors import tournament_done
from ranking.standings import (
    tournament_standings,
)
from scheduling.models import Game, Seat

QUERY_MAX = 100
"""The longest "where do I sit?" search (a name is at most 200 characters; a part of one is enough)."""
MATCHES_SHOWN = 20
"""More matches than this: the reader types more of the name."""



@dataclass(frozen=True)
class SeatAt:
    game: int
    table: int
    position: int


@dataclass(frozen=True)
class Match:
    name: str
    player_id: int
    seats: list[SeatAt]
    place: dict | None = None
    """After the last game: the player's standing row (final rank, tied)."""
    namesake: int | None = None
    """For a name another entry shares: its number (`namesake_numbers`)."""


@dataclass(frozen=True)
class WherePage:
    query: str
    games: list[Game]
    """The current published game and the next one if it is published too; while none is, the games played."""
    matches: list[Match]
    more: bool
    """More players matched than are shown."""
    played: bool = False
    """No game is in play: the seats shown are those of the games played so far."""
    over: bool = False
    """The last game is played (or the tournament closed): each match shows its final place too."""


def where(tournament: Tournament, query: str) -> WherePage:
    """Players whose name contains the query (as every search compares names, `core.names.fold`: accents, case,
    vowel marks and Arabic/Persian letter variants ignored) and where they sit: in the
    game in play and the next one; while no game is in play, in every game played, and after the last game
    with their final place."""
    query = query.strip()[:QUERY_MAX]
    games = list(tournament.games.filter(status=Game.Status.PUBLISHED).order_by("number")[:2])
    played = not games
    if played:
        games = list(tournament.games.filter(status=Game.Status.FINISHED).order_by("number"))
    wanted = fold(query)
    if not wanted:
        return WherePage(query, games, [], False, played and bool(games))
    over = played and bool(games) and (tournament.status == Tournament.Status.FINISHED or tournament_done(
        list(tournament.stages.all()), list(tournament.games.only("stage", "status"))))
    found = [e for e in searchable_names(tournament) if wanted in e[0]]
    shown = found[:MATCHES_SHOWN]
    seats: dict[int, list[SeatAt]] = defaultdict(list)
    if games and shown:
        for entry, game, table, position in (
                Seat.objects.filter(game__in=games, entry__in=[e[1] for e in shown]).order_by("game__number")
                .values_list("entry_id", "game__number", "table__number", "position")):
            seats[entry].append(SeatAt(game, table, position))
    places = {row["entry"]: row for row in tournament_standings(tournament)} if over and shown else {}
    namesakes = namesake_numbers(tournament) if shown else {}
    return WherePage(query, games, [Match(name, player, seats[entry], places.get(entry), namesakes.get(entry))
                                    for _key, entry, name, player in shown],
                     len(found) > len(shown), played and bool(games), over)
