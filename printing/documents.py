"""What the organizer's PDFs print: a game's tables with players in play order and each table's sheet address,
the qualification list with its waiting list, the podium. Plain data in a fixed number of queries.

A record sheet is a form of fixed geometry (SHEET_COLUMNS_MM, SHEET_ROW_MM): its rules and boxes are one vector
image behind the players' lines (`sheet_grid`), and the column headers are one line of text placed over them
(`sheet_header`), so a page is a few lines of text for WeasyPrint instead of a table of 25 cells with boxes in them.
"""
from collections import defaultdict
from dataclasses import dataclass
from functools import cache, cached_property
from urllib.parse import quote

from django.http import Http404
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import get_language, get_language_bidi
from django.utils.translation import gettext as _

from championships.models import ACTIVE_STATUSES, Stage, Tournament
from core import print_columns as columns
from core.pdf import PAPERS, qr_data_uri, render_pdf, text_area_mm
from core.site import absolute
from ranking.final_table import games_text
from ranking.public.names import namesake_numbers
from ranking.selectors import advancing_entries, finals_of_championship, qualified_players
from ranking.standings import tournament_standings
from results.models import RecordSheet
from scheduling.models import Game, Seat, Table

BLANK_SEATS = 4
WAITING_LIST = 4
"""Players listed after the qualified ones: who takes a place that is given back (RULES §1, replacement)."""
SLIPS_PER_PAGE = 4
SHEET_COLUMNS_MM = (22.0, 80.0, 24.0, 22.0)
"""A record sheet's columns: play order, player, VP (a box), winner (a tick box); the signature takes the rest."""
SHEET_ROW_MM = 14.0
"""A player's row: room to write the VP and to sign."""
SHEET_NAME_PT = 13.0
"""A name too long for its column at this size is printed smaller, on up to four lines within its row (`.seats
.long` in static/print/print.css)."""
SHEET_HEADER_PT = 9.0


@dataclass(frozen=True)
class PrintedTable:
    number: int | None
    """None on a blank sheet (a walk-in table)."""
    players: list[str]
    """In play order."""
    sheet_url: str = ""
    """The absolute address of the table's record sheet on the referee's tablet (what its QR code opens)."""
    board_code: str = ""
    """The board this table plays: its own in a stage that deals one per table, else the game's."""
    opted_out: tuple[bool, ...] = ()
    """For each player, whether they opted out of photos and videos (seed 001 §9): the card tells photographers."""

    @property
    def rows(self) -> list[tuple[str, bool]]:
        """(name, opted out of photos and videos) in play order."""
        return [(name, n < len(self.opted_out) and self.opted_out[n]) for n, name in enumerate(self.players)]

    @cached_property
    def qr(self) -> str:
        return qr_data_uri(self.sheet_url) if self.sheet_url else ""

    @property
    def seat_lines(self) -> SafeString:
        """The players' lines of its record sheet: the play order, then the name where the player column begins
        (spaces measured in the font: digits and spaces have fixed widths); a blank sheet has the numbers only. A name
        too long for the column is a smaller block of lines as wide as the column, so every row keeps its height."""
        order_em = SHEET_COLUMNS_MM[0] / (SHEET_NAME_PT * columns.PT_MM)
        room = SHEET_COLUMNS_MM[1] / (SHEET_NAME_PT * columns.PT_MM)
        lines = []
        for position, name in enumerate(self.players, start=1):
            start = str(position)
            gap = columns.spaces(order_em - columns.em(start))
            if not name:
                lines.append((start, "", ""))
            elif columns.em(name) * 1.15 > room:
                lines.append((start, gap, format_html('<small class="long" dir="{}">{}</small>',
                                                      columns.direction(name), name)))
            else:
                lines.append((start, gap, columns.name(name)))
        return format_html_join("\n", "{}{}{}", lines)

    @property
    def grid(self) -> str:
        return sheet_grid(get_language_bidi(), blank=self.number is None)

    @property
    def header(self) -> str:
        """The record sheet's column headers as one line: each label where its column starts (the VP and the
        winner's over their boxes), spaced by the widths Pango gives the labels."""
        return sheet_header(get_language() or "en")


@cache
def sheet_grid(rtl: bool, blank: bool = False) -> str:
    """A record sheet's four rows as one SVG (a data: URI): a rule under each row, the VP box, the winner's tick box
    and the signature line, mirrored on a right-to-left page; a blank sheet also gets a line to write the name.
    As wide as the narrower paper's text (A4): on US Letter it leaves a few millimetres at the end. One path per
    stroke, not a shape per box and line: WeasyPrint draws an SVG's every element again on every page."""
    width = min(text_area_mm(paper)[0] for paper in PAPERS)
    order, player, vp, winner = SHEET_COLUMNS_MM
    boxes: list[str] = []
    lines: list[str] = []
    rules: list[str] = []

    def rect(x: float, y: float, w: float, h: float) -> None:
        x = width - x - w if rtl else x
        boxes.append(f"M{x:.2f} {y:.2f}h{w:.2f}v{h:.2f}h{-w:.2f}z")

    def line(x1: float, x2: float, y: float, path: list[str]) -> None:
        x1, x2 = (width - x2, width - x1) if rtl else (x1, x2)
        path.append(f"M{x1:.2f} {y:.2f}H{x2:.2f}")

    for row in range(4):
        top = row * SHEET_ROW_MM
        rect(order + player + (vp - 12) / 2, top + 2, 12, 10)
        rect(order + player + vp + (winner - 7) / 2, top + 3.5, 7, 7)
        line(order + player + vp + winner + 2, width - 1, top + 11, lines)
        if blank:
            line(order, order + player - 4, top + 11, lines)
        line(0, width, top + SHEET_ROW_MM - 0.1, rules)
    height = 4 * SHEET_ROW_MM
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}mm" height="{height:g}mm" '
           f'viewBox="0 0 {width:g} {height:g}" fill="none">'
           f'<path d="{"".join(boxes)}" stroke="#000" stroke-width="0.4"/>'
           f'<path d="{"".join(lines)}" stroke="#000" stroke-width="0.3"/>'
           f'<path d="{"".join(rules)}" stroke="#bbb" stroke-width="0.2"/></svg>')
    return "data:image/svg+xml," + quote(svg)


@cache
def sheet_header(language: str) -> str:
    """The record sheet's header line in `language` (the active one, whose translations it takes)."""
    order, player, vp, winner = SHEET_COLUMNS_MM
    labels = [_("Play order"), _("Player"), _("VP"), _("Winner"), _("Signature")]
    widths = columns.measured(labels, language=language, bold=True)
    em_mm = SHEET_HEADER_PT * columns.PT_MM
    starts = [0.0, order / em_mm, (order + player + vp / 2) / em_mm - widths[2] / 2,
              (order + player + vp + winner / 2) / em_mm - widths[3] / 2, (order + player + vp + winner + 2) / em_mm]
    line: list[str] = []
    x = 0.0
    for label, width, start in zip(labels, widths, starts, strict=True):
        line += [columns.spaces(max(start - x, 0.3)) if line else "", label]
        x = max(start, x + 0.3) + width
    return "".join(line)


def game_of(tournament: Tournament, number: int) -> Game:
    game = tournament.games.select_related("stage").filter(number=number).first()
    if game is None or not game.tables.exists():
        raise Http404("No seated game with that number.")
    return game


def printable_games(tournament: Tournament) -> list[Game]:
    """The tournament's games that have tables (seating generated), by number."""
    return list(tournament.games.filter(tables__isnull=False).distinct().order_by("number"))


def game_tables(tournament: Tournament, game: Game) -> list[PrintedTable]:
    """Every table of the game by number, players in play order, a namesake with the number every public list gives
    them, "Ann Lee (2)" (two queries, and the numbers kept per results version). The seats are grouped here, not
    prefetched: Django's prefetch builds a queryset per table, a third of the time of 50 tables' data."""
    seats: dict[int, list[Seat]] = defaultdict(list)
    for seat in Seat.objects.filter(table__game=game).select_related("entry__player").order_by("table_id", "position"):
        seats[seat.table_id].append(seat)
    numbers = namesake_numbers(tournament)

    def printed(seat: Seat) -> str:
        number = numbers.get(seat.entry_id)
        return seat.entry.player.name if number is None else f"{seat.entry.player.name} ({number})"

    return [PrintedTable(t.number, [printed(s) for s in seats[t.pk]],
                         absolute(reverse("referee-sheet", args=[tournament.slug, t.pk])),
                         t.board_code or game.board_code, tuple(s.entry.player.media_opt_out for s in seats[t.pk]))
            for t in Table.objects.filter(game=game).order_by("number")]


GAME_TEMPLATES = {"record_sheets": "print/record_sheets.html", "table_cards": "print/table_cards.html",
                  "result_slips": "print/result_slips.html"}
"""A game's documents, by kind."""


def game_context(kind: str, tournament: Tournament, game: Game, tables: list[PrintedTable]) -> dict:
    """What the template of a game's document of `kind` prints."""
    context = {"tournament": tournament, "game": game, "tables": tables}
    if kind == "result_slips":
        context["pages"] = pages_of(tables, SLIPS_PER_PAGE)
    return context


def game_pdf(kind: str, tournament: Tournament, game: Game, paper: str) -> bytes:
    """A game's record sheets, table cards or result slips (`GAME_TEMPLATES`) as one PDF in the active language:
    no request needed (the QR codes open the table's sheet on the site's address)."""
    tables = game_tables(tournament, game)
    return render_pdf(GAME_TEMPLATES[kind], game_context(kind, tournament, game, tables), paper=paper)


def blank_tables(count: int) -> list[PrintedTable]:
    return [PrintedTable(None, [""] * BLANK_SEATS) for _ in range(count)]


def pages_of(items: list, size: int) -> list[list]:
    return [items[i:i + size] for i in range(0, len(items), size)]


@dataclass(frozen=True)
class QualificationList:
    qualified: list[dict]
    """Standing rows (a qualifier's players going on to the finals), or for a finals its entries from qualifiers."""
    waiting: list[dict]
    finals: Tournament | None


def qualification_list(tournament: Tournament) -> QualificationList:
    """A qualifier's players going to the finals and the next eligible ones; for a finals, who came from where."""
    finals = finals_of_championship(tournament)
    if tournament.kind != Tournament.Kind.QUALIFIER:
        sent: list[dict] = []
        for e in (tournament.entries.filter(source_tournament__isnull=False)
                  .select_related("player", "source_tournament").order_by("source_tournament__date", "source_rank")):
            assert e.source_tournament is not None  # filtered above
            sent.append({"rank": e.source_rank, "player": e.player.name, "source": e.source_tournament.name,
                         "status": e.get_status_display()})
        return QualificationList(sent, [], finals)
    rows = tournament_standings(tournament)
    advancing = advancing_entries(tournament, rows)
    taken = qualified_players(finals) if finals is not None else set()
    eligible = [r for r in rows if r["entry"] in advancing or (
        r["status"] in ACTIVE_STATUSES and not r["disqualified"] and r["player_id"] not in taken)]
    if not advancing:  # no finals to send them to yet: the qualifying places as the standings stand
        advancing = {r["entry"] for r in eligible[:tournament.advance_count or 0]}
    qualified = [r for r in eligible if r["entry"] in advancing]
    waiting = [r for r in eligible if r["entry"] not in advancing][:WAITING_LIST] if qualified else []
    return QualificationList(qualified, waiting, finals)


@dataclass(frozen=True)
class Certificate:
    """One podium place as its certificate prints it: the place, and the games that decided it."""

    row: dict
    """The standing row (rank, player, tied, wins, total VP, and `final`: the result at the final table)."""
    counted: str
    """Which games the wins and VP count, in words ("games 1–3"): the games before the final, if there is one."""


def certificates(podium_rows: list[dict]) -> list[Certificate]:
    """The podium's certificates (one query): a finalist's place comes from the final table (I-7, I-33), so its
    certificate shows that result and labels the earlier games' wins and VP as such."""
    played: dict[int, set[int]] = defaultdict(set)
    for entry, number in (Seat.objects.filter(entry_id__in=[row["entry"] for row in podium_rows],
                                              table__sheet__status=RecordSheet.Status.SIGNED_OFF)
                          .exclude(game__stage__kind=Stage.Kind.FINAL).values_list("entry_id", "game__number")):
        played[entry].add(number)
    return [Certificate(row, games_text(played[row["entry"]])) for row in podium_rows]
