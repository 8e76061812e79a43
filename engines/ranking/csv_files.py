"""Reading the `rank` command's CSV files into engine input, with every problem tied to FILE:LINE.

RESULTS: game,table,player,vp [,winner] [,minutes]; PENALTIES: player,vp (docs/interfaces.md). Rules about
a table's content come from `engines.ranking.validation`, so the command and the record-sheet form agree.
"""
from __future__ import annotations

import os
import re
from collections.abc import Collection, Hashable
from dataclasses import dataclass, field
from typing import cast

from engines.csv_input import InputError, InputProblem, read_file
from engines.ranking.engine import SeatResult, TableResult
from engines.ranking.validation import Problem, check_deduction, check_table, players_seated_twice, winner_flags
from engines.rulesets import Ruleset

RESULT_COLUMNS = ("game", "table", "player", "vp")
PENALTY_COLUMNS = ("player", "vp")


@dataclass
class _Row:
    line: int
    player: str
    vp: int | str
    winner: bool | None
    minutes: int | str | None


@dataclass
class _Table:
    game: int
    table: int
    rows: list[_Row] = field(default_factory=list)


_INTEGER = re.compile(r"[+-]?[0-9]{1,18}")


def _whole(cell: str) -> int | str:
    """The integer in a cell, or the cell itself so validation can say what is wrong with it.

    Only plain ASCII digits count: int() would also read "1_0" as 10 and other scripts' digits.
    """
    return int(cell) if _INTEGER.fullmatch(cell) else cell


def _line(rows: list[_Row], problem: Problem) -> int:
    """The line of the seat a problem names, else the table's first row."""
    return rows[0 if problem.seat is None else problem.seat].line


def _shown(cell: int | str | None) -> str:
    return "empty" if cell is None else repr(cell)


def _raise(path: str, problems: list[InputProblem]) -> None:
    if problems:
        raise InputError(path, sorted(problems, key=lambda p: p.line or 0))


def read_results(path: str | os.PathLike[str], ruleset: Ruleset) -> list[TableResult]:
    """The tables of a RESULTS file, all checked; raises InputError listing every problem found."""
    path = os.fspath(path)
    records, problems = read_file(path, RESULT_COLUMNS)
    tables: dict[tuple[int, int], _Table] = {}
    for line, row in records:
        game, table = _whole(row["game"]), _whole(row["table"])
        bad = [f"{name} must be a positive whole number, not {value!r}."
               for name, value in (("game", game), ("table", table))
               if not isinstance(value, int) or value < 1]
        if row.get("winner", "0") not in ("0", "1"):
            bad.append(f"winner must be 1 (the table's winner) or 0, not {row['winner']!r}.")
        problems.extend(InputProblem(line, message) for message in bad)
        if isinstance(game, int) and isinstance(table, int):
            tables.setdefault((game, table), _Table(game, table)).rows.append(_Row(
                line, row["player"], _whole(row["vp"]),
                row["winner"] == "1" if "winner" in row else None,
                _whole(row["minutes"]) if row.get("minutes") else None,
            ))
    if not records and not problems:
        problems.append(InputProblem(1, "there are no results below the header."))

    broken = {p.line for p in problems}
    for t in tables.values():
        if not broken.isdisjoint(r.line for r in t.rows):
            continue
        where = f"game {t.game}, table {t.table}"
        first = t.rows[0]
        for r in t.rows[1:]:
            if r.minutes != first.minutes:
                problems.append(InputProblem(r.line, f"{where}: minutes is {_shown(r.minutes)} here but "
                                                     f"{_shown(first.minutes)} on line {first.line}; every "
                                                     f"row of a table gives the same game duration."))
        seats = [(r.player, r.vp, r.winner) for r in t.rows]
        for p in check_table(seats, minutes=first.minutes, ruleset=ruleset):
            problems.append(InputProblem(_line(t.rows, p), f"{where}: {p.message}"))

    by_game: dict[int, list[_Table]] = {}
    for t in tables.values():
        by_game.setdefault(t.game, []).append(t)
    for game, game_tables in by_game.items():
        rows = {t.table: t.rows for t in game_tables}
        for table, p in players_seated_twice((t.table, [r.player for r in t.rows]) for t in game_tables):
            problems.append(InputProblem(_line(rows[table], p), f"game {game}, table {table}: {p.message}"))

    _raise(path, problems)
    results: list[TableResult] = []
    for t in tables.values():  # every VP and duration is a checked integer by now
        flags = winner_flags([(r.player, r.vp, r.winner) for r in t.rows])
        seated = tuple(SeatResult(r.player, cast(int, r.vp), w) for r, w in zip(t.rows, flags))
        results.append(TableResult(t.game, t.table, seated, cast(int | None, t.rows[0].minutes)))
    return results


def read_penalties(path: str | os.PathLike[str], players: Collection[Hashable]) -> dict[str, int]:
    """VP to deduct per player (several rows for one player add up); raises InputError on any problem."""
    path = os.fspath(path)
    records, problems = read_file(path, PENALTY_COLUMNS)
    deductions: dict[str, int] = {}
    for line, row in records:
        vp = _whole(row["vp"])
        if row["player"] not in players:
            unknown = f"penalty for {row['player']!r}, who has no result in the results file."
            problems.append(InputProblem(line, unknown))
        elif (message := check_deduction(vp)) is not None:
            problems.append(InputProblem(line, f"{row['player']}: {message}"))
        else:
            deductions[row["player"]] = deductions.get(row["player"], 0) + cast(int, vp)
    _raise(path, problems)
    return deductions
