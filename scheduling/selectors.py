"""Reads of the seating: a stage's problem for the engine, its quality report, and the organizer's pages."""
import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db.models import Count, Prefetch, Q
from django.utils.translation import gettext as _

from championships.models import ACTIVE_STATUSES, Entry, Relationship, Stage, Tournament
from engines.rulesets import ruleset_for
from engines.seating import engine as seating

from .models import Game, Seat, Table


@dataclass(frozen=True)
class StagePlan:
    """A stage's seating as the engine sees it: entry ids, played history and what is still planned."""

    problem: seating.SeatingProblem
    played: list[Game]
    planned: list[Game]

    @property
    def fingerprint(self) -> tuple:
        """Everything the plan was made from except the seed: if it differs later, the plan is stale."""
        p = self.problem
        return (p.players, p.games, p.relations, dict(p.countries), p.history, tuple(g.pk for g in self.planned))


def first_game_number(stage: Stage) -> int:
    earlier = Stage.objects.filter(tournament_id=stage.tournament_id, order__lt=stage.order)
    return 1 + sum(earlier.values_list("games", flat=True))


def _tables_of(games: Iterable[Game]) -> list[tuple[tuple[int, ...], ...]]:
    """Games as tuples of tables of entry ids in position order, from prefetched seats."""
    return [
        tuple(tuple(seat.entry_id for seat in sorted(table.seats.all(), key=lambda s: s.position))
              for table in sorted(game.tables.all(), key=lambda t: t.number))
        for game in games
    ]


def stage_games(stage: Stage) -> list[Game]:
    """The stage's games with tables and seats (players and countries) loaded, in game order."""
    seats = Seat.objects.select_related("entry__player__country").order_by("position")
    tables = Table.objects.order_by("number").select_related("sheet").prefetch_related(Prefetch("seats", seats))
    return list(Game.objects.filter(stage=stage).order_by("number").prefetch_related(Prefetch("tables", tables)))


def _relations(entries: Sequence[Entry]) -> tuple[tuple[int, int], ...]:
    """Declared friend/family pairs among these entries, as entry-id pairs."""
    entry_of_player = {e.player_id: e.pk for e in entries}
    pairs = Relationship.objects.filter(player_a__in=entry_of_player.keys(), player_b__in=entry_of_player.keys())
    return tuple((entry_of_player[a], entry_of_player[b])
                 for a, b in pairs.order_by("player_a", "player_b").values_list("player_a", "player_b"))


def _problem(stage: Stage, entries: Sequence[Entry], games: int, history=(), seed: int = 0) -> seating.SeatingProblem:
    ruleset = ruleset_for(stage.tournament.ruleset)
    return seating.SeatingProblem(
        players=tuple(sorted(e.pk for e in entries)), games=games, relations=_relations(entries),
        countries={e.pk: e.player.country.code for e in entries if e.player.country},
        history=tuple(history), distinct_positions=ruleset.distinct_positions,
        spread_countries=ruleset.spread_countries, seed=seed,
    )


def stage_plan(stage: Stage, *, seed: int = 0) -> StagePlan:
    """The seating problem of a stage's not-yet-published games, with the published ones as history."""
    games = stage_games(stage)
    played = [g for g in games if g.status != Game.Status.PLANNED]
    planned = [g for g in games if g.status == Game.Status.PLANNED]
    entries = Entry.objects.filter(tournament_id=stage.tournament_id, status__in=ACTIVE_STATUSES).select_related(
        "player__country")
    problem = _problem(stage, list(entries), max(stage.games - len(played), 1), _tables_of(played), seed)
    return StagePlan(problem, played, planned)


def _token(seats: Iterable[tuple[int, int, int]]) -> str:
    return hashlib.sha256(repr(sorted(seats)).encode()).hexdigest()[:16]


def layout_token(game: Game) -> str:
    """A fingerprint of who sits where in a game, so a swap based on an old view is refused."""
    return _token(Seat.objects.filter(game=game).values_list("entry_id", "table__number", "position"))


def stage_report(stage: Stage, games: Sequence[Game]) -> seating.QualityReport | None:
    """The quality report of the stage's seating as it stands in the database (after any swaps)."""
    if not games:
        return None
    tables = _tables_of(games)
    entries = [seat.entry for game in games for table in game.tables.all() for seat in table.seats.all()]
    unique = list({e.pk: e for e in entries}.values())
    return seating.assess(_problem(stage, unique, len(games)), tables)


def seat_warnings(stage: Stage, games: Sequence[Game], report: seating.QualityReport) -> dict[int, list[str]]:
    """Why a seat is highlighted, by seat id: friend/family at the table, a repeat opponent, a compatriot."""
    friends = {frozenset(pair) for _game, pair in report.friend_conflicts}
    repeats = {frozenset(pair) for pair, _count in report.repeated_pairs}
    spread = ruleset_for(stage.tournament.ruleset).spread_countries
    warnings: dict[int, list[str]] = {}
    for game in games:
        for table in game.tables.all():
            seats = list(table.seats.all())
            for seat in seats:
                others = [o for o in seats if o.pk != seat.pk]
                found = []
                if any(frozenset((seat.entry_id, o.entry_id)) in friends for o in others):
                    found.append(_("friend or family at this table"))
                if any(frozenset((seat.entry_id, o.entry_id)) in repeats for o in others):
                    found.append(_("meets an opponent again"))
                country = seat.entry.player.country_id
                if spread and country and any(o.entry.player.country_id == country for o in others):
                    found.append(_("a compatriot at this table"))
                if found:
                    warnings[seat.pk] = found
    return warnings


@dataclass(frozen=True)
class SeatRow:
    seat: Seat
    warnings: list[str]


@dataclass(frozen=True)
class TableView:
    table: Table
    seats: list[SeatRow]


@dataclass(frozen=True)
class GameView:
    game: Game
    tables: list[TableView]
    layout: str
    """The layout token a swap form carries; empty for published games (no swaps)."""
    players: list[tuple[int, str]]
    """(entry id, name) of everyone seated, by name: the swap form's choices."""
    status_disagrees: bool = False
    """A published or finished game whose status is not what its record sheets say (finished exactly when
    every table's sheet is signed off): the organizer may repair it."""


@dataclass(frozen=True)
class StagePage:
    games: list[GameView]
    report: seating.QualityReport | None
    opponents: list[tuple[str, list[str]]]
    """Each player's opponents over the stage, by name."""
    friend_conflicts: list[tuple[int, str, str]]
    """(game, name, name) of each declared pair that shares a table."""
    distinct_positions: bool
    """The ruleset's seating goals include distinct positions and country spread."""


def _sheets_complete(game: Game) -> bool:
    """Every table of the game has a signed-off record sheet (from the tables and sheets `stage_games` loaded)."""
    tables = list(game.tables.all())
    return bool(tables) and all(getattr(t, "sheet", None) is not None and t.sheet.is_locked for t in tables)


def stage_page(stage: Stage) -> StagePage:
    """Everything the stage's seating page shows, read in a fixed handful of queries."""
    games = stage_games(stage)
    report = stage_report(stage, games)
    warnings = seat_warnings(stage, games, report) if report else {}
    names = {seat.entry_id: seat.entry.player.name for g in games for t in g.tables.all() for seat in t.seats.all()}
    views = []
    for game in games:
        tables = [TableView(table, [SeatRow(seat, warnings.get(seat.pk, [])) for seat in table.seats.all()])
                  for table in game.tables.all()]
        planned = game.status == Game.Status.PLANNED
        seated = sorted(((row.seat.entry_id, row.seat.entry.player.name) for t in tables for row in t.seats),
                        key=lambda pair: pair[1])
        layout = _token((row.seat.entry_id, t.table.number, row.seat.position) for t in tables for row in t.seats)
        views.append(GameView(game, tables, layout if planned else "", seated if planned else [],
                              not planned and (game.status == Game.Status.FINISHED) != _sheets_complete(game)))
    opponents = sorted(((names[p], [names[o] for o in others]) for p, others in
                        (report.opponents.items() if report else [])), key=lambda row: row[0])
    conflicts = [(game, names[a], names[b]) for game, (a, b) in (report.friend_conflicts if report else [])]
    return StagePage(views, report, opponents, conflicts, ruleset_for(stage.tournament.ruleset).distinct_positions)


def seated_players(game: Game) -> list[tuple[int, str]]:
    """(entry id, name) of the game's players, by name."""
    return list(Seat.objects.filter(game=game).order_by("entry__player__name")
                .values_list("entry_id", "entry__player__name"))


def stages_overview(tournament: Tournament):
    """The tournament's stages with how many of their games are planned and published."""
    return tournament.stages.order_by("order").annotate(
        planned_count=Count("game_set", filter=Q(game_set__status=Game.Status.PLANNED)),
        published_count=Count("game_set", filter=~Q(game_set__status=Game.Status.PLANNED)),
    )
