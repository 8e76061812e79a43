"""The ranking engine: table results in, standings out (docs/rules.md §4).

Ordering compares exact integers and Fractions only; floats appear in `Standing.as_json` alone.
Memory grows by a few bytes a seat: scored games are kept in columns of small integers
(`Scoresheet`), a player's record is rebuilt when a metric asks for it, and `iter_standings` holds
the players' sort keys only while sorting, handing out each Standing as it goes.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from array import array
from collections import defaultdict
from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar, overload

from engines.metrics import DRAW, METRICS, WINNER_CAP, GameScore, PlayerRecord, Value
from engines.ranking.problems import Problem
from engines.ranking.validation import check_deduction, check_table, players_seated_twice
from engines.rulesets import Ruleset, ruleset_for

T = TypeVar("T")
SortKey = tuple[Any, ...]  # compared element by element: flags, a lead, then metric values
KeyOf = Callable[[Hashable, Mapping[str, Value]], SortKey]


@dataclass(frozen=True, slots=True)
class SeatResult:
    player: Hashable
    vp: int
    """As recorded on the sheet; the engine caps it for ranking, the sheet keeps what was scored."""
    winner: bool


@dataclass(frozen=True, slots=True)
class TableResult:
    game: int
    table: int
    seats: tuple[SeatResult, ...]
    minutes: int | None = None
    """Game duration; needed for tempo (required by rulesets that rank by it)."""


class CheckedTables(ABC, Iterable[TableResult]):
    """Table results already checked as `validate` checks them (each table by `check_table`, no table
    twice, nobody at two tables of a game), so `player_records` takes them as they come: the `rank`
    command's reader checks its file once, with the same functions, and hands the tables out one by one."""

    @abstractmethod
    def __iter__(self) -> Iterator[TableResult]:
        ...


class ResultError(ValueError):
    """A table result that cannot be ranked; `problems` are the validation problems behind it."""

    def __init__(self, game: int, table: int, problems: Sequence[Problem]):
        self.game, self.table, self.problems = game, table, tuple(problems)
        super().__init__(f"game {game}, table {table}: " + " ".join(p.message for p in problems))


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    """Standard competition ranking (1, 1, 3)."""
    player: Hashable
    tied: bool
    """True when the player shares the rank after every tiebreaker and any recorded draw."""
    disqualified: bool
    values: dict[str, Value]
    """Every registered metric, plus "draw": 1, 2, … as a recorded draw ordered the tied group, else None."""

    def as_json(self) -> dict[str, object]:
        """The public JSON object of `rank --json` and the standings API; Fractions become floats."""
        values = {k: float(v) if isinstance(v, Fraction) else v for k, v in self.values.items()}
        return {"rank": self.rank, "player": self.player, **values,
                "tied": self.tied, "disqualified": self.disqualified}


def table_total(counted: Sequence[int]) -> int:
    """Sum of counted VP; a 3-player table adds the mean of its scores rounded half up (integers only)."""
    total = sum(counted)
    return total + (2 * total + 3) // 6 if len(counted) == 3 else total


def score_table(table: TableResult, ruleset: Ruleset) -> list[GameScore]:
    """Counted VP, table total and place of each seat, in seat order; the table must be valid."""
    counted = [min(s.vp, WINNER_CAP if s.winner else ruleset.non_winner_cap) for s in table.seats]
    total = table_total(counted)
    losers = [vp for vp, s in zip(counted, table.seats) if not s.winner]
    return [
        GameScore(table.game, table.table, vp, total,
                  1 if s.winner else 2 + sum(1 for other in losers if other > vp), table.minutes)
        for vp, s in zip(counted, table.seats)
    ]


def validate(tables: Iterable[TableResult], ruleset: Ruleset) -> None:
    """Raise ResultError for the first invalid table, or a player seated twice in one game."""
    seen: set[tuple[int, int]] = set()
    by_game: dict[int, list[tuple[int, list[Hashable]]]] = defaultdict(list)
    for t in tables:
        if (t.game, t.table) in seen:
            raise ResultError(t.game, t.table, [Problem(None, "seats", "table_twice")])
        seen.add((t.game, t.table))
        seats = [(s.player, s.vp, s.winner) for s in t.seats]
        problems = check_table(seats, minutes=t.minutes, ruleset=ruleset)
        if problems:
            raise ResultError(t.game, t.table, problems)
        by_game[t.game].append((t.table, [s.player for s in t.seats]))
    for game, seating in by_game.items():
        if twice := players_seated_twice(seating):
            table, problem = twice[0]
            raise ResultError(game, table, [problem])


def grouped(keys: array[int], count: int) -> tuple[array[int], array[int]]:
    """Positions 0..n-1 of `keys` (each in 0..count-1) grouped by key, in order within a group, and where each
    key's group starts (`start[k]:start[k + 1]`): a counting sort into two arrays, no object per position."""
    start = array("i", bytes(array("i").itemsize * (count + 1)))
    for k in keys:
        start[k + 1] += 1
    for k in range(count):
        start[k + 1] += start[k]
    filled = array("i", start)
    order = array("i", bytes(array("i").itemsize * len(keys)))
    for position, k in enumerate(keys):
        order[filled[k]] = position
        filled[k] += 1
    return order, start


class Scoresheet(Mapping[Hashable, PlayerRecord]):
    """Every player's scored games in columns (`array`s of integers, a few bytes a seat); a player's
    PlayerRecord, games in game order, is built when asked for and not kept."""

    NO_MINUTES = -1

    def __init__(self, players: Iterable[Hashable] = ()) -> None:
        self.players: list[Hashable] = []
        self.index: dict[Hashable, int] = {}
        self.deductions: dict[int, int] = {}
        # Per seat: player id, table id, counted VP (0-12) and place (1-4); per table: its numbers,
        # its total (at most 48) and its duration (at most a day).
        self.player, self.at, self.vp, self.place = array("i"), array("i"), array("b"), array("b")
        self.game, self.table, self.total, self.minutes = array("q"), array("q"), array("h"), array("h")
        self._by_player: tuple[array[int], array[int]] | None = None
        for p in players:
            self._id(p)

    def _id(self, player: Hashable) -> int:
        found = self.index.get(player)
        if found is None:
            found = self.index[player] = len(self.players)
            self.players.append(player)
        return found

    def add(self, table: TableResult, scores: Sequence[GameScore]) -> None:
        """One table's seats with their scores (`score_table`: one total and duration for the table)."""
        t = len(self.game)
        self.game.append(table.game)
        self.table.append(table.table)
        self.total.append(scores[0].table_total)
        self.minutes.append(self.NO_MINUTES if table.minutes is None else table.minutes)
        for seat, score in zip(table.seats, scores):
            self.player.append(self._id(seat.player))
            self.at.append(t)
            self.vp.append(score.vp)
            self.place.append(score.place)
        self._by_player = None

    def deduct(self, player: Hashable, vp: int) -> None:
        self.deductions[self.index[player]] = vp

    def __getitem__(self, player: Hashable) -> PlayerRecord:
        p = self.index[player]
        if self._by_player is None:
            self._by_player = grouped(self.player, len(self.players))
        order, start = self._by_player
        games = []
        for i in order[start[p]:start[p + 1]]:
            t = self.at[i]
            minutes = self.minutes[t]
            games.append(GameScore(self.game[t], self.table[t], self.vp[i], self.total[t], self.place[i],
                                   None if minutes == self.NO_MINUTES else minutes))
        games.sort(key=lambda s: s.game)
        return PlayerRecord(player, tuple(games), self.deductions.get(p, 0))

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self.players)

    def __len__(self) -> int:
        return len(self.players)

    def __contains__(self, player: object) -> bool:
        return player in self.index


def player_records(
    tables: Iterable[TableResult], ruleset: Ruleset | str, *,
    deductions: Mapping[Hashable, int] | None = None, players: Iterable[Hashable] = (),
) -> Scoresheet:
    """Validated per-player game records, games in game order; `players` adds entrants with no game yet.

    Tables that are `CheckedTables` are taken as they come; any others are validated first.
    """
    rules = ruleset_for(ruleset)
    if not isinstance(tables, CheckedTables):
        tables = list(tables)
        validate(tables, rules)
    sheet = Scoresheet(players)
    for t in tables:
        sheet.add(t, score_table(t, rules))
    for player, vp in (deductions or {}).items():
        if player not in sheet:
            raise ValueError(f"VP deduction for {player}, who has no result and is not an entrant.")
        if (message := check_deduction(vp)) is not None:
            raise ValueError(f"{player}: {message}")
        sheet.deduct(player, vp)
    return sheet


def _canonical(players: Iterable[Hashable]) -> list[Hashable]:
    """A fixed listing order for players who share a rank, independent of input order."""
    listed: list[Any] = list(players)
    try:
        return sorted(listed)
    except TypeError:
        return sorted(listed, key=lambda p: (type(p).__name__, repr(p)))


def _draw_positions(draws: Iterable[Sequence[Hashable]]) -> list[dict[Hashable, int]]:
    positions = []
    for order in draws:
        index = {p: i for i, p in enumerate(order)}
        if len(index) != len(order):
            raise ValueError(f"a recorded draw names a player twice: {list(order)}")
        positions.append(index)
    return positions


def _deciding_draw(
    group: Sequence[Hashable], positions: Sequence[dict[Hashable, int]],
) -> dict[Hashable, int] | None:
    return next((d for d in reversed(positions) if all(p in d for p in group)), None)


def rank_records(
    records: Mapping[Hashable, PlayerRecord], ruleset: Ruleset | str, *,
    draws: Iterable[Sequence[Hashable]] = (), disqualified: Collection[Hashable] = (),
    lead: Mapping[Hashable, SortKey] | None = None,
) -> list[Standing]:
    """Order players by `lead` (higher first; e.g. a final's places), then the ruleset's chain.

    Disqualified players come after everyone else. Players still equal are ordered by the latest
    recorded draw that names all of them (a draw naming only some of them is stale and ignored).
    """
    return list(iter_standings(records, ruleset, draws=draws, disqualified=disqualified, lead=lead))


def iter_standings(
    records: Mapping[Hashable, PlayerRecord], ruleset: Ruleset | str, *,
    draws: Iterable[Sequence[Hashable]] = (), disqualified: Collection[Hashable] = (),
    lead: Mapping[Hashable, SortKey] | None = None,
) -> Iterator[Standing]:
    """`rank_records` one Standing at a time, in rank order: the sort keys live only while sorting,
    and a player's metric values are computed again when their Standing is handed out."""
    rules = ruleset_for(ruleset)
    disqualified = set(disqualified)
    unknown = disqualified - records.keys()
    if unknown:
        raise ValueError(f"disqualified player(s) without any result or entry: {_canonical(unknown)}")
    chain = rules.computed

    def key(player: Hashable, values: Mapping[str, Value]) -> SortKey:
        return (player not in disqualified, *(lead[player] if lead else ()), *(values[k] for k in chain))

    def sort_key(player: Hashable) -> SortKey:
        record = records[player]
        return key(player, {k: METRICS[k].compute(record) for k in chain})

    order = sorted(_canonical(records), key=sort_key, reverse=True)
    positions = _draw_positions(draws) if rules.uses_draws else []
    return _standings(records, order, key, positions, disqualified)


def _standings(
    records: Mapping[Hashable, PlayerRecord], order: list[Hashable], key: KeyOf,
    positions: list[dict[Hashable, int]], disqualified: set[Hashable],
) -> Iterator[Standing]:
    """Standings of players in rank order, a group of players equal on every key at a time."""
    start = 1
    for group in _equal_keys(records, order, key):
        decided = _deciding_draw([p for p, _ in group], positions) if len(group) > 1 else None
        if decided is not None:
            group.sort(key=lambda member: decided[member[0]])
        for i, (p, values) in enumerate(group):
            values[DRAW] = i + 1 if decided is not None else None
            yield Standing(
                rank=start + (i if decided is not None else 0), player=p,
                tied=len(group) > 1 and decided is None, disqualified=p in disqualified, values=values,
            )
        start += len(group)


def _equal_keys(
    records: Mapping[Hashable, PlayerRecord], order: list[Hashable], key: KeyOf,
) -> Iterator[list[tuple[Hashable, dict[str, Value]]]]:
    """Players in rank order with all their metric values, a run of equal sort keys at a time."""
    group: list[tuple[Hashable, dict[str, Value]]] = []
    group_key: SortKey | None = None
    for p in order:
        record = records[p]
        values: dict[str, Value] = {k: m.compute(record) for k, m in METRICS.items()}
        this_key = key(p, values)
        if group and this_key != group_key:
            yield group
            group = []
        group.append((p, values))
        group_key = this_key
    if group:
        yield group


def rank(
    tables: Iterable[TableResult], ruleset: Ruleset | str, *,
    deductions: Mapping[Hashable, int] | None = None, draws: Iterable[Sequence[Hashable]] = (),
    disqualified: Collection[Hashable] = (), players: Iterable[Hashable] = (),
) -> list[Standing]:
    """Standings over `tables` in rank order (docs/rules.md §4).

    `deductions` are VP off each player's total VP (and tempo), never off shares, percentages or
    table totals. `draws` are recorded draw orders, best first, each resolving a group of players
    equal on every computed tiebreaker. Disqualified players keep their scores in their opponents'
    table totals and are listed after all others, ranked among themselves by the same chain.
    """
    records = player_records(tables, ruleset, deductions=deductions, players=players)
    return rank_records(records, ruleset, draws=draws, disqualified=disqualified)


def _rank_and_tied(standing: Standing) -> tuple[int, bool]:
    return standing.rank, standing.tied


@overload
def tie_groups(standings: Sequence[Standing]) -> list[tuple[Standing, ...]]: ...


@overload
def tie_groups(standings: Sequence[T], rank_and_tied: Callable[[T], tuple[int, bool]]) -> list[tuple[T, ...]]: ...


def tie_groups(
    standings: Sequence[Any], rank_and_tied: Callable[[Any], tuple[int, bool]] = _rank_and_tied,
) -> list[tuple[Any, ...]]:
    """Every group of players still sharing a rank, best first.

    Works on `Standing`s, or on any rows in rank order given how to read their rank and tie flag.
    """
    groups: dict[int, list[Any]] = {}
    for s in standings:
        rank, tied = rank_and_tied(s)
        if tied:
            groups.setdefault(rank, []).append(s)
    return [tuple(g) for g in groups.values()]


def straddles(first_rank: int, size: int, cutoff: int) -> bool:
    """True when a tie of `size` players from `first_rank` on crosses the places that advance.

    A tie over places 7–9 straddles a cut-off of 8: some of them go on, some do not.
    """
    return cutoff > 0 and first_rank <= cutoff < first_rank + size - 1


def ties_at_cutoff(
    standings: Sequence[Standing], cutoff: int, *, passed_over: Collection[Hashable] = (),
) -> list[tuple[Standing, ...]]:
    """The tie group straddling the cut-off (the top `cutoff` advance), as a list of at most one group.

    Disqualified and `passed_over` players (e.g. already qualified) do not take places, so the cut
    falls among the others; only those others are returned, as they are the ones who must draw.
    """
    eligible = [s for s in standings if not s.disqualified and s.player not in passed_over]
    if not 0 < cutoff < len(eligible):
        return []
    inside, outside = eligible[cutoff - 1], eligible[cutoff]
    if not (inside.tied and outside.tied and inside.rank == outside.rank):
        return []
    return [tuple(s for s in eligible if s.tied and s.rank == inside.rank)]
