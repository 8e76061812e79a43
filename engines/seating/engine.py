"""The seating engine: who sits at which table, in which play order, game after game.

`seat` plans the games of a stage (docs/rules.md §2):
friends/family apart first, then the fewest repeat pairings, then (world championship rules)
distinct play-order positions and no compatriots at a table. `reseat` re-plans the games not
yet played after withdrawals or late arrivals; `seeded_tables` and `final_table` build the
seeded (non-random) stages.

The result is deterministic for a given seed: the search runs on work budgets (scaled by the
organizer's `effort`), and the wall-clock guard is only a safety net far above normal running
times; the report says when it fired, since only then can the result differ from run to run.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from .cost import Instance, forced_position_repeats
from .exact import NODE_LIMIT, one_repeat_possible, repeat_free
from .positions import colour_positions, shuffle_positions
from .search import TimeGuard, refine_positions, search_tables

Player = Hashable
Table = tuple[Player, ...]
Game = tuple[Table, ...]
Pair = tuple[Player, Player]

DEFAULT_TIME_LIMIT = 60.0
# Up to this many players a schedule left with repeats is checked by exhaustive search for
# whether any schedule could avoid them all (a few seconds at 20, far more above).
EXACT_PLAYERS = 20
# The most repeats `_exhaustive_bound` can prove: with a bound this high already it has nothing to add.
EXACT_MOST = 2
# How much work the search may do: a multiplier of the default budgets, by name or as a number.
EFFORTS = {"low": 0.25, "normal": 1.0, "high": 4.0}
MIN_EFFORT, MAX_EFFORT = 0.1, 100.0


class SeatingError(ValueError):
    """Input that cannot be seated (too few players, unknown names, ...); the message is plain."""


def effort_factor(text: str) -> float:
    """The budget multiplier an effort names: `low`, `normal`, `high`, or a number from 0.1 to 100."""
    named = EFFORTS.get(text.strip().lower())
    if named is not None:
        return named
    try:
        factor = float(text)
    except ValueError:
        factor = float("nan")
    if not MIN_EFFORT <= factor <= MAX_EFFORT:  # also refuses nan and inf
        raise SeatingError(f"effort must be {', '.join(EFFORTS)} or a multiplier from {MIN_EFFORT:g} to "
                           f"{MAX_EFFORT:g}, not {text!r}")
    return factor


@dataclass(frozen=True)
class SeatingProblem:
    """Everything the engine needs to plan `games` more games of one stage.

    `history` holds the games of the stage already played: each a sequence of tables, each
    table its players in play-order position order (position 1 first). Pairs that met there
    count as met, positions played there count as played. Players in `history` who are no
    longer in `players` (withdrawn) are fine. `relations` are declared friends/family pairs.
    """

    players: tuple[Player, ...]
    games: int
    relations: tuple[Pair, ...] = ()
    countries: Mapping[Player, str] = field(default_factory=dict)
    history: tuple[Game, ...] = ()
    distinct_positions: bool = False
    spread_countries: bool = False
    seed: int = 0

    def __post_init__(self) -> None:
        players = tuple(self.players)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "relations", tuple((a, b) for a, b in self.relations))
        object.__setattr__(self, "countries", MappingProxyType(dict(self.countries)))
        object.__setattr__(
            self, "history", tuple(tuple(tuple(table) for table in game) for game in self.history)
        )
        if len(set(players)) != len(players):
            duplicates = sorted({str(p) for p in players if players.count(p) > 1})
            raise SeatingError(f"player listed twice: {', '.join(duplicates)}")
        if isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < 1:
            raise SeatingError(f"the number of games must be at least 1, not {self.games!r}")
        table_sizes(len(players))
        known = set(players)
        for a, b in self.relations:
            for name in (a, b):
                if name not in known:
                    raise SeatingError(f"relation names {name!r}, who is not a player")
            if a == b:
                raise SeatingError(f"relation pairs {a!r} with themselves")
        for number, game in enumerate(self.history, 1):
            seated = [p for table in game for p in table]
            if len(set(seated)) != len(seated):
                raise SeatingError(f"played game {number} seats a player twice")

    @property
    def first_game(self) -> int:
        """Stage number of the first planned game (the played games come first)."""
        return len(self.history) + 1


@dataclass(frozen=True)
class Schedule:
    """Planned games; each game is its tables, each table its players in play order."""

    games: tuple[Game, ...]
    first_game: int = 1

    def rows(self) -> Iterator[tuple[int, int, int, Player]]:
        """(game, table, position, player) rows, numbered from 1 as printed sheets are."""
        for g, game in enumerate(self.games, self.first_game):
            for t, table in enumerate(game, 1):
                for position, player in enumerate(table, 1):
                    yield g, t, position, player


@dataclass(frozen=True)
class QualityReport:
    """How well a schedule meets the seating priorities.

    Friend conflicts and same-country tablemates count the planned games (played games are
    past); repeat pairings and position repeats count the whole stage, played games included,
    because that is what the players experience.
    """

    friend_conflicts: tuple[tuple[int, Pair], ...]
    repeat_pairings: int
    repeated_pairs: tuple[tuple[Pair, int], ...]
    position_repeats: int
    same_country_tablemates: int
    opponents: Mapping[Player, tuple[Player, ...]]
    seconds: float = 0.0
    # Repeat pairings no schedule of the stage can avoid, as far as the engine proved it
    # (pigeonhole counts, and for small stages an exhaustive search); None: not computed.
    repeat_bound: int | None = None
    # Position repeats no schedule of the stage can avoid (`cost.forced_position_repeats`);
    # None: distinct positions not asked for, or not computed.
    position_bound: int | None = None
    # Same-country tablemates no seating of the planned games can avoid (a country with more
    # players than tables); None: country spread not asked for, or not computed.
    country_bound: int | None = None
    # The search was stopped by the wall-clock guard before its work budget was spent (an
    # overloaded machine): this schedule may differ from another run with the same seed.
    stopped_by_time_guard: bool = False

    @property
    def fewest_repeats_proven(self) -> bool:
        """The repeat pairings are proven the fewest possible (0 always is)."""
        return self.repeat_bound is not None and self.repeat_pairings <= self.repeat_bound


@dataclass(frozen=True)
class SeatingResult:
    """A schedule with its report, so callers never show one without the other."""

    schedule: Schedule
    report: QualityReport


def table_sizes(count: int) -> tuple[int, ...]:
    """Table sizes for `count` players: as many 4-player tables as possible, the rest of 3."""
    if count in (0, 1, 2, 5) or count < 0:
        raise SeatingError(
            f"{count} player{'' if count == 1 else 's'} cannot be seated at tables of 3 or 4 "
            "(a stage needs 3, 4 or at least 6 players)"
        )
    threes = (-count) % 4
    return (4,) * ((count - 3 * threes) // 4) + (3,) * threes


def seat(
    problem: SeatingProblem,
    *,
    budget: int | None = None,
    effort: float = 1.0,
    time_limit: float | None = None,
    progress: Callable[[float], None] | None = None,
) -> SeatingResult:
    """Plan `problem.games` games.

    `budget` caps the candidate swaps the search evaluates (None: a default that grows with
    the seats to plan, a second or two at most on a tournament-sized stage) and `effort`
    multiplies it (`effort_factor`: 4 searches up to four times as long); work, not the clock,
    decides the result, so a seed always gives the same schedule. `time_limit` (seconds;
    default a minute times the effort, at least a minute) is only a safety net, and the report
    says when it fired. `progress` hears the share of the search budget used, rising, now and
    then during the search and 1.0 at the end (most stages end early at their lower bound).
    The report's `repeat_bound`, `position_bound` and `country_bound` are what is proven unavoidable.
    """
    started = time.perf_counter()
    instance = _instance(problem)
    guard = TimeGuard(DEFAULT_TIME_LIMIT * max(1.0, effort) if time_limit is None else time_limit)
    seated, model = search_tables(instance, budget=budget, effort=effort, guard=guard, progress=progress)
    rng = random.Random(f"positions:{problem.seed}")
    if problem.distinct_positions:
        coloured = colour_positions(instance, seated, rng)
        seated = refine_positions(instance, seated, coloured, budget=budget, effort=effort, guard=guard)
    else:
        seated = shuffle_positions(seated, rng)
    players = problem.players
    games = tuple(tuple(tuple(players[i] for i in table) for table in game) for game in seated)
    schedule = Schedule(games=games, first_game=problem.first_game)
    report = assess(problem, schedule)
    bound = model.repeat_bound
    if bound < min(report.repeat_pairings, EXACT_MOST) and _provable(problem):
        nodes = round(NODE_LIMIT * effort)
        bound = max(bound, _exhaustive_bound(len(players), problem.games, report.repeat_pairings, nodes))
    positions = (forced_position_repeats(instance.history_positions, instance.games, instance.sizes)
                 if problem.distinct_positions else None)
    compatriots = model.country_bound if problem.spread_countries else None
    if progress is not None:
        progress(1.0)
    return SeatingResult(schedule, replace(report, seconds=time.perf_counter() - started, repeat_bound=bound,
                                           position_bound=positions, country_bound=compatriots,
                                           stopped_by_time_guard=guard.fired))


def _provable(problem: SeatingProblem) -> bool:
    """Small fresh stages at tables of 4, where `exact` decides in a few seconds."""
    count = len(problem.players)
    return not problem.history and count % 4 == 0 and count <= EXACT_PLAYERS


def _exhaustive_bound(players: int, games: int, found: int, nodes: int) -> int:
    """Repeats the exhaustive searches prove unavoidable (at most `EXACT_MOST`): 1 when no
    schedule is repeat-free, 2 when none has a single repeat either (asked only when more than
    one was found). `nodes` bounds each search; an undecided one proves nothing."""
    if repeat_free(players, games, nodes) is not False:
        return 0
    if found == 1 or one_repeat_possible(players, games, nodes) is not False:
        return 1
    return EXACT_MOST


def reseat(
    problem: SeatingProblem,
    *,
    withdrawn: Iterable[Player] = (),
    arrived: Iterable[Player] = (),
    budget: int | None = None,
    effort: float = 1.0,
    time_limit: float | None = None,
) -> SeatingResult:
    """Re-plan the games not yet played after withdrawals and late arrivals (budgets as in `seat`).

    `problem.history` holds the games played and `problem.games` the number still to play;
    who met whom and who played which position there still count. Relations of withdrawn
    players are dropped; give arrivals' countries in `problem.countries`.
    """
    gone = set(withdrawn)
    unknown = gone.difference(problem.players)
    if unknown:
        raise SeatingError(f"withdrawn player is not playing: {', '.join(sorted(map(str, unknown)))}")
    new = tuple(arrived)
    present = set(problem.players).intersection(new)
    if present:
        raise SeatingError(f"arriving player is already playing: {', '.join(sorted(map(str, present)))}")
    players = tuple(p for p in problem.players if p not in gone) + new
    relations = tuple((a, b) for a, b in problem.relations if a not in gone and b not in gone)
    updated = SeatingProblem(
        players=players,
        games=problem.games,
        relations=relations,
        countries=problem.countries,
        history=problem.history,
        distinct_positions=problem.distinct_positions,
        spread_countries=problem.spread_countries,
        seed=problem.seed,
    )
    return seat(updated, budget=budget, effort=effort, time_limit=time_limit)


def assess(
    problem: SeatingProblem, schedule: Schedule | Sequence[Game], seconds: float = 0.0
) -> QualityReport:
    """Measure a schedule (ours or anyone's) against the problem's priorities, from scratch."""
    planned = schedule.games if isinstance(schedule, Schedule) else tuple(schedule)
    games = (*problem.history, *planned)
    rank: dict[Player, tuple[int, str]] = {}
    for p in (*problem.players, *(p for game in games for table in game for p in table)):
        rank.setdefault(p, (len(rank), str(p)))

    def pair(a: Player, b: Player) -> Pair:
        return (a, b) if rank[a] <= rank[b] else (b, a)

    friends = {pair(a, b) for a, b in problem.relations}
    meetings: dict[Pair, int] = {}
    positions: dict[Player, list[int]] = {}
    opponents: dict[Player, list[Player]] = {p: [] for p in problem.players}
    conflicts: list[tuple[int, Pair]] = []
    compatriots = 0
    for number, game in enumerate(games, 1):
        is_planned = number >= problem.first_game
        for table in game:
            for position, p in enumerate(table, 1):
                positions.setdefault(p, []).append(position)
                opponents.setdefault(p, []).extend(q for q in table if q != p)
            for i, a in enumerate(table):
                for b in table[i + 1:]:
                    key = pair(a, b)
                    meetings[key] = meetings.get(key, 0) + 1
                    if not is_planned:
                        continue
                    if key in friends:
                        conflicts.append((number, key))
                    country = problem.countries.get(a)
                    if country and country == problem.countries.get(b):
                        compatriots += 1
    repeated = tuple(sorted(
        ((k, m) for k, m in meetings.items() if m > 1), key=lambda km: (rank[km[0][0]], rank[km[0][1]])
    ))
    return QualityReport(
        friend_conflicts=tuple(conflicts),
        repeat_pairings=sum(m - 1 for _, m in repeated),
        repeated_pairs=repeated,
        position_repeats=sum(len(ps) - len(set(ps)) for ps in positions.values()),
        same_country_tablemates=compatriots,
        opponents=MappingProxyType({p: tuple(qs) for p, qs in opponents.items()}),
        seconds=seconds,
    )


def seeded_tables(players_in_rank_order: Sequence[Player]) -> tuple[Table, ...]:
    """Seeded tables by the snake chart: table i of k gets seeds i, 2k+1-i, 2k+i, 4k+1-i.

    With 16 players: T1 1,8,9,16 · T2 2,7,10,15 · T3 3,6,11,14 · T4 4,5,12,13. Players sit in
    seed order; they choose the actual play order at the table.
    """
    ranked = tuple(players_in_rank_order)
    count = len(ranked)
    if count < 4 or count % 4 or len(set(ranked)) != count:
        raise SeatingError(f"seeded tables need a multiple of 4 distinct players, not {count}")
    k = count // 4
    return tuple(
        tuple(ranked[seed - 1] for seed in (i, 2 * k + 1 - i, 2 * k + i, 4 * k + 1 - i))
        for i in range(1, k + 1)
    )


def final_table(players: Sequence[Player]) -> Table:
    """The final table: the first four of a ranking, or the four semifinal winners in seed order."""
    ranked = tuple(players)
    if len(ranked) < 4 or len(set(ranked[:4])) != 4:
        raise SeatingError(f"a final table needs 4 distinct players, not {len(ranked)}")
    return ranked[:4]


def _instance(problem: SeatingProblem) -> Instance:
    """Translate the problem to integer ids and sparse pair data for the search."""
    players = problem.players
    index = {p: i for i, p in enumerate(players)}
    n = len(players)
    friends: set[int] = set()
    for a, b in problem.relations:
        i, j = index[a], index[b]
        friends.update((i * n + j, j * n + i))
    ids: dict[str, int] = {}
    country = [-1 - i for i in range(n)]
    if problem.spread_countries:
        for p, i in index.items():
            name = problem.countries.get(p)
            if name:
                country[i] = ids.setdefault(name, len(ids))
    met: dict[int, int] = {}
    history_positions: list[list[int]] = [[] for _ in range(n)]
    history_threes = [0] * n
    for game in problem.history:
        for table in game:
            ids_at = [index.get(p, -1) for p in table]
            for position, i in enumerate(ids_at, 1):
                if i < 0:
                    continue
                history_positions[i].append(position)
                history_threes[i] += len(table) == 3
                for j in ids_at:
                    if j >= 0 and j != i:
                        met[i * n + j] = met.get(i * n + j, 0) + 1
    return Instance(
        n=n,
        games=problem.games,
        sizes=table_sizes(n),
        friends=frozenset(friends),
        country=country,
        met=met,
        history_positions=history_positions,
        history_threes=history_threes,
        distinct_positions=problem.distinct_positions,
        seed=problem.seed,
    )
