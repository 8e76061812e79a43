"""Reading the `rank` command's CSV files into engine input, with every problem tied to FILE:LINE.

RESULTS: game,table,player,vp [,winner] [,minutes]; PENALTIES: player,vp (docs/interfaces.md). Rules about
a table's content come from `engines.ranking.validation`, so the command and the record-sheet form agree.

A results file of 100,000 players × 4 games is 400,000 rows: they are read one at a time into columns of
small integers (a few bytes a seat, each name kept once), never as an object per row, and the engine gets
each table as it needs it (`ResultsFile`).
"""
from __future__ import annotations

import os
import re
from array import array
from collections.abc import Collection, Hashable, Iterator
from typing import cast

from engines.csv_input import InputError, InputProblem, read_file, stream_file
from engines.ranking.engine import CheckedTables, SeatResult, TableResult, grouped
from engines.ranking.validation import check_deduction, check_table, players_seated_twice, winner_flags
from engines.rulesets import Ruleset

RESULT_COLUMNS = ("game", "table", "player", "vp")
PENALTY_COLUMNS = ("player", "vp")
NONE = -1
"""A winner or minutes cell that is not there, in a column of small integers."""
ODD = -2
"""A VP or minutes cell that is not a small integer: the cell itself is kept aside for the message."""

_INTEGER = re.compile(r"[+-]?[0-9]{1,18}")


def _whole(cell: str) -> int | str:
    """The integer in a cell, or the cell itself so validation can say what is wrong with it.

    Only plain ASCII digits count: int() would also read "1_0" as 10 and other scripts' digits.
    """
    return int(cell) if _INTEGER.fullmatch(cell) else cell


def _shown(cell: int | str | None) -> str:
    return "empty" if cell is None else repr(cell)


def _raise(path: str, problems: list[InputProblem]) -> None:
    if problems:
        raise InputError(path, sorted(problems, key=lambda p: p.line or 0))


class ResultsFile(CheckedTables):
    """The checked tables of a RESULTS file in columns, one TableResult built at a time when iterated.

    Seats are stored table after table: `start[t]` is table t's first seat. `players` are the names seen.
    """

    def __init__(self, names: list[str], index: dict[str, int]) -> None:
        self.names, self.index = names, index
        self.game, self.table, self.minutes = array("q"), array("q"), array("h")
        self.start = array("i", [0])
        self.player, self.vp, self.winner = array("i"), array("b"), array("b")

    @property
    def players(self) -> Collection[str]:
        return self.index.keys()

    def add(self, game: int, table: int, minutes: int | None, seats: list[tuple[int, int, bool]]) -> None:
        """One checked table: (player id, VP, winner) in seat order."""
        self.game.append(game)
        self.table.append(table)
        self.minutes.append(NONE if minutes is None else minutes)
        for player, vp, won in seats:
            self.player.append(player)
            self.vp.append(vp)
            self.winner.append(won)
        self.start.append(len(self.player))

    def __len__(self) -> int:
        return len(self.game)

    def __iter__(self) -> Iterator[TableResult]:
        names, player, vp, winner, start = self.names, self.player, self.vp, self.winner, self.start
        for t, (game, table, minutes) in enumerate(zip(self.game, self.table, self.minutes)):
            seats = tuple(SeatResult(names[player[i]], vp[i], bool(winner[i])) for i in range(start[t], start[t + 1]))
            yield TableResult(game, table, seats, None if minutes == NONE else minutes)


class _Rows:
    """The rows of a RESULTS file as read, in columns; cells that are no small integer kept aside by row.

    Tables are numbered in order of first appearance: `games[t]` and `tables[t]` are table t's numbers.
    """

    def __init__(self) -> None:
        self.names: list[str] = []
        self.index: dict[str, int] = {}
        self.ids: dict[int, dict[int, int]] = {}  # game -> table number -> table id, while reading
        self.games, self.tables = array("q"), array("q")
        self.line, self.table, self.player = array("i"), array("i"), array("i")
        self.vp, self.winner, self.minutes = array("b"), array("b"), array("h")
        self.odd: dict[tuple[str, int], int | str] = {}

    def add(self, line: int, game: int, table: int, name: str, vp: int | str, winner: bool | None,
            minutes: int | str | None) -> None:
        row = len(self.line)
        self.line.append(line)
        ids = self.ids.setdefault(game, {})
        t = ids.get(table)
        if t is None:
            t = ids[table] = len(self.games)
            self.games.append(game)
            self.tables.append(table)
        self.table.append(t)
        player = self.index.get(name)
        if player is None:
            player = self.index[name] = len(self.names)
            self.names.append(name)
        self.player.append(player)
        self.winner.append(NONE if winner is None else winner)
        if isinstance(vp, int) and 0 <= vp <= 127:
            self.vp.append(vp)
        else:
            self.vp.append(ODD)
            self.odd["vp", row] = vp
        if minutes is None:
            self.minutes.append(NONE)
        elif isinstance(minutes, int) and 0 <= minutes <= 32767:
            self.minutes.append(minutes)
        else:
            self.minutes.append(ODD)
            self.odd["minutes", row] = minutes

    def vp_of(self, row: int) -> int | str:
        vp = self.vp[row]
        return self.odd["vp", row] if vp == ODD else vp

    def minutes_of(self, row: int) -> int | str | None:
        minutes = self.minutes[row]
        return None if minutes == NONE else self.odd["minutes", row] if minutes == ODD else minutes

    def winner_of(self, row: int) -> bool | None:
        return None if self.winner[row] == NONE else bool(self.winner[row])

    def by_table(self) -> tuple[array[int], array[int]]:
        """Row numbers grouped by table (file order within each), and where each table's rows start."""
        self.ids.clear()
        return grouped(self.table, len(self.games))


def read_results(path: str | os.PathLike[str], ruleset: Ruleset) -> ResultsFile:
    """The tables of a RESULTS file, all checked; raises InputError listing every problem found."""
    path = os.fspath(path)
    problems: list[InputProblem] = []
    rows = _Rows()
    for line, row in stream_file(path, RESULT_COLUMNS, problems):
        game, table = _whole(row["game"]), _whole(row["table"])
        bad = [f"{name} must be a positive whole number, not {value!r}."
               for name, value in (("game", game), ("table", table))
               if not isinstance(value, int) or value < 1]
        if row.get("winner", "0") not in ("0", "1"):
            bad.append(f"winner must be 1 (the table's winner) or 0, not {row['winner']!r}.")
        problems.extend(InputProblem(line, message) for message in bad)
        if isinstance(game, int) and isinstance(table, int):
            rows.add(line, game, table, row["player"], _whole(row["vp"]),
                     row["winner"] == "1" if "winner" in row else None,
                     _whole(row["minutes"]) if row.get("minutes") else None)
    if not rows.line and not problems:
        problems.append(InputProblem(1, "there are no results below the header."))

    broken = {p.line for p in problems}
    order, start = rows.by_table()
    names, lines = rows.names, rows.line
    for t, (game, table) in enumerate(zip(rows.games, rows.tables)):
        members = order[start[t]:start[t + 1]]
        if not broken.isdisjoint(lines[r] for r in members):
            continue
        where = f"game {game}, table {table}"
        first = members[0]
        minutes = rows.minutes_of(first)
        for r in members[1:]:
            if rows.minutes_of(r) != minutes:
                problems.append(InputProblem(lines[r], f"{where}: minutes is {_shown(rows.minutes_of(r))} here but "
                                                       f"{_shown(minutes)} on line {lines[first]}; every row of a "
                                                       f"table gives the same game duration."))
        seats = [(names[rows.player[r]], rows.vp_of(r), rows.winner_of(r)) for r in members]
        for p in check_table(seats, minutes=minutes, ruleset=ruleset):
            problems.append(InputProblem(lines[members[0 if p.seat is None else p.seat]], f"{where}: {p.message}"))

    for game in dict.fromkeys(rows.games):  # game by game, tables in order of first appearance
        ids = {rows.tables[t]: t for t, g in enumerate(rows.games) if g == game}
        seated = ((table, [names[rows.player[r]] for r in order[start[t]:start[t + 1]]]) for table, t in ids.items())
        for table, p in players_seated_twice(seated):
            at = order[start[ids[table]] + (0 if p.seat is None else p.seat)]
            problems.append(InputProblem(lines[at], f"game {game}, table {table}: {p.message}"))

    _raise(path, problems)
    results = ResultsFile(names, rows.index)
    for t, (game, table) in enumerate(zip(rows.games, rows.tables)):  # every VP and duration is checked by now
        members = order[start[t]:start[t + 1]]
        flags = winner_flags([(names[rows.player[r]], rows.vp[r], rows.winner_of(r)) for r in members])
        results.add(game, table, cast(int | None, rows.minutes_of(members[0])),
                    [(rows.player[r], rows.vp[r], won) for r, won in zip(members, flags)])
    return results


def read_penalties(path: str | os.PathLike[str], players: Collection[Hashable]) -> dict[Hashable, int]:
    """VP to deduct per player (several rows for one player add up); raises InputError on any problem."""
    path = os.fspath(path)
    records, problems = read_file(path, PENALTY_COLUMNS)
    deductions: dict[Hashable, int] = {}
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
