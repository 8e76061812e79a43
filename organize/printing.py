"""What the organizer's PDFs print: a game's tables with players in play order and each table's sheet address,
the qualification list with its waiting list, the podium. Plain data in a fixed number of queries."""
from collections import defaultdict
from dataclasses import dataclass
from functools import cached_property

from django.db.models import Prefetch
from django.http import Http404
from django.urls import reverse

from championships.models import ACTIVE_STATUSES, Stage, Tournament
from core.pdf import qr_data_uri
from ranking.final_table import games_text
from ranking.selectors import advancing_entries, finals_of_championship, qualified_players
from ranking.standings import tournament_standings
from results.models import RecordSheet
from scheduling.models import Game, Seat, Table

BLANK_SEATS = 4
WAITING_LIST = 4
"""Players listed after the qualified ones: who takes a place that is given back (RULES §1, replacement)."""
SLIPS_PER_PAGE = 4


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


def game_of(tournament: Tournament, number: int) -> Game:
    game = tournament.games.select_related("stage").filter(number=number).first()
    if game is None or not game.tables.exists():
        raise Http404("No seated game with that number.")
    return game


def printable_games(tournament: Tournament) -> list[Game]:
    """The tournament's games that have tables (seating generated), by number."""
    return list(tournament.games.filter(tables__isnull=False).distinct().order_by("number"))


def sheet_url(base_url: str, tournament: Tournament, table_id: int) -> str:
    """`base_url` is the site's root as the organizer reached it (`request.build_absolute_uri("/")`)."""
    return base_url.rstrip("/") + reverse("referee-sheet", args=[tournament.slug, table_id])


def game_tables(tournament: Tournament, game: Game, base_url: str) -> list[PrintedTable]:
    """Every table of the game by number, players in play order (two queries)."""
    tables = (Table.objects.filter(game=game).order_by("number")
              .prefetch_related(Prefetch("seats", Seat.objects.select_related("entry__player").order_by("position"))))
    return [PrintedTable(t.number, [s.entry.player.name for s in t.seats.all()], sheet_url(base_url, tournament, t.pk),
                         t.board_code or game.board_code, tuple(s.entry.player.media_opt_out for s in t.seats.all()))
            for t in tables]


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
        rows = [{"rank": e.source_rank, "player": e.player.name, "source": e.source_tournament.name,
                 "status": e.get_status_display()}
                for e in tournament.entries.filter(source_tournament__isnull=False)
                .select_related("player", "source_tournament").order_by("source_tournament__date", "source_rank")]
        return QualificationList(rows, [], finals)
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
