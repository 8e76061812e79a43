"""The public standings, a page at a time, with the ruleset's columns."""

from dataclasses import dataclass

from championships.models import Tournament
from engines.metrics import Unit
from ranking.columns import Column, standings_columns
from ranking.final_table import FinalTable, final_table
from ranking.selectors import advancing_entries
from ranking.standings import (
    straddles_cutoff,
    tied_groups,
    tournament_standings,
)

MAX_PLACES = 6
"""The most decimals a tiebreak value is shown with (differences beyond this are not shown, only ranked)."""



@dataclass(frozen=True)
class StandingRow:
    row: dict
    cells: list[tuple[str, str]]
    """(column label, value as shown) for each of the ruleset's columns."""
    advancing: bool
    last_advancing: bool
    """The qualification line runs under this row."""
    awaiting_draw: bool
    """Tied with players on the other side of the qualification line: a card draw decides."""


@dataclass(frozen=True)
class PublicStandings:
    columns: list[Column]
    rows: list[StandingRow]
    any_advancing: bool
    any_awaiting_draw: bool
    page: int = 1
    pages: int = 1
    final_table: FinalTable | None = None
    """Set when a final table decides the top places: the page says so and shows each finalist's result."""


def places_needed(column: Column, rows: list[dict]) -> int:
    """The fewest decimals (two at least) that show different values of neighbouring ranks differently."""
    if not column.has_decimals:
        return 0
    scale = 100 if column.metric.unit == Unit.SHARE else 1
    values = [float(r[column.key]) * scale for r in rows if r[column.key] is not None]
    pairs = [(a, b) for a, b in zip(values, values[1:]) if a != b]
    places = 2
    while places < MAX_PLACES and any(f"{a:.{places}f}" == f"{b:.{places}f}" for a, b in pairs):
        places += 1
    return places


STANDINGS_PAGE = 100
"""Rows per standings page: a phone never loads a megabyte; the tiebreak precision still looks at every row."""


def public_standings(tournament: Tournament, page: int = 1, per_page: int | None = STANDINGS_PAGE
                     ) -> PublicStandings:
    """One page of the standings (`per_page` None: all of them); `page` beyond the last shows the last."""
    rows = tournament_standings(tournament)
    columns = standings_columns(tournament.ruleset, rows)
    places = {c.key: places_needed(c, rows) for c in columns}
    advancing = advancing_entries(tournament, rows)
    last = next((r["entry"] for r in reversed(rows) if r["entry"] in advancing), None)
    awaiting: set[int] = set()
    if advancing and not tournament.qualified_entries.exists():
        for group in tied_groups(rows):
            if straddles_cutoff(group, tournament.advance_count):
                awaiting.update(r["entry"] for r in group)
    pages = max(1, -(-len(rows) // per_page)) if per_page else 1
    page = min(max(page, 1), pages)
    labels = [c.label for c in columns]
    shown = [StandingRow(r, list(zip(labels, [c.show(r[c.key], places[c.key]) for c in columns], strict=True)),
                         r["entry"] in advancing, r["entry"] == last, r["entry"] in awaiting)
             for r in (rows[(page - 1) * per_page: page * per_page] if per_page else rows)]
    return PublicStandings(columns, shown, bool(advancing), bool(awaiting), page, pages, final_table(tournament))
