"""Reads for the referee's screens and the seating API: plain view data, loaded in a fixed number of queries."""
from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, TypedDict

from django.db.models import Count, F, Prefetch, Q

from championships.models import GONE_STATUSES, Entry, Stage, Tournament
from engines.ranking.engine import SeatResult, TableResult, score_table
from engines.rulesets import ruleset_for
from scheduling.models import Game, Seat, Table

from .deductions import deduction_name
from .models import Objection, Penalty, RecordSheet, Score, SheetRevision, Signature

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise, WithAnnotations


def current_game(games: list[Game]) -> Game | None:
    """The first published game with a table not yet signed off, else the last one."""
    return next((g for g in games if g.status == Game.Status.PUBLISHED), games[-1] if games else None)


class _SheetCounts(TypedDict):
    signature_count: int
    objection_count: int
    """Objections to the sheet's current version."""


@dataclass(frozen=True)
class DeskPage:
    games: list[Game]
    game: Game | None
    tables: list[WithAnnotations[Table, _SheetCounts]]
    """With `sheet`, `seats` (players in play order) and `signature_count` loaded."""
    counts: list[tuple[StrOrPromise, int, str]]
    """(label, number of tables, status) for each sheet status."""


def desk(tournament: Tournament, requested: str | None) -> DeskPage:
    """Every table of the requested game (else the current one) with its sheet's state."""
    games = list(tournament.games.exclude(status=Game.Status.PLANNED).select_related("stage").order_by("number"))
    game = next((g for g in games if str(g.number) == requested), None) or current_game(games)
    tables: list[WithAnnotations[Table, _SheetCounts]] = []
    if game is not None:
        tables = list(
            Table.objects.filter(game=game).order_by("number")
            .prefetch_related(Prefetch("seats", Seat.objects.select_related("entry__player").order_by("position")))
            .select_related("sheet").annotate(
                signature_count=Count("sheet__signatures", distinct=True),
                objection_count=Count("sheet__objections", distinct=True,
                                      filter=Q(sheet__objections__sheet_version=F("sheet__version"))))
        )
    counts = {status: 0 for status in RecordSheet.Status.values}
    for table in tables:
        counts[getattr(getattr(table, "sheet", None), "status", RecordSheet.Status.DRAFT)] += 1
    return DeskPage(games, game, tables,
                    [(RecordSheet.Status(status).label, n, status) for status, n in counts.items()])


@dataclass(frozen=True)
class SheetPage:
    sheet: RecordSheet
    scores: list[Score]
    """In play order, with seat, entry, player and country loaded."""
    rows: list[tuple[Score, Signature | None]]
    revisions: list[SheetRevision]
    objections: list[Objection] = field(default_factory=list)
    """Players who said from their phone that this version's result is wrong."""

    @property
    def all_signed(self) -> bool:
        return self.sheet.status == RecordSheet.Status.SIGNED


def sheet_page(table: Table) -> SheetPage:
    """The table's record sheet (opened when its game was published) with scores, signatures and history."""
    sheet = (RecordSheet.objects.select_related("signed_off_by", "banker__player").prefetch_related(
        Prefetch("signatures", Signature.objects.select_related("recorded_by")))
        .get(table=table))
    sheet.table = table  # the caller's, with its game loaded: the banker's rule reads it
    scores = list(sheet.scores.select_related("seat__entry__player__country").order_by("seat__position"))
    signatures = {s.entry_id: s for s in sheet.signatures.all()}
    return SheetPage(sheet, scores, [(score, signatures.get(score.seat.entry_id)) for score in scores],
                     list(sheet.revisions.select_related("created_by")),
                     list(sheet.objections.filter(sheet_version=sheet.version).select_related("entry__player")))


def table_seeds(seats: list[Seat]) -> dict[int, int | None]:
    """Each seat's seed at its table (1 = chooses chair, colour and play order first), by entry.

    The stored seed is the player's seed in the stage (a semifinal table holds seeds 2, 7, 10, 15);
    at the table they choose in that order (seed 004 §1.1.5). None where no seed was stored.
    """
    seeded = sorted((s.seed, s.entry_id) for s in seats if s.seed is not None)
    local: dict[int, int | None] = {s.entry_id: None for s in seats}
    local.update({entry: n for n, (_seed, entry) in enumerate(seeded, start=1)})
    return local


def game_seating(game: Game, part: slice = slice(None)) -> dict:
    """The seating API's object: tables in number order (those of `part`: API v1 asks a page of them); a signed-off
    table also shows VP and the winner.

    Seats of a stage seated by rank also carry their `seed` at the table (1 = chooses first), where the ruleset's
    players choose in seed order (`Ruleset.seeds_choose`: 004; not at a national final, 001 gives seeds no choice,
    nor at Lord of Catan tables, whose players settle seats themselves, 003).
    """
    seeded = game.stage.seating == Stage.Seating.SEEDED and ruleset_for(game.tournament.ruleset).seeds_choose
    tables = (
        Table.objects.filter(game=game).order_by("number").select_related("sheet")
        .prefetch_related(Prefetch("seats", Seat.objects.select_related("entry__player", "score")
                                   .order_by("position")))
    )[part]
    result = []
    for table in tables:
        sheet: RecordSheet | None = getattr(table, "sheet", None)
        final = sheet is not None and sheet.is_locked
        seats = []
        seeds = table_seeds(list(table.seats.all())) if seeded else {}
        for seat in table.seats.all():
            row = {"position": seat.position, "player": seat.entry.player.name, "entry": seat.entry_id}
            if seeded:
                row["seed"] = seeds[seat.entry_id]
            if final:
                score: Score = seat.score
                row.update(vp=score.vp, winner=score.winner)
            seats.append(row)
        row = {"number": table.number, "status": sheet.status if sheet else RecordSheet.Status.DRAFT, "seats": seats}
        if table.board_code:
            row["board"] = table.board_code
        result.append(row)
    board: dict[str, str | None] = {"board": game.board_code} if game.board_code else {}
    if game.stage.boards_per_table:  # each table plays its own board, none of them the game's
        board = {"board": None}
    return {"game": game.number, "stage": game.stage.kind, "status": game.status, **board, "tables": result}


REPEATED_COLLUSION = 2
"""From a player's second collusion warning the referee decides on disqualification (001 §6)."""


def played_seats():
    """Seats their player has played or is playing: in a published or finished game, or with a score on the sheet
    (a game taken back to re-plan keeps its entered scores)."""
    return Seat.objects.filter(~Q(game__status=Game.Status.PLANNED) | Q(score__isnull=False))


def games_played(entry_id: int) -> list[int]:
    """The numbers of the games the player has played or is playing (`played_seats`)."""
    return sorted(set(played_seats().filter(entry_id=entry_id).values_list("game__number", flat=True)))


OUT_STATUSES = (*GONE_STATUSES, Entry.Status.DISQUALIFIED)
"""Entries that take no further part: a stage seated by rank must be seated again without them."""


def seeded_games_to_seat_again(entry: Entry) -> list[Game]:
    """Games seated by rank that have not started (planned, or published with no result entered) and still seat
    this player, who takes no further part: the next in line takes the place once the stage is seated again."""
    return list(Game.objects.filter(seats__entry=entry, stage__seating=Stage.Seating.SEEDED)
                .filter(Q(status=Game.Status.PLANNED)
                        | Q(status=Game.Status.PUBLISHED) & ~Q(tables__sheet__version__gt=0))
                .select_related("stage").distinct().order_by("number"))


def collusion_warnings(entry: Entry, up_to: Penalty | None = None) -> int:
    """How many collusion warnings the player has (up to and including `up_to`)."""
    warnings = Penalty.objects.filter(entry=entry, kind=Penalty.Kind.COLLUSION, withdrawn_at__isnull=True)
    if up_to is not None:
        warnings = warnings.filter(pk__lte=up_to.pk)
    return warnings.count()


@dataclass(frozen=True)
class PendingRuling:
    """A player warned for collusion again, with no decision yet on disqualifying them."""

    warning: Penalty
    """The latest collusion warning, the one the decision is about."""
    warnings: list[Penalty]
    """All the player's collusion warnings, oldest first, each with `partner` (the other player's name)."""

    @property
    def count(self) -> int:
        return len(self.warnings)


def _name_partners(penalties: list[Penalty]) -> None:
    """Give each collusion warning `partner`, the name of the other player of its incident (None otherwise)."""
    players: dict[uuid.UUID | None, list[tuple[int, str]]] = {}  # None is looked up, never stored
    for penalty in penalties:
        if penalty.incident is not None:
            players.setdefault(penalty.incident, []).append((penalty.pk, penalty.entry.player.name))
    for penalty in penalties:
        penalty.partner = next((name for pk, name in players.get(penalty.incident, []) if pk != penalty.pk), None)


def pending_collusion_rulings(tournament) -> list[PendingRuling]:
    """Players still in the tournament whose latest collusion warning is a repeat with no decision yet."""
    warnings = list(Penalty.objects.filter(tournament=tournament, kind=Penalty.Kind.COLLUSION,
                                           withdrawn_at__isnull=True)
                    .select_related("entry__player", "game", "ruling").order_by("pk"))
    _name_partners(warnings)
    by_entry: dict[int, list[Penalty]] = {}
    for warning in warnings:
        by_entry.setdefault(warning.entry_id, []).append(warning)
    return [PendingRuling(own[-1], own) for own in by_entry.values()
            if len(own) >= REPEATED_COLLUSION and not hasattr(own[-1], "ruling")
            and own[-1].entry.status != Entry.Status.DISQUALIFIED]


def recorded_penalties(tournament) -> list[Penalty]:
    """The tournament's penalties, newest first; a collusion warning carries `partner` (the other player's name),
    a VP deduction `deduction_name` (which of the ruleset's deductions, "" for older ones)."""
    penalties = list(tournament.penalties.select_related("entry__player", "game", "recorded_by", "withdrawn_by")
                     .order_by("-recorded_at", "-pk"))
    _name_partners(penalties)
    for penalty in penalties:
        penalty.deduction_name = deduction_name(tournament.ruleset, penalty.deduction)
    return penalties


ANNOUNCEMENTS_SHOWN = 20
"""The newest announcements on the desk, the public page and the projector; older ones stay in the audit trail."""


def recent_announcements(tournament: Tournament) -> list:
    """The tournament's newest announcements, newest first, with their authors."""
    return list(tournament.announcements.select_related("author")[:ANNOUNCEMENTS_SHOWN])


def tables_missing_results(tournament, before: int | None = None) -> list[Table]:
    """Tables of published games whose sheet is not signed off yet (of games numbered below `before`, if given).

    Each with `game`, `sheet` and `seats` (players in play order) loaded; in game and table order.
    """
    tables = (Table.objects.filter(game__tournament=tournament, game__status=Game.Status.PUBLISHED)
              .exclude(sheet__status=RecordSheet.Status.SIGNED_OFF)
              .select_related("game", "sheet").order_by("game__number", "number")
              .prefetch_related(Prefetch("seats", Seat.objects.select_related("entry__player").order_by("position"))))
    if before is not None:
        tables = tables.filter(game__number__lt=before)
    return list(tables)


def any_game_published(tournament) -> bool:
    """Whether a game was ever published: until then no table can have, or miss, a result."""
    return tournament.games.exclude(status=Game.Status.PLANNED).exists()


@dataclass(frozen=True)
class ResultRow:
    game: int
    table: int
    position: int
    player: str
    vp: int | None
    winner: bool
    place: int | None
    """Place at the table (1 = winner), once the sheet is signed off."""
    signed_off_at: datetime | None


def result_rows(tournament: Tournament) -> list[ResultRow]:
    """Every seat of the tournament's published games with what its sheet records, in game/table/position order.

    Two queries; places come from the ranking engine's table scoring, as on the public game pages."""
    rules = ruleset_for(tournament.ruleset)
    scores = Score.objects.filter(sheet__table__game__tournament=tournament).order_by(
        "seat__game__number", "seat__table__number", "seat__position").values_list(
        "seat__game__number", "seat__table__number", "seat__position", "seat__entry__player__name", "vp", "winner",
        "sheet__status", "sheet__signed_off_at")
    tables: dict[tuple[int, int], list] = {}
    for row in scores:
        tables.setdefault(row[:2], []).append(row)
    rows: list[ResultRow] = []
    for (game, table), seats in tables.items():
        signed_off = seats[0][6] == RecordSheet.Status.SIGNED_OFF
        places: list[int | None] = [None] * len(seats)
        if signed_off:
            places = [s.place for s in score_table(TableResult(game, table, tuple(
                SeatResult(position, vp or 0, winner) for _g, _t, position, _n, vp, winner, *_r in seats)), rules)]
        rows.extend(ResultRow(game, table, position, name, vp, winner, place, at if signed_off else None)
                    for (_g, _t, position, name, vp, winner, _s, at), place in zip(seats, places))
    return rows


@dataclass(frozen=True)
class CountedDeduction:
    """VP taken off a player's total, as the public pages show it: how many, what for and in which game."""

    vp: int
    kind: str
    """`Penalty.Kind`: a late arrival or a VP deduction."""
    deduction: str
    """Which of the ruleset's VP deductions (`Ruleset.vp_deductions`); "" for a late arrival or an older one."""
    game: int | None
    ruleset: str

    @property
    def reason(self) -> str:
        """In the reader's language: the ruleset's name of the deduction, else the penalty's kind."""
        return deduction_name(self.ruleset, self.deduction) or str(Penalty.Kind(self.kind).label)


def counted_deductions(tournament: Tournament, entry_id: int | None = None) -> dict[int, list[CountedDeduction]]:
    """Entry id → the VP deductions that count (withdrawn ones do not), in the order recorded, of every entry or
    of one; one query. Only their name is public, never the referee's note."""
    penalties = Penalty.objects.filter(tournament=tournament, vp__gt=0, withdrawn_at__isnull=True)
    if entry_id is not None:
        penalties = penalties.filter(entry_id=entry_id)
    found: dict[int, list[CountedDeduction]] = {}
    for entry, vp, kind, key, game in (penalties.order_by("recorded_at", "pk")
                                       .values_list("entry_id", "vp", "kind", "deduction", "game__number")):
        found.setdefault(entry, []).append(CountedDeduction(vp, kind, key, game, tournament.ruleset))
    return found
