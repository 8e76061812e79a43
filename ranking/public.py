"""Reads for the public pages (no login): each a fixed number of queries, whatever the number of players.

Standings and the rank after each game come from the standings cache (`standings.py`); everything a
page shows changes with the tournament's results version, which the views use as the ETag.
"""
import contextlib
from collections import defaultdict
from dataclasses import dataclass, field
from typing import cast

from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, Prefetch

from championships.models import ACTIVE_STATUSES, Championship, Entry, Stage, Tournament
from championships.namesakes import entry_numbers
from core.names import fold
from engines.metrics import Unit
from engines.ranking.engine import SeatResult, TableResult, score_table
from engines.rulesets import ruleset_for
from results.models import RecordSheet
from results.selectors import current_game, recent_announcements
from scheduling.models import Game, Seat, Table

from .columns import Column, standings_columns
from .final_table import FinalTable, final_table
from .selectors import advancing_entries, podium, tournament_done
from .standings import (
    Results,
    load_results,
    ranked_standings,
    results_version,
    straddles_cutoff,
    tied_groups,
    tournament_standings,
)

QUERY_MAX = 100
"""The longest "where do I sit?" search (a name is at most 200 characters; a part of one is enough)."""
MATCHES_SHOWN = 20
"""More matches than this: the reader types more of the name."""
WAITING_LIST = 4
"""Players shown after a qualifier's last qualified player: who would take a place that is given back."""
MAX_PLACES = 6
"""The most decimals a tiebreak value is shown with (differences beyond this are not shown, only ranked)."""

# ---- overview -------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Overview:
    stages: list[Stage]
    games: list[Game]
    current: Game | None
    next_game: Game | None
    table_counts: dict[str, int]
    """The current game's tables: "done" (signed off) and "in_play"."""
    announcements: list
    podium: list[dict]


def overview(tournament: Tournament) -> Overview:
    stages = list(tournament.stages.all())
    games = list(tournament.games.order_by("number"))
    shown = [g for g in games if g.status != Game.Status.PLANNED]
    current = current_game(shown)
    next_game = next((g for g in shown if current and g.number > current.number
                      and g.status == Game.Status.PUBLISHED), None)
    counts = {"done": 0, "in_play": 0}
    if current is not None:
        for status, n in (Table.objects.filter(game=current).values_list("sheet__status")
                          .annotate(n=Count("pk")).values_list("sheet__status", "n")):
            counts["done" if status == RecordSheet.Status.SIGNED_OFF else "in_play"] += n
    return Overview(stages, games, current, next_game, counts, recent_announcements(tournament),
                    podium(tournament, tournament_done(stages, games)))


# ---- where do I sit? ------------------------------------------------------------------------------------------

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


def _per_version(tournament: Tournament, name: str, compute):
    """`compute()`, cached under the tournament's results version; computed afresh without a version or cache."""
    version = results_version(tournament.pk)
    if version is None:
        return compute()
    key = f"{name}:{tournament.pk}:{version}"
    with contextlib.suppress(Exception):  # the cache is an optimisation only
        if (found := cache.get(key)) is not None:
            return found
    value = compute()
    with contextlib.suppress(Exception):
        cache.set(key, value, timeout=settings.STANDINGS_CACHE_SECONDS)
    return value


def searchable_names(tournament: Tournament) -> list[tuple[str, int, str, int]]:
    """(search name, entry id, name, player id) of every entry, by name (`Player.search_name`, `.sort_key`); cached
    per results version (entries and renamed players replace it), so a search compares strings in one list."""
    return _per_version(tournament, "where-search-names", lambda: list(
        tournament.entries.order_by("player__sort_key", "pk")
        .values_list("player__search_name", "pk", "player__name", "player_id")))


def namesake_numbers(tournament: Tournament) -> dict[int, int]:
    """Entry id → its number among the tournament's namesakes ("Ann Lee (2)"), for entries whose name another
    shares: every public list names them alike, so a player finds their own seat. Cached per results version."""
    return _per_version(tournament, "namesakes", lambda: entry_numbers(
        (pk, name) for _key, pk, name, _player in searchable_names(tournament)))


# ---- a game ---------------------------------------------------------------------------------------------------

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
                game.number, table.number, tuple(_seat_result(s) for s in seats)), rules)]
            row = [SeatRow(s.position, s.entry.player.name, s.entry.player_id, s.score.vp, s.score.winner, p,
                           namesakes.get(s.entry_id)) for s, p in zip(seats, places)]
        else:
            row = [SeatRow(s.position, s.entry.player.name, s.entry.player_id, namesake=namesakes.get(s.entry_id))
                   for s in seats]
        rows.append(TableRow(table.number, sheet is not None and sheet.is_locked, row,
                             table.board_code if game.stage.boards_per_table else ""))
    return GamePage(game, rows, counts.get(RecordSheet.Status.SIGNED_OFF, 0), total, page, pages)


def _seat_result(seat: Seat) -> SeatResult:
    return SeatResult(seat.entry_id, cast(int, seat.score.vp), seat.score.winner)  # a signed-off sheet has every VP


# ---- a player -------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class PlayerGame:
    game: int
    table: int
    position: int
    opponents: list[tuple[str, int, int | None]]
    """(name, player id, namesake number) of the others at the table, in play order."""
    signed_off: bool
    vp: int | None
    winner: bool
    place: int | None
    share: float | None
    """VP share of the table (counted VP over the table total), 0–1."""
    rank_after: int | None

    @property
    def share_percent(self) -> float | None:
        return None if self.share is None else self.share * 100


@dataclass(frozen=True)
class PlayerPage:
    entry: Entry
    row: dict | None
    """The player's standing row (rank, tied and every metric), None before any result."""
    games: list[PlayerGame]
    status: str
    """Qualification: "sent", "advancing", "qualified" (a finalist from a qualifier), "waiting" or ""."""
    namesake: int | None = None
    """The player's number among namesakes, as every public list shows it."""


def rank_history(tournament: Tournament) -> dict[int, dict[int, int]]:
    """Each entry's rank after each game (game number → rank), cached with the standings' generation."""
    return _per_version(tournament, "rank-history", lambda: _rank_history(tournament))


def _rank_history(tournament: Tournament) -> dict[int, dict[int, int]]:
    results = load_results(tournament)
    numbers = sorted({t.game for tables in results.tables_by_stage.values() for t in tables})
    history: dict[int, dict[int, int]] = defaultdict(dict)
    for number in numbers:
        upto = Results({k: [t for t in v if t.game <= number] for k, v in results.tables_by_stage.items()},
                       results.entries, results.deductions, results.draws, results.disqualified)
        for standing in ranked_standings(tournament, upto, whole_event=True):
            history[cast(int, standing.player)][number] = standing.rank  # the engine ranks entries by id
    return dict(history)


def player_page(tournament: Tournament, player_id: int) -> PlayerPage | None:
    entry = (tournament.entries.select_related("player__country", "source_tournament")
             .filter(player_id=player_id).first())
    if entry is None:
        return None
    rules = ruleset_for(tournament.ruleset)
    own = list(Seat.objects.filter(entry=entry).exclude(game__status=Game.Status.PLANNED)
               .select_related("game", "table__sheet", "score").order_by("game__number"))
    others: dict[int, list[Seat]] = defaultdict(list)
    for seat in (Seat.objects.filter(table__in=[s.table_id for s in own]).select_related("entry__player", "score")
                 .order_by("position")):
        others[seat.table_id].append(seat)
    history = rank_history(tournament).get(entry.pk, {})
    namesakes = namesake_numbers(tournament)
    games = []
    for seat in own:
        table_seats = others[seat.table_id]
        sheet = getattr(seat.table, "sheet", None)
        signed_off = sheet is not None and sheet.is_locked
        vp = place = share = None
        if signed_off:
            scores = score_table(TableResult(seat.game.number, seat.table.number,
                                             tuple(_seat_result(s) for s in table_seats)), rules)
            mine = scores[[s.pk for s in table_seats].index(seat.pk)]
            vp, place, share = seat.score.vp, mine.place, mine.vp / mine.table_total if mine.table_total else None
        games.append(PlayerGame(seat.game.number, seat.table.number, seat.position,
                                [(s.entry.player.name, s.entry.player_id, namesakes.get(s.entry_id))
                                 for s in table_seats if s.pk != seat.pk],
                                signed_off, vp, signed_off and seat.score.winner, place, share,
                                history.get(seat.game.number) if signed_off else None))
    rows = tournament_standings(tournament)
    row = next((r for r in rows if r["entry"] == entry.pk), None)
    return PlayerPage(entry, row, games, _qualification_status(tournament, entry, rows), namesakes.get(entry.pk))


def _qualification_status(tournament: Tournament, entry: Entry, rows: list[dict]) -> str:
    if entry.source_tournament_id is not None:
        return "qualified"
    if tournament.kind != Tournament.Kind.QUALIFIER or not tournament.advance_count:
        return ""
    advancing = advancing_entries(tournament, rows)
    if entry.pk in advancing:
        return "sent" if tournament.qualified_entries.filter(player_id=entry.player_id).exists() else "advancing"
    return ""


# ---- standings ------------------------------------------------------------------------------------------------

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
    columns = standings_columns(tournament.ruleset)
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


# ---- championship ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class QualifierBlock:
    tournament: Tournament
    qualified: list[Entry]
    """Their finals entries, by rank in the qualifier."""
    waiting: list[dict]
    """Standing rows of the next eligible players, best first."""
    done: bool
    provisional: list[dict] = field(default_factory=list)
    """A finished qualifier whose players are not sent yet: the standing rows in the qualifying places."""


@dataclass(frozen=True)
class FinalsBlock:
    tournament: Tournament
    """The finals, or a world or club event of the championship."""
    podium: list[dict]


@dataclass(frozen=True)
class ChampionshipPage:
    championship: Championship
    qualifiers: list[QualifierBlock]
    finals: list[FinalsBlock]
    champion: dict | None
    others: list[Tournament] = field(default_factory=list)


def championship_page(championship: Championship) -> ChampionshipPage:
    tournaments = list(championship.tournaments.all())
    stages: dict[int, list[Stage]] = defaultdict(list)
    for stage in Stage.objects.filter(tournament__championship=championship):
        stages[stage.tournament_id].append(stage)
    games: dict[int, list[Game]] = defaultdict(list)
    for game in Game.objects.filter(tournament__championship=championship).only("tournament_id", "stage_id",
                                                                                  "status", "number"):
        games[game.tournament_id].append(game)
    finalists = list(Entry.objects.filter(tournament__championship=championship, source_tournament__isnull=False)
                     .select_related("player", "source_tournament").order_by("source_rank"))
    qualified_anywhere = {e.player_id for e in finalists}
    blocks = []
    for t in tournaments:
        if t.kind != Tournament.Kind.QUALIFIER:
            continue
        done = tournament_done(stages[t.pk], games[t.pk]) or t.status == Tournament.Status.FINISHED
        sent = [e for e in finalists if e.source_tournament_id == t.pk]
        waiting, provisional = [], []
        if sent or done:
            eligible = [r for r in tournament_standings(t) if r["status"] in ACTIVE_STATUSES
                        and not r["disqualified"] and r["player_id"] not in qualified_anywhere]
            if not sent:  # the organizer has not sent them yet: the top places as the standings stand
                provisional, eligible = eligible[:t.advance_count], eligible[t.advance_count:]
            waiting = eligible[:WAITING_LIST]
        blocks.append(QualifierBlock(t, sent, waiting, done, provisional))
    finals = [FinalsBlock(t, podium(t, tournament_done(stages[t.pk], games[t.pk])))
              for t in tournaments if t.kind != Tournament.Kind.QUALIFIER]
    champion = next(({**f.podium[0], "tournament": f.tournament} for f in finals
                     if f.tournament.kind in (Tournament.Kind.FINALS, Tournament.Kind.WORLD) and f.podium), None)
    return ChampionshipPage(championship, blocks, finals, champion)


# ---- projector ------------------------------------------------------------------------------------------------

STANDINGS_PER_SLIDE = 10
NAMES_PER_SLIDE = 36
STANDINGS_SLIDES = 6
"""The projector shows the top 60; everyone finds the rest on their phone."""
SEATING_SLIDES_PER_PART = 8
""""Find your table" slides on one projector page (288 names). A big game's seating comes in parts, one page
each (`?part=`): the projector moves on to the next part once it has shown these slides, so a page stays small
(3,000 players: 500 KB in one page, about 100 KB a part before compression) and each part is cached alone."""


@dataclass(frozen=True)
class ScreenPage:
    standings: PublicStandings
    standing_slides: list[list[StandingRow]]
    game: Game | None
    seating_slides: list[list[tuple[str, int, int, int | None]]]
    """(name, table, position, namesake number), alphabetically: this part's slides."""
    announcements: list
    part: int = 1
    parts: int = 1
    seating_total: int = 0
    """"Find your table" slides in all parts."""

    @property
    def first_slide(self) -> int:
        """The number of this part's first "find your table" slide, less one (slides are numbered across parts)."""
        return (self.part - 1) * SEATING_SLIDES_PER_PART

    @property
    def part_numbers(self) -> range:
        return range(1, self.parts + 1)

    @property
    def next_part(self) -> int:
        """The part the projector shows next (after the last, the first again)."""
        return self.part % self.parts + 1


def screen_page(tournament: Tournament, part: int = 1) -> ScreenPage:
    standings = public_standings(tournament, per_page=STANDINGS_PER_SLIDE * STANDINGS_SLIDES)
    top = standings.rows
    slides = [top[i:i + STANDINGS_PER_SLIDE] for i in range(0, len(top), STANDINGS_PER_SLIDE)]
    game = tournament.games.filter(status=Game.Status.PUBLISHED).order_by("number").first()
    names = []
    if game is not None:
        namesakes = namesake_numbers(tournament)
        names = [(name, table, position, namesakes.get(entry)) for name, table, position, entry, _key in sorted(
            Seat.objects.filter(game=game).values_list("entry__player__name", "table__number", "position",
                                                       "entry_id", "entry__player__sort_key"),
            key=lambda s: bytes(s[4]))]
    seating = [names[i:i + NAMES_PER_SLIDE] for i in range(0, len(names), NAMES_PER_SLIDE)]
    parts = max(1, -(-len(seating) // SEATING_SLIDES_PER_PART))
    part = min(max(part, 1), parts)
    shown = seating[(part - 1) * SEATING_SLIDES_PER_PART: part * SEATING_SLIDES_PER_PART]
    return ScreenPage(standings, slides, game, shown, recent_announcements(tournament)[:5], part, parts, len(seating))
