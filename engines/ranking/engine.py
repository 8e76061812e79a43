"""The ranking engine: table results in, standings out (docs/rules.md §4).

Ordering compares exact integers and Fractions only; floats appear in `Standing.as_json` alone.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar

from engines.metrics import DRAW, METRICS, WINNER_CAP, GameScore, PlayerRecord, Value
from engines.ranking.validation import Problem, check_deduction, check_table, players_seated_twice
from engines.rulesets import Ruleset, ruleset_for

T = TypeVar("T")


@dataclass(frozen=True)
class SeatResult:
    player: Hashable
    vp: int
    """As recorded on the sheet; the engine caps it for ranking, the sheet keeps what was scored."""
    winner: bool


@dataclass(frozen=True)
class TableResult:
    game: int
    table: int
    seats: tuple[SeatResult, ...]
    minutes: int | None = None
    """Game duration; needed for tempo (required by rulesets that rank by it)."""


class ResultError(ValueError):
    """A table result that cannot be ranked; `problems` are the validation problems behind it."""

    def __init__(self, game: int, table: int, problems: Sequence[Problem]):
        self.game, self.table, self.problems = game, table, tuple(problems)
        super().__init__(f"game {game}, table {table}: " + " ".join(p.message for p in problems))


@dataclass(frozen=True)
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


def player_records(
    tables: Iterable[TableResult], ruleset: Ruleset | str, *,
    deductions: Mapping[Hashable, int] | None = None, players: Iterable[Hashable] = (),
) -> dict[Hashable, PlayerRecord]:
    """Validated per-player game records, games in game order; `players` adds entrants with no game yet."""
    rules = ruleset_for(ruleset)
    tables = list(tables)
    validate(tables, rules)
    games: dict[Hashable, list[GameScore]] = {p: [] for p in players}
    for t in tables:
        for seat, score in zip(t.seats, score_table(t, rules)):
            games.setdefault(seat.player, []).append(score)
    deductions = deductions or {}
    for player, vp in deductions.items():
        if player not in games:
            raise ValueError(f"VP deduction for {player}, who has no result and is not an entrant.")
        if (message := check_deduction(vp)) is not None:
            raise ValueError(f"{player}: {message}")
    return {
        p: PlayerRecord(p, tuple(sorted(g, key=lambda s: s.game)), deductions.get(p, 0))
        for p, g in games.items()
    }


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
    lead: Mapping[Hashable, tuple] | None = None,
) -> list[Standing]:
    """Order players by `lead` (higher first; e.g. a final's places), then the ruleset's chain.

    Disqualified players come after everyone else. Players still equal are ordered by the latest
    recorded draw that names all of them (a draw naming only some of them is stale and ignored).
    """
    rules = ruleset_for(ruleset)
    disqualified = set(disqualified)
    unknown = disqualified - records.keys()
    if unknown:
        raise ValueError(f"disqualified player(s) without any result or entry: {_canonical(unknown)}")
    values = {p: {k: m.compute(r) for k, m in METRICS.items()} for p, r in records.items()}
    chain = rules.computed
    keys = {
        p: (p not in disqualified, *(lead[p] if lead else ()), *(v[k] for k in chain))
        for p, v in values.items()
    }
    order = sorted(_canonical(records), key=keys.__getitem__, reverse=True)
    positions = _draw_positions(draws) if rules.uses_draws else []

    standings: list[Standing] = []
    start = 0
    while start < len(order):
        end = start + 1
        while end < len(order) and keys[order[end]] == keys[order[start]]:
            end += 1
        group = order[start:end]
        decided = _deciding_draw(group, positions) if len(group) > 1 else None
        if decided is not None:
            group.sort(key=decided.__getitem__)
        for i, p in enumerate(group):
            values[p][DRAW] = i + 1 if decided is not None else None
            standings.append(Standing(
                rank=start + 1 + (i if decided is not None else 0), player=p,
                tied=len(group) > 1 and decided is None, disqualified=p in disqualified, values=values[p],
            ))
        start = end
    return standings


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


def tie_groups(
    standings: Sequence[T], rank_and_tied: Callable[[T], tuple[int, bool]] = _rank_and_tied,
) -> list[tuple[T, ...]]:
    """Every group of players still sharing a rank, best first.

    Works on `Standing`s, or on any rows in rank order given how to read their rank and tie flag.
    """
    groups: dict[int, list[T]] = {}
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
