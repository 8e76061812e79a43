"""What the public PDFs print (`/t/<slug>/standings.pdf`, `/t/<slug>/games/<n>/seating.pdf`): plain data in a
fixed number of queries; the layout is in `templates/print/`."""
from collections import defaultdict
from dataclasses import dataclass

from championships.models import Tournament
from scheduling.models import Game, Seat


@dataclass(frozen=True)
class PrintedSeat:
    position: int
    name: str


@dataclass(frozen=True)
class PrintedTable:
    number: int
    seats: list[PrintedSeat]
    """In play order."""


@dataclass(frozen=True)
class SeatingSheet:
    game: Game
    tables: list[PrintedTable]
    alphabetical: list[tuple[str, int, int]]
    """(name, table, position) in the collation's order (`Player.sort_key`): "Émile" next to "Emile"."""


def seating_sheet(tournament: Tournament, game: Game) -> SeatingSheet:
    """Every table of the game with its players in play order, and the same players by name (one query)."""
    seats = (Seat.objects.filter(game=game).order_by("table__number", "position")
             .values_list("table__number", "position", "entry__player__name", "entry__player__sort_key"))
    tables: dict[int, list[PrintedSeat]] = defaultdict(list)
    names = []
    for table, position, name, key in seats:
        tables[table].append(PrintedSeat(position, name))
        names.append((bytes(key), name, table, position))
    names.sort()
    return SeatingSheet(game, [PrintedTable(number, row) for number, row in tables.items()],
                        [(name, table, position) for _key, name, table, position in names])
