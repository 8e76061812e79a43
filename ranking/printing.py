"""What the public PDFs print (`/t/<slug>/standings.pdf`, `/t/<slug>/games/<n>/seating.pdf`) and their layout
functions: plain data in a fixed number of queries; the templates are in `templates/print/`.

Both are long lists at championship scale (1,000 players' standings, 3,000 players' seating), so each row is one
line of text with its columns lined up by `core.print_columns`: WeasyPrint lays out lines, not table cells.
`standings_pdf` and `seating_pdf` take no request: the views and the background warming both call them, in the
language that is active.
"""
from collections import defaultdict
from dataclasses import dataclass

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.html import strip_tags
from django.utils.translation import get_language, get_language_bidi
from django.utils.translation import gettext as _

from championships.models import Tournament
from core import print_columns as columns
from core.pdf import render_pdf, text_area_mm
from ranking.public.names import namesake_numbers
from ranking.public.standings import PublicStandings, public_standings
from scheduling.models import Game, Seat

STANDINGS = columns.Geometry(font_pt=9.0, line=4.3)
"""The standings' type size and line height (mm)."""
SEATING = columns.Geometry(font_pt=11.0, line=5.2)
"""The seating's: read from a step away at the entrance."""
ROWS_PER_GROUP = 5
"""Rows between two rules: a long list is read along a line without losing it."""
HEADINGS_MM = {"standings": 40.0, "by_table": 26.0, "by_name": 16.0}
"""Room kept on the first page of each list for what comes before it (the event line, the title, the ruleset
and the final table's note)."""
GUTTER_MM = 6.0


@dataclass(frozen=True)
class PrintedSeat:
    position: int
    name: str
    namesake: int | None = None
    """For a name another entry shares: its number, as every public list shows it."""

    @property
    def suffix(self) -> str:
        """What follows the name: " (2)" for a namesake, else nothing."""
        return "" if self.namesake is None else f" ({self.namesake})"

    @property
    def label(self) -> str:
        return self.name + self.suffix


@dataclass(frozen=True)
class PrintedTable:
    number: int
    seats: list[PrintedSeat]
    """In play order."""


@dataclass(frozen=True)
class SeatingSheet:
    game: Game
    tables: list[PrintedTable]
    alphabetical: list[tuple[PrintedSeat, int]]
    """(seat, table) in the collation's order (`Player.sort_key`): "Émile" next to "Emile"."""


def seating_sheet(tournament: Tournament, game: Game) -> SeatingSheet:
    """Every table of the game with its players in play order, and the same players by name; namesakes numbered as
    every public list numbers them (`namesake_numbers`, kept per results version)."""
    seats = (Seat.objects.filter(game=game).order_by("table__number", "position")
             .values_list("table__number", "position", "entry_id", "entry__player__name", "entry__player__sort_key"))
    namesakes = namesake_numbers(tournament)
    tables: dict[int, list[PrintedSeat]] = defaultdict(list)
    names = []
    for table, position, entry, name, key in seats:
        seat = PrintedSeat(position, name, namesakes.get(entry))
        tables[table].append(seat)
        names.append((bytes(key), name, table, position, seat))
    names.sort(key=lambda item: item[:4])
    return SeatingSheet(game, [PrintedTable(number, row) for number, row in tables.items()],
                        [(seat, table) for _key, _name, table, _position, seat in names])


@dataclass(frozen=True)
class ListLayout:
    """A long list laid out in pages: on each page, each of its columns (one or two) starts with the header's lines
    above its groups of lines."""

    geometry: columns.Geometry
    header: str
    """The header's lines: the labels placed over the columns with spaces (`core.print_columns.header`)."""
    pages: list[columns.Page]
    column_width: str = ""
    """A CSS length in mm (never localised) when a page has two columns."""
    gutter: str = f"{GUTTER_MM:g}mm"

    @property
    def style(self) -> str:
        return self.geometry.style


def _grouped(lines: list[str], strong: list[bool], cutoff_after: int | None) -> list[columns.Group]:
    """Lines in groups of ROWS_PER_GROUP; a group also ends where bold starts or stops and at the qualification
    line."""
    groups, start = [], 0
    for n in range(1, len(lines) + 1):
        if n == len(lines) or n - start == ROWS_PER_GROUP or strong[n] != strong[start] or n - 1 == cutoff_after:
            groups.append(columns.Group("\n".join(lines[start:n]), strong[start], n - 1 == cutoff_after))
            start = n
    return groups


def _layout(labels: list[str], values: list[list[str]], names: list[tuple[str, str]], geometry: columns.Geometry,
            *, paper: str, headings: float, per_page: int = 1, strong: list[bool],
            cutoff_after: int | None = None) -> ListLayout:
    """Rows of `values` (one list per row, a value per label) then a name (and what follows it), as lines under a
    header, `per_page` columns of them to a page (then each label wraps at its longest word, for the names)."""
    pt, language = geometry.font_pt, get_language() or "en"
    numbers = columns.numbers([list(column) for column in zip(*values)] if values else [[] for _ in labels],
                              labels, language=language, rtl=get_language_bidi(), bold=strong,
                              label_em=0.0 if per_page > 1 else columns.LABEL_EM)
    header = columns.header(labels, numbers.widths, _("Player"), language=language)
    width, height = text_area_mm(paper)
    column_mm = (min(width, columns.LIST_MM) - GUTTER_MM * (per_page - 1)) / per_page
    indent = sum(numbers.widths)
    lines = [figures + columns.wrapped(name, columns.em_of(column_mm, pt) - indent, indent, after=after, bold=bold)
             for figures, (name, after), bold in zip(numbers.rows, names, strong)]
    pages = columns.paginate(_grouped(lines, strong, cutoff_after), geometry, language=language, height=height,
                             first=headings, columns=per_page, header=geometry.header_height(len(header)))
    return ListLayout(geometry, "\n".join(header), pages, f"{column_mm:.2f}mm" if per_page > 1 else "")


def _final_result(final) -> str:
    return strip_tags(render_to_string("ranking/_final_result.html", {"final": final})).strip()


def standings_list(standings: PublicStandings, paper: str) -> ListLayout:
    """The standings as lines: rank and the ruleset's columns, then the name (and a finalist's result, a namesake's
    mark, a disqualification, a pending card draw)."""
    rows = standings.rows
    values, names = [], []
    for item in rows:
        row = item.row
        values.append([f"{row['rank']}{'=' if row['tied'] else ''}"] + [value for _label, value in item.cells])
        after = []
        if row.get("namesake"):
            after.append(f" ({row['namesake']})")
        if row.get("final"):
            after.append(f" ({_final_result(row['final'])})")
        if row.get("disqualified"):
            after.append(" ({})".format(_("disqualified")))  # not in an f-string, where makemessages misses it
        if item.awaiting_draw:
            after.append(" *")
        names.append((row["player"], "".join(after)))
    cutoff = next((n for n, item in enumerate(rows) if item.last_advancing), None)
    return _layout([_("Rank")] + [column.label for column in standings.columns], values, names, STANDINGS,
                   paper=paper, headings=HEADINGS_MM["standings"], strong=[item.advancing for item in rows],
                   cutoff_after=cutoff)


def _by_table(label: str, entries: list[str], *, indent: float, room: float) -> str:
    """A table's `label` (padded to `indent` em, the gap included) and its players after it, on as many lines as
    they need, each further line indented as far as the first line's players (spaces: it lines up exactly)."""
    lines, line, width = [], [label], 0.0
    for entry in entries:
        size = columns.em(entry) * 1.15 + columns.em(columns.GAP)
        if width and width + size > room:
            lines.append("".join(line).rstrip(columns.GAP))
            line, width = [columns.spaces(indent)], 0.0
        line += [entry, columns.GAP]
        width += size
    lines.append("".join(line).rstrip(columns.GAP))
    return "\n".join(lines)


def seating_lists(sheet: SeatingSheet, paper: str) -> tuple[list[columns.Page], ListLayout]:
    """The seating as lines: by table (each table's label, then its players in play order: a line or two), and by
    name in two columns a page (`ListLayout`: the table and the play order, then the name)."""
    rtl, pt = get_language_bidi(), SEATING.font_pt
    width, height = text_area_mm(paper)
    labels = [_("Table %(n)s") % {"n": table.number} for table in sheet.tables]
    label_width = max((columns.em(label, bold=True) for label in labels), default=0.0)
    indent = label_width + columns.em(columns.GAP)
    room = min(width, columns.LIST_MM) / (pt * columns.PT_MM) - indent
    by_table = [_by_table(columns.isolate(columns.pad(label, label_width, bold=True), rtl) + columns.GAP,
                          [f"{seat.position}\u00a0{columns.name(seat.label)}" for seat in table.seats],
                          indent=indent, room=room)
                for label, table in zip(labels, sheet.tables)]
    groups = [columns.Group("\n".join(by_table[n:n + ROWS_PER_GROUP]))
              for n in range(0, len(by_table), ROWS_PER_GROUP)]
    tables = columns.paginate(groups, SEATING, language=get_language() or "en", height=height,
                              first=HEADINGS_MM["by_table"])
    by_name = _layout([_("Table"), _("Play order")],
                      [[str(table), str(seat.position)] for seat, table in sheet.alphabetical],
                      [(seat.name, seat.suffix) for seat, _table in sheet.alphabetical], SEATING,
                      paper=paper,
                      headings=HEADINGS_MM["by_name"], per_page=2, strong=[False] * len(sheet.alphabetical))
    return tables, by_name


def seating_pdf(tournament: Tournament, game: Game, paper: str) -> bytes:
    """A published game's seating PDF in the active language on `paper`: by table, then by name."""
    by_table, by_name = seating_lists(seating_sheet(tournament, game), paper)
    return render_pdf("print/seating.html", {"tournament": tournament, "game": game, "by_table": by_table,
                                             "list": by_name, "style": by_name.style}, paper=paper)


def standings_pdf(tournament: Tournament, paper: str) -> bytes:
    """The standings PDF in the active language on `paper`."""
    standings = public_standings(tournament, per_page=None)
    return render_pdf("print/standings.html", {
        "tournament": tournament, "standings": standings, "list": standings_list(standings, paper),
        "printed_at": timezone.localtime(),
    }, paper=paper)
