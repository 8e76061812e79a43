"""A published game's tables, a page at a time."""

from dataclasses import dataclass
from typing import cast

from django.db.models import Count, Prefetch

from championships.models import Tournament
from engines.ranking.engine import SeatResult, TableResult, score_table
from engines.rulesets import ruleset_for
from ranking.public.names import namesake_numbers
from results.models import RecordSheet
from scheduling.models import Game, Seat, Table


@dataclass(frozen=True)
class SeatRow:
    position: int
    name: str
    player_id: int
    vp: int | None = None
    winner: bool = False
    place: int | None = None
    namesake: int | None = None


@dataclass(frozen=True)
class TableRow:
    number: int
    signed_off: bool
    seats: list[SeatRow]
    board: str = ""
    """The table's own board, in a stage that deals one per table (shown folded in the table's card)."""


TABLES_PAGE = 40
"""Tables per page of a game (160 players): a 3,000-player game is not one long page on a phone."""


@dataclass(frozen=True)
class GamePage:
    game: Game
    tables: list[TableRow]
    done: int
    """Tables of the whole game signed off."""
    total: int
    """Tables of the whole game."""
    page: int = 1
    pages: int = 1


def published_game(tournament: Tournament, number: int) -> Game | None:
    """The tournament's game of that number, with its stage, once its seating is published."""
    return (tournament.games.select_related("stage").exclude(status=Game.Status.PLANNED)
            .filter(number=number).first())


def game_page(tournament: Tournament, game: Game, page: int = 1) -> GamePage:
    """A published game's tables in number order, seats in play order; VP, winner and place once signed off; each
    table's own board where the stage deals one per table."""
    rules = ruleset_for(tournament.ruleset)
    counts = dict(Table.objects.filter(game=game).values_list("sheet__status").annotate(n=Count("pk"))
                  .values_list("sheet__status", "n"))
    total = sum(counts.values())
    pages = max(1, -(-total // TABLES_PAGE))
    page = min(max(page, 1), pages)
    tables = (Table.objects.filter(game=game).order_by("number").select_related("sheet")
              .prefetch_related(Prefetch("seats", Seat.objects.select_related("entry__player", "score")
                                         .order_by("position"))))[(page - 1) * TABLES_PAGE: page * TABLES_PAGE]
    namesakes = namesake_numbers(tournament)
    rows = []
    for table in tables:
        sheet = getattr(table, "sheet", None)
        seats = list(table.seats.all())
        if sheet is not None and sheet.is_locked:
            places = [s.place for s in score_table(TableResult(
                game.number, table.number, tuple(seat_result(s) for s in seats)), rules)]
            row = [SeatRow(s.position, s.entry.player.name, s.entry.player_id, s.score.vp, s.score.winner, p,
                           namesakes.get(s.entry_id)) for s, p in zip(seats, places)]
        else:
            row = [SeatRow(s.position, s.entry.player.name, s.entry.player_id, namesake=namesakes.get(s.entry_id))
                   for s in seats]
        rows.append(TableRow(table.number, sheet is not None and sheet.is_locked, row,
                             table.board_code if game.stage.boards_per_table else ""))
    return GamePage(game, rows, counts.get(RecordSheet.Status.SIGNED_OFF, 0), total, page, pages)


def seat_result(seat: Seat) -> SeatResult:
    return SeatResult(seat.entry_id, cast(int, seat.score.vp), seat.score.winner)  # a signed-off sheet has every VP
