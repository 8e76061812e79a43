"""Reads of the seating: a stage's problem for the engine, its quality report, and the organizer's pages."""
import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, cast

from django.db.models import Count, Q
from django.utils.translation import gettext as _

from audit.actions import Action
from audit.models import AuditEntry
from championships.models import ACTIVE_STATUSES, Entry, Relationship, Stage, Tournament
from core.names import fold
from engines.rulesets import ruleset_for
from engines.seating import engine as seating

from .models import Game, Seat, Table

SIGNED_OFF = "signed_off"
"""`results.RecordSheet.Status.SIGNED_OFF`, which this lower layer may not import."""


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


def _tables_of(games: Sequence[Game]) -> list[tuple[tuple[int, ...], ...]]:
    """Games as tuples of tables of entry ids in position order, read as plain rows in one query."""
    tables: dict[int, dict[int, list[int]]] = {g.pk: {} for g in games}
    if games:
        for game_id, table, entry in Seat.objects.filter(game__in=games).order_by("table__number", "position") \
                .values_list("game_id", "table__number", "entry_id"):
            tables[game_id].setdefault(table, []).append(entry)
    return [tuple(tuple(seats) for _n, seats in sorted(tables[g.pk].items())) for g in games]


def _relations(tournament_id: int, entry_of_player: dict[int, int]) -> tuple[tuple[int, int], ...]:
    """Declared friend/family pairs among these players, as entry-id pairs (`entry_of_player`: player → entry).

    Whichever championship declared a pair, it keeps the two apart here (docs/rules.md I-49). Joined through
    the tournament's entries rather than sent as thousands of ids in the query."""
    pairs = Relationship.objects.filter(player_a__entries__tournament_id=tournament_id,
                                        player_b__entries__tournament_id=tournament_id)
    return tuple((entry_of_player[a], entry_of_player[b])
                 for a, b in pairs.order_by("player_a", "player_b").values_list("player_a", "player_b")
                 if a in entry_of_player and b in entry_of_player)


def _problem(stage: Stage, entries: Sequence[int], entry_of_player: dict[int, int],
             countries: Mapping[seating.Player, str], games: int, history=(), seed: int = 0) -> seating.SeatingProblem:
    ruleset = ruleset_for(stage.tournament.ruleset)
    return seating.SeatingProblem(
        players=tuple(sorted(entries)), games=games, relations=_relations(stage.tournament_id, entry_of_player),
        countries=countries, history=tuple(history), distinct_positions=ruleset.distinct_positions,
        spread_countries=ruleset.spread_countries, seed=seed,
    )


def seatable_entries(tournament_id: int):
    """The entries the next games seat: once check-in has started (anyone checked in), only those checked in."""
    entries = Entry.objects.filter(tournament_id=tournament_id)
    if entries.filter(status=Entry.Status.CHECKED_IN).exists():
        return entries.filter(status=Entry.Status.CHECKED_IN)
    return entries.filter(status__in=ACTIVE_STATUSES)


def stage_plan(stage: Stage, *, seed: int = 0) -> StagePlan:
    """The seating problem of a stage's not-yet-published games, with the published ones as history."""
    games = list(Game.objects.filter(stage=stage).order_by("number"))
    played = [g for g in games if g.status != Game.Status.PLANNED]
    planned = [g for g in games if g.status == Game.Status.PLANNED]
    entries = list(seatable_entries(stage.tournament_id).values_list("pk", "player_id", "player__country__code"))
    problem = _problem(stage, [pk for pk, _p, _c in entries], {p: pk for pk, p, _c in entries},
                       {pk: code for pk, _p, code in entries if code}, max(stage.games - len(played), 1),
                       _tables_of(played), seed)
    return StagePlan(problem, played, planned)


def _token(seats: Iterable[tuple[int, int, int]]) -> str:
    return hashlib.sha256(repr(sorted(seats)).encode()).hexdigest()[:16]


def layout_token(game: Game) -> str:
    """A fingerprint of who sits where in a game, so a swap based on an old view is refused."""
    return _token(Seat.objects.filter(game=game).values_list("entry_id", "table__number", "position"))


TABLES_PER_PAGE = 50
"""Tables of one game shown at once on a large stage's page (200 seats: a phone scrolls, a tablet reads)."""
OPPONENTS_LIST_MAX = 100
"""Up to this many players the page lists whom each meets; beyond, the search shows it player by player."""
SEARCH_MAX = 20


@dataclass(frozen=True)
class SeatView:
    ref: str
    """The seat's reference as the organizer types it in the swap form: table.position ("12.3")."""
    position: int
    entry_id: int
    name: str
    country: str
    seed: int | None
    warnings: list[str]


@dataclass(frozen=True)
class TableView:
    number: int
    seats: list[SeatView]


@dataclass(frozen=True)
class GameView:
    game: Game
    status_disagrees: bool
    """A published or finished game whose status is not what its record sheets say (finished exactly when
    every table's sheet is signed off): the organizer may repair it."""
    can_take_back: bool = False
    """Published with no result entered at any table: the rule of `results.publishing.unpublish_game`."""
    layout: str = ""
    """The layout token the swap form carries (planned games shown on the page)."""
    tables: list[TableView] = field(default_factory=list)
    """The tables shown: all of them, or one page of them on a large stage."""
    table_page: int = 1
    page_ranges: list[tuple[int, int, int]] = field(default_factory=list)
    """(page, first table, last table) of each page of tables, when the game's tables are paged."""

    @property
    def table_pages(self) -> int:
        return len(self.page_ranges) or 1


@dataclass(frozen=True)
class PlayerFound:
    name: str
    seats: list[tuple[int, int, int, int]]
    """(game number, table number, position, page of the table) in each game of the stage."""
    opponents: list[str]
    again: list[str] = field(default_factory=list)
    """The opponents met more than once in the stage."""


@dataclass(frozen=True)
class Pairing:
    """Two named players of the quality report: a friend conflict (`game`) or a repeat pairing (`times`)."""

    first: str
    second: str
    game: int = 0
    times: int = 0


@dataclass(frozen=True)
class StagePage:
    games: list[GameView]
    shown: list[GameView]
    """The games whose tables the page shows: every game when the whole stage fits one page, else the chosen one."""
    paged: bool
    report: seating.QualityReport | None
    opponents: list[tuple[str, list[str], list[str]]]
    """Each player's opponents over the stage and those met again, by name (small stages only, see
    `OPPONENTS_LIST_MAX`)."""
    found: list[PlayerFound]
    query: str
    friend_conflicts: list[Pairing]
    """Each declared pair that shares a table, with the game."""
    distinct_positions: bool
    """The ruleset's seating goals include distinct positions and country spread."""
    players: int
    repeated: list[Pairing] = field(default_factory=list)
    """Each pair that meets more than once, with how often."""
    repeat_bound: int | None = None
    """Repeat pairings proven unavoidable when the stage was last planned (None: not known)."""
    position_bound: int | None = None
    """Position repeats proven unavoidable when the stage was last planned (None: not known)."""
    country_bound: int | None = None
    """Same-country tablemates proven unavoidable when the stage was last planned (None: not known)."""
    can_replan: bool = False
    """Some game of the stage is still planned or not yet made: the re-plan panel has something to do."""

    @property
    def all_planned(self) -> bool:
        """No game of the stage is published yet: a stage seated by rank may still be cleared."""
        return all(view.game.status == Game.Status.PLANNED for view in self.games)

    @property
    def repeats_unavoidable(self) -> bool:
        """The repeat pairings are no more than the engine proved unavoidable: no alarm."""
        return self.report is not None and _proven(self.report.repeat_pairings, self.repeat_bound)

    @property
    def positions_unavoidable(self) -> bool:
        """The position repeats are no more than the engine proved unavoidable: no alarm."""
        return self.report is not None and _proven(self.report.position_repeats, self.position_bound)

    @property
    def compatriots_unavoidable(self) -> bool:
        """The same-country tablemates are no more than the engine proved unavoidable: no alarm."""
        return self.report is not None and _proven(self.report.same_country_tablemates, self.country_bound)


class _EntryPairings(Protocol):
    """A stage's quality report read in entry ids: `_problem` gives the engine entry ids as its players."""

    @property
    def friend_conflicts(self) -> tuple[tuple[int, tuple[int, int]], ...]: ...

    @property
    def repeated_pairs(self) -> tuple[tuple[tuple[int, int], int], ...]: ...

    @property
    def opponents(self) -> Mapping[int, tuple[int, ...]]: ...


def _proven(count: int, bound: int | None) -> bool:
    """Some, but no more than a bound the engine proved."""
    return bool(count) and bound is not None and count <= bound


def _warnings(table: list[tuple[int, int, int | None]], friends: set, repeats: set,
              country: Mapping[int, int | None], spread: bool, name: dict[int, str]) -> dict[int, list[str]]:
    """Why a seat is highlighted, by entry: friend/family at the table, a repeat opponent (named), a compatriot."""
    found: dict[int, list[str]] = {}
    for _position, entry, *_rest in table:
        others = [o for _p, o, *_r in table if o != entry]
        reasons = []
        if any(frozenset((entry, o)) in friends for o in others):
            reasons.append(_("friend or family at this table"))
        again = [name[o] for o in others if frozenset((entry, o)) in repeats]
        if again:
            reasons.append(_("meets %(names)s again") % {"names": ", ".join(again)})
        if spread and country.get(entry) and any(country.get(o) == country[entry] for o in others):
            reasons.append(_("a compatriot at this table"))
        if reasons:
            found[entry] = reasons
    return found


def stage_page(stage: Stage, *, game_number: int | None = None, table_page: int = 1, query: str = "") -> StagePage:
    """Everything the stage's seating page shows, in a fixed handful of queries whatever the stage's size.

    Seats are read as plain rows (no model instances) and only the shown tables are turned into views,
    so a stage of 3,000 players renders one game's page of tables, not 12,000 seats.
    """
    games = list(Game.objects.filter(stage=stage).order_by("number"))
    number_of = {g.pk: g.number for g in games}
    rows = sorted(Seat.objects.filter(game__stage=stage).values_list("game_id", "table__number", "position",
                                                                     "entry_id", "seed"),
                  key=lambda r: (number_of[r[0]], r[1], r[2]))
    sheets = {game_id: (unsigned, started) for game_id, unsigned, started in Table.objects.filter(game__stage=stage)
              .exclude(game__status=Game.Status.PLANNED).values("game_id")
              .annotate(n=Count("pk", filter=~Q(sheet__status=SIGNED_OFF)),
                        started=Count("pk", filter=Q(sheet__version__gt=0)))
              .values_list("game_id", "n", "started")}
    tables: dict[int, dict[int, list]] = {g.pk: {} for g in games}
    for game_id, table, position, entry, seed in rows:
        tables[game_id].setdefault(table, []).append((position, entry, seed))
    seated = {r[3] for r in rows}
    people = {pk: (player, name, code, country, search, bytes(key))
              for pk, player, name, code, country, search, key in Entry.objects.filter(
                  tournament_id=stage.tournament_id).values_list(
                  "pk", "player_id", "player__name", "player__country__code", "player__country_id",
                  "player__search_name", "player__sort_key") if pk in seated}
    ruleset = ruleset_for(stage.tournament.ruleset)
    report = None
    if games:
        problem = _problem(stage, list(people), {p[0]: pk for pk, p in people.items()},
                           {pk: p[2] for pk, p in people.items() if p[2]}, len(games))
        report = seating.assess(problem, [tuple(tuple(e for _p, e, _s in seats) for _n, seats in
                                                sorted(tables[g.pk].items())) for g in games])
    met = cast(_EntryPairings | None, report)  # the engine's players here are entry ids (`_problem`)
    name = {pk: p[1] for pk, p in people.items()}
    names = _Names(name, {pk: p[4] for pk, p in people.items()}, {pk: p[5] for pk, p in people.items()})
    paged = len(rows) > 4 * TABLES_PER_PAGE
    chosen = next((g for g in games if g.number == game_number), None) or next(
        (g for g in games if g.status == Game.Status.PLANNED), games[0] if games else None)
    friends = {frozenset(pair) for _game, pair in met.friend_conflicts} if met else set()
    repeats = {frozenset(pair) for pair, _count in met.repeated_pairs} if met else set()
    country = {pk: p[3] for pk, p in people.items()}
    views, shown = [], []
    for game in games:
        unsigned, started = sheets.get(game.pk, (0, 0))
        disagrees = game.status != Game.Status.PLANNED and (
            (game.status == Game.Status.FINISHED) != (bool(tables[game.pk]) and not unsigned))
        take_back = game.status == Game.Status.PUBLISHED and not started
        if paged and game != chosen:
            views.append(GameView(game, disagrees, take_back))
            continue
        numbers = sorted(tables[game.pk])
        chunks = [numbers[i:i + TABLES_PER_PAGE] for i in range(0, len(numbers), TABLES_PER_PAGE)] if paged else []
        ranges = [(n, chunk[0], chunk[-1]) for n, chunk in enumerate(chunks, 1)] if len(chunks) > 1 else []
        page = min(max(table_page, 1), len(chunks) or 1)
        window = chunks[page - 1] if chunks else numbers
        table_views = []
        for number in window:
            seats = tables[game.pk][number]
            warned = _warnings(seats, friends, repeats, country, ruleset.spread_countries, name)
            table_views.append(TableView(number, [
                SeatView(f"{number}.{position}", position, entry, name[entry], people[entry][2] or "", seed,
                         warned.get(entry, [])) for position, entry, seed in seats]))
        layout = ""
        if game.status == Game.Status.PLANNED:
            layout = _token((e, n, p) for n, seats in tables[game.pk].items() for p, e, _s in seats)
        view = GameView(game, disagrees, take_back, layout, table_views, page, ranges)
        views.append(view)
        shown.append(view)
    again = _met_again(met)
    found = _search(query, games, tables, names, met, again)
    opponents = []
    if met and len(people) <= OPPONENTS_LIST_MAX:
        opponents = [(name[p], [name[o] for o in met.opponents[p]], names.sorted(again.get(p, ())))
                     for p in names.ordered(met.opponents)]
    conflicts = [Pairing(name[a], name[b], game=game) for game, (a, b) in (met.friend_conflicts if met else [])]
    repeated = [Pairing(name[a], name[b], times=times) for (a, b), times in (met.repeated_pairs if met else [])]
    can_replan = len(games) < stage.games or any(g.status == Game.Status.PLANNED for g in games)
    shortfall = report and (report.repeat_pairings or report.position_repeats or report.same_country_tablemates)
    bounds = _proven_bounds(stage) if shortfall else {}
    return StagePage(views, shown, paged, report, opponents, found, query, conflicts, ruleset.distinct_positions,
                     len(people), repeated, bounds.get("repeat_bound"), bounds.get("position_bound"),
                     bounds.get("country_bound"), can_replan)


def _met_again(report: _EntryPairings | None) -> dict[int, set[int]]:
    """Each player's opponents met more than once, by entry."""
    again: dict[int, set[int]] = {}
    for (a, b), _times in (report.repeated_pairs if report else ()):
        again.setdefault(a, set()).add(b)
        again.setdefault(b, set()).add(a)
    return again


def _proven_bounds(stage: Stage) -> dict[str, int]:
    """The repeat pairings, position repeats and same-country tablemates the engine proved unavoidable
    when it last planned the stage (kept in the audit entry), by key; a bound not known is left out."""
    after = AuditEntry.objects.filter(action=Action.SEATING_GENERATED, object_type="stage", object_id=stage.pk) \
        .order_by("-pk").values_list("after", flat=True).first()
    if not isinstance(after, dict):
        return {}
    return {key: after[key] for key in ("repeat_bound", "position_bound", "country_bound")
            if isinstance(after.get(key), int) and not isinstance(after.get(key), bool)}


@dataclass(frozen=True)
class _Names:
    """The stage's players' names by entry, with their search names and sort keys (`core.names`)."""

    name: dict[int, str]
    search: dict[int, str]
    key: dict[int, bytes]

    def ordered(self, entries: Iterable[int]) -> list[int]:
        return sorted(entries, key=lambda pk: (self.key[pk], pk))

    def sorted(self, entries: Iterable[int]) -> list[str]:
        return [self.name[pk] for pk in self.ordered(entries)]


def _search(query: str, games: Sequence[Game], tables: dict[int, dict[int, list]], names: _Names,
            report: _EntryPairings | None, again: dict[int, set[int]]) -> list[PlayerFound]:
    """Players whose name contains the query (as every search compares names, `core.names.fold`): where they sit
    in each game, whom they meet and meet again."""
    needle = fold(query)
    if not needle or report is None:
        return []
    matches = names.ordered(pk for pk, search in names.search.items() if needle in search)[:SEARCH_MAX]
    wanted = set(matches)
    where: dict[int, list] = {pk: [] for pk in wanted}
    for game in games:
        for number, seats in tables[game.pk].items():
            for position, entry, _seed in seats:
                if entry in wanted:
                    where[entry].append((game.number, number, position, 1 + (number - 1) // TABLES_PER_PAGE))
    return [PlayerFound(names.name[pk], where[pk], names.sorted(report.opponents.get(pk, ())),
                        names.sorted(again.get(pk, ()))) for pk in matches]


def stages_overview(tournament: Tournament):
    """The tournament's stages with how many of their games are planned and published."""
    return tournament.stages.order_by("order").annotate(
        planned_count=Count("game_set", filter=Q(game_set__status=Game.Status.PLANNED)),
        published_count=Count("game_set", filter=~Q(game_set__status=Game.Status.PLANNED)),
    )


def seating_rows(stage: Stage, game_number: int | None = None):
    """(game, table, position, player, country) of every seat of the stage, or of one of its games, in order."""
    seats = Seat.objects.filter(game__stage=stage)
    if game_number is not None:
        seats = seats.filter(game__number=game_number)
    return seats.order_by("game__number", "table__number", "position").values_list(
        "game__number", "table__number", "position", "entry__player__name", "entry__player__country__code")
